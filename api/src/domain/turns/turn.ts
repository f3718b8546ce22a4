import type { FinishReason, ModelUsage } from '../llm/model-provider';
import type { MessageSender } from '../processes/process';
import type { InputRestore } from './turn-retry';

/**
 * Turns (DESIGN §1, issue 5): one turn takes the process's pending inbox, composes, calls the model
 * with a tool loop and persists every message. A turn that fails (provider error, timeout) or is
 * interrupted (server stopped mid-turn) puts its input back into the inbox: nothing sent is lost.
 */
/** REGENERATED: a finished turn taken back by `regenerateTurn` (its input ran again). */
export type TurnStatus = 'RUNNING' | 'FINISHED' | 'FAILED' | 'INTERRUPTED' | 'REGENERATED';

export interface Turn {
  readonly id: string;
  readonly tenantId: string;
  readonly processId: string;
  readonly engine: string;
  readonly status: TurnStatus;
  readonly finishReason: FinishReason | null;
  readonly usage: ModelUsage | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
}

/** An inbox message taken by a turn, with its FIFO position (restored there on failure). */
export interface TakenMessage {
  readonly id: string;
  readonly seq: string;
  readonly sender: MessageSender;
  readonly senderName: string;
  readonly content: string;
  readonly createdAt: string;
  /** Turns that failed on it before (issue 14: retried with backoff, marked failed at the cap). */
  readonly attempts?: number;
  /** The last failure, `CODE: message`. */
  readonly failure?: string | null;
}

export type MessageRole = 'user' | 'assistant' | 'system' | 'tool';

/** The tool side of a chat-log row: the calls of an assistant message, or the call a tool row answers. */
export type StoredToolCall =
  | { readonly kind: 'calls'; readonly calls: readonly { readonly id: string; readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }[] }
  | { readonly kind: 'result'; readonly toolCallId: string; readonly toolName: string; readonly isError: boolean };

/** One row of the chat log (`messages`). */
export interface ChatLogMessage {
  readonly id: string;
  readonly processId: string;
  readonly seq: string;
  readonly role: MessageRole;
  readonly senderName: string | null;
  readonly content: string;
  readonly toolCall: StoredToolCall | null;
  readonly turnId: string | null;
  readonly createdAt: Date;
}

export interface NewChatLogMessage {
  readonly role: MessageRole;
  readonly senderName: string | null;
  readonly content: string;
  readonly toolCall: StoredToolCall | null;
}

export const TURN_EVENT_TYPES = [
  'TurnStarted', 'PromptComposed', 'TextDelta', 'ToolCallStarted', 'ToolCallFinished', 'SkillVerdicts', 'TurnFinished', 'TurnFailed',
  // Issue 6: `vance.log` lines of scripts and guards, and what each guard decided.
  'ScriptLog', 'GuardRan',
] as const;
export type TurnEventType = (typeof TURN_EVENT_TYPES)[number];

/** A turn event before it is stored. */
export interface NewTurnEvent {
  readonly type: TurnEventType;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A persisted turn event; `id` is a bigint identity as a decimal string, increasing per database. */
export interface TurnEvent {
  readonly id: string;
  readonly tenantId: string;
  readonly processId: string;
  readonly turnId: string;
  readonly type: TurnEventType;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly at: string;
}

/** On the bus. `payload` is left out when too large for a notification; subscribers load it by id. */
export interface TurnEventEnvelope extends Omit<TurnEvent, 'payload'> {
  readonly payload?: Readonly<Record<string, unknown>>;
}

export const TURN_EVENTS_TOPIC = 'turn_events';

export interface TurnOutcome {
  readonly status: Exclude<TurnStatus, 'RUNNING' | 'REGENERATED'>;
  /** FINISHED: the open `picked` skills the turn started from (what regenerateTurn restores). */
  readonly openSkillsBefore?: readonly string[];
  readonly finishReason?: FinishReason | null;
  readonly usage?: ModelUsage | null;
  readonly errorCode?: string | null;
  readonly errorMessage?: string | null;
  /**
   * The one event that ends the turn (TurnFinished or TurnFailed), written and announced with the
   * final state — in the same transaction, so a turn never ends twice or without its event (issue 14).
   */
  readonly end?: NewTurnEvent;
  /** FAILED / INTERRUPTED: how the input goes back (attempts, failed messages, the retry's time). */
  readonly restore?: InputRestore;
  /** Events and chat-log rows held for the next write (TurnEventSink): stored by the same statement, before `end`. */
  readonly held?: HeldWrites;
}

/** What a turn has ready to store but nothing needs stored yet: it goes with the turn's next write (issue 18). */
export interface HeldWrites {
  readonly events: readonly NewTurnEvent[];
  readonly messages: readonly NewChatLogMessage[];
}
