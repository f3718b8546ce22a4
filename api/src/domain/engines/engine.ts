import type { CascadeScope } from '../cascade/scope';
import type { ChatMessage, ChatToolCall, FinishReason, ModelStreamEvent, ModelUsage, ToolSpec } from '../llm/model-provider';
import type { Process } from '../processes/process';
import type { ToolResult } from '../tools/server-tool';
import type { NewChatLogMessage, TurnEventType } from '../turns/turn';
import type { EngineName } from './engine-names';

/**
 * The Engine port (seed 004 §1: few and structural). An engine contributes its default prompt, its
 * tool whitelist (empty = unrestricted, seed 004 §6.1), optional extra system-prompt sections, and
 * runs one turn over a TurnContext the runner prepared (composed prompt, tools, history).
 */
export interface Engine {
  readonly name: EngineName;
  /** A template rendered with the §5.1 context, like the recipe prefix. */
  readonly defaultPrompt: string;
  readonly allowedTools: readonly string[];
  /** Extra sections appended to the system prompt (arthur: the recipe catalog, seed 004 §8). */
  promptSections?(setup: EngineSetup): Promise<readonly { kind: string; text: string }[]>;
  run(ctx: TurnContext): Promise<TurnResult>;
}

export interface EngineSetup {
  readonly process: Process;
  readonly scope: CascadeScope;
}

/** Everything one turn of an engine works with; the runner persists and streams through it. */
export interface TurnContext {
  readonly process: Process;
  readonly turnId: string;
  /** The composed system messages: prompt, then the skills section as its own message. */
  readonly system: readonly ChatMessage[];
  /** The chat log up to and including this turn's input. */
  readonly history: readonly ChatMessage[];
  /** Tools offered with their schema. */
  readonly tools: readonly ToolSpec[];
  /** Deferred tools tool_describe loaded so far this turn: offered too from the next model call on. */
  loadedTools?(): readonly ToolSpec[];
  readonly maxIterations: number;
  /** params.validation: the validator corrections of seed 004 §5a. */
  readonly validation: boolean;
  /** The recipe's dataRelayCorrection (two %d), null for the engine default. */
  readonly dataRelayCorrection: string | null;
  callModel(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): AsyncIterable<ModelStreamEvent>;
  /** Runs a tool the model called; refusals (not in the pool) come back as an error result. */
  dispatch(call: ChatToolCall): Promise<ToolResult>;
  /** Persists one chat-log message of this turn. */
  record(message: NewChatLogMessage): Promise<void>;
  /** Streams assistant text (batched into TextDelta events). */
  text(delta: string): void;
  emit(type: TurnEventType, payload: Readonly<Record<string, unknown>>): Promise<void>;
}

export interface TurnResult {
  readonly finishReason: FinishReason;
  readonly usage: ModelUsage;
  /** The last assistant text of the turn (a child's result for its parent). */
  readonly lastText: string;
  readonly iterations: number;
  readonly corrections: readonly string[];
}
