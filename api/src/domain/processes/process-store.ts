import type { ActiveSkillRef, MessageSender, PendingMessage, Process, ProcessStatus, RuntimeGuard, Session } from './process';
import type { ProcessEvent } from './process-event';
import type { ProcessEventLog } from './process-events';
import type { ProcessMode } from './process-mode';
import type { GuardScratchMap } from '../guards/guard-scratch';

export type NewProcess = Omit<Process, 'id' | 'createdAt' | 'updatedAt' | 'turnRequestedAt' | 'status' | 'mode' | 'guardRounds' | 'guardScratch' | 'openSkills' | 'skillUses' | 'title' | 'goal'>
  & { readonly title?: string | null; readonly goal?: string | null };

/** The fields a lane mutation may change, atomically with a row lock on the process. */
export interface ProcessPatch {
  readonly activeSkills?: readonly ActiveSkillRef[];
  readonly guards?: readonly RuntimeGuard[];
  readonly guardRounds?: Readonly<Record<string, number>>;
  readonly guardScratch?: GuardScratchMap;
  readonly openSkills?: readonly string[];
  readonly skillUses?: Readonly<Record<string, number>>;
  readonly status?: ProcessStatus;
  readonly mode?: ProcessMode;
  /** A spawn skill's worker: its rendered action, set with the activation. */
  readonly goal?: string | null;
  readonly turnRequestedAt?: Date | null;
}

export interface NewPendingMessage {
  readonly sender: MessageSender;
  readonly senderName: string;
  readonly content: string;
}

/** A message about to be queued, with the id it will have (for the events written with it). */
export interface QueuingMessage extends NewPendingMessage {
  readonly id: string;
}

/**
 * The port for sessions, processes and their inboxes. `update` runs `mutate` on the current row under
 * a row lock (SELECT … FOR UPDATE) and writes its patch in the same transaction, so concurrent
 * writers never lose an update; `mutate` must be pure and synchronous (no other store calls inside).
 */
export interface ProcessStore extends ProcessEventLog {
  /** The caller's session of that name in the project, created if missing. */
  openSession(tenantId: string, projectId: string, userId: string, name: string): Promise<Session>;
  findSession(tenantId: string, sessionId: string): Promise<Session | null>;
  listSessions(tenantId: string, projectId: string, userId: string | null): Promise<Session[]>;

  /** NameTakenError('Process', name) when the session already has a process of that name. */
  createProcess(process: NewProcess): Promise<Process>;
  findProcess(tenantId: string, processId: string): Promise<Process | null>;
  listProcesses(tenantId: string, projectId: string, sessionId: string | null): Promise<Process[]>;
  /** Names in the session starting with `prefix` (to pick the next free `<skill>-<n>`). */
  processNames(tenantId: string, sessionId: string, prefix: string): Promise<string[]>;
  /** `events` are stored and announced in the same transaction as the patch (issue 14: committed with their data). */
  update(tenantId: string, processId: string, mutate: (current: Process) => ProcessPatch | null, events?: readonly ProcessEvent[]): Promise<Process>;

  appendPending(tenantId: string, processId: string, message: NewPendingMessage): Promise<PendingMessage>;
  /**
   * Appends non-empty `messages` to the inbox in order and requests a turn (keeping an earlier
   * request's time), atomically, with the events `announce` makes of them (stored and announced in
   * the same statement). Returns the process after it. NotFoundError for an unknown process.
   */
  queue(
    tenantId: string, processId: string, messages: readonly NewPendingMessage[], announce?: (queued: readonly QueuingMessage[]) => readonly ProcessEvent[],
  ): Promise<{ process: Process; queued: PendingMessage[] }>;
  /**
   * `queue`, only while the process is IDLE and owned by `ownerId` — checked by the statement that
   * writes, so an owner's message needs no read before it (issue 18). Null, with nothing written,
   * otherwise (an unknown process too): the caller reads the process to say why.
   */
  queueIfIdleOwner(
    tenantId: string, processId: string, ownerId: string, messages: readonly NewPendingMessage[], announce?: (queued: readonly QueuingMessage[]) => readonly ProcessEvent[],
  ): Promise<{ process: Process; queued: PendingMessage[] } | null>;
  listPending(tenantId: string, processId: string): Promise<PendingMessage[]>;
}

/**
 * Cross-instance serialisation of one process's lane (DESIGN §7, issue 14): `hold` runs the job
 * while this instance owns the lane. PostgreSQL: a lease with a fencing token that the job's writes
 * are checked against; the embedded database serves one instance, so it just runs the job there.
 */
export interface LaneLock {
  hold<T>(key: string, job: (tenure: LaneTenure) => Promise<T>): Promise<T>;
}

/** How the job came to hold the lane. */
export interface LaneTenure {
  /**
   * The lane was taken from a holder whose lease expired (its instance died or stalled): a turn it
   * left RUNNING is stale and must be ended before this job begins another (issue 14).
   */
  readonly takenOver: boolean;
}
