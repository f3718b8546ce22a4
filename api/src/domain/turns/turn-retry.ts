/**
 * What becomes of a turn's input when the turn fails or is interrupted (issue 14, item 6). The
 * input goes back into the inbox at its FIFO position, and:
 * - a FAILED turn schedules its retry with backoff (`baseDelayMs`, doubling per attempt, at most
 *   `maxDelayMs`) — before, a failed turn's input waited for the next message;
 * - a message that failed the same way (the same error code) `maxAttempts` times in a row is marked
 *   failed with that reason and no turn takes it again, so it cannot block its process forever;
 * - a failure the store calls transient (the database connection was lost) and an interrupted turn
 *   (its instance died) are not the message's fault: they are retried, but not counted.
 */
import type { TakenMessage } from './turn';

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };

/** One taken message as it goes back into the inbox. */
export interface RestoredMessage extends TakenMessage {
  readonly attempts: number;
  readonly failure: string | null;
  /** Failed for the last time: kept in the inbox, marked failed, taken by no turn. */
  readonly failed: boolean;
}

export interface InputRestore {
  readonly messages: readonly RestoredMessage[];
  /** When to run the next turn, in ms from now; null when nothing of the input is left to retry. */
  readonly retryInMs: number | null;
}

export interface TurnFailure {
  readonly code: string;
  readonly message: string;
  /** Counts towards maxAttempts (a failure of this message, not of the instance or the connection). */
  readonly counts: boolean;
}

export function planRestore(taken: readonly TakenMessage[], failure: TurnFailure, policy: RetryPolicy = DEFAULT_RETRY_POLICY): InputRestore {
  const reason = `${failure.code}: ${failure.message}`;
  const messages = taken.map((m): RestoredMessage => {
    const before = m.attempts ?? 0;
    if (!failure.counts) return { ...m, attempts: before, failure: m.failure ?? null, failed: false };
    // "The same way": a different error starts the count again.
    const attempts = sameCode(m.failure ?? null, failure.code) ? before + 1 : 1;
    return { ...m, attempts, failure: reason, failed: attempts >= policy.maxAttempts };
  });
  const left = messages.filter((m) => !m.failed);
  if (left.length === 0) return { messages, retryInMs: null };
  const attempts = Math.max(1, ...left.map((m) => m.attempts));
  const retryInMs = failure.code === 'INTERRUPTED' ? 0 : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
  return { messages, retryInMs };
}

function sameCode(previous: string | null, code: string): boolean {
  return previous !== null && previous.startsWith(`${code}: `);
}
