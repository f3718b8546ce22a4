import { DomainError } from '../errors';
import type { ClientToolSpec } from '../client-tools/client-tool';
import type { Process } from '../processes/process';
import type { ChatLogMessage, NewChatLogMessage, NewTurnEvent, TakenMessage, Turn, TurnEvent, TurnOutcome } from './turn';

/**
 * The port for turns, the chat log and the turn event log, over the `process_inbox`, `messages`,
 * `turns` and `turn_events` tables. Every method filters by tenant.
 */
export interface TurnStore {
  /**
   * Atomically, when the process is IDLE: takes the whole pending inbox (FIFO), clears the process's
   * turn request, opens a RUNNING turn in the process's engine holding the inbox as input and writes
   * the taken messages to the chat log; answers with the process as it was read. null (and no turn,
   * the request still cleared) when the inbox is empty; null and nothing changed when the process is
   * not IDLE or not there. StaleTurnError (and nothing changed) when a turn of the IDLE process is
   * still RUNNING: on the lane it is stale, and must be ended first.
   */
  beginTurn(tenantId: string, processId: string): Promise<BegunTurn | null>;
  appendMessage(tenantId: string, processId: string, turnId: string | null, message: NewChatLogMessage): Promise<ChatLogMessage>;
  /**
   * Ends a RUNNING turn. FAILED and INTERRUPTED put the input back into the inbox at its original
   * FIFO position and drop the turn's chat-log rows (its events stay). False when not RUNNING.
   */
  finishTurn(tenantId: string, turnId: string, outcome: TurnOutcome): Promise<boolean>;
  findTurn(tenantId: string, turnId: string): Promise<Turn | null>;
  /**
   * Takes a FINISHED turn back (issue 8, regenerateTurn): in one transaction the turn becomes
   * REGENERATED, its input goes back into the inbox at its FIFO position and its chat-log rows are
   * dropped. Returns the open skills it started from; null when the turn is not FINISHED.
   */
  regenerate(tenantId: string, turnId: string): Promise<{ openSkillsBefore: readonly string[] | null } | null>;
  listTurns(tenantId: string, processId: string): Promise<Turn[]>;
  listMessages(tenantId: string, processId: string): Promise<ChatLogMessage[]>;
  /**
   * Events in one write, with ids in the list's order; `messages` (the turn's chat-log rows, in
   * order) are stored by the same statement. LeaseLostError, and nothing stored, when fenced out.
   */
  appendEvents(tenantId: string, processId: string, turnId: string, events: readonly NewTurnEvent[], messages?: readonly NewChatLogMessage[]): Promise<TurnEvent[]>;
  /** Events of the process with id > afterEventId (all when null), oldest first. */
  listEvents(tenantId: string, processId: string, afterEventId: string | null, limit?: number): Promise<TurnEvent[]>;
  findEvent(tenantId: string, eventId: string): Promise<TurnEvent | null>;
  /** Turns left RUNNING (all tenants) whose lane no live instance holds: their server died (or stalled past its lease) mid-turn. */
  listRunningTurns(): Promise<Turn[]>;
  /** The process's turns left RUNNING, for the holder of a lane taken over from a dead instance. */
  listRunningTurnsOf(processId: string): Promise<Turn[]>;
  /**
   * IDLE processes (all tenants) waiting for a turn: `turn_requested_at` due; a process with a
   * waiting message but no request gets one here first (a request lost to a race is repaired).
   */
  listRequestedTurns(): Promise<{ tenantId: string; processId: string }[]>;
}

/** A turn just begun: the process it was read with, the turn and the inbox it took. */
export interface BegunTurn {
  readonly process: Process;
  readonly turn: Turn;
  readonly taken: TakenMessage[];
  /** The session's client tools as the turn began, when the store reads them with it (one read less, issue 18). */
  readonly clientTools?: readonly ClientToolSpec[];
  /** The chat log as the turn began, its input logged, when the store reads it with it (one read less, issue 18). */
  readonly log?: readonly ChatLogMessage[];
}

/** A turn of the process is still RUNNING, so no other may begin (the lane holder ends it first). */
export class StaleTurnError extends DomainError {
  readonly code = 'STALE_TURN';
  readonly category = 'CONFLICT';
  constructor(processId: string) {
    super(`A turn of process ${processId} is still running; it must end before another begins`);
  }
}
