/**
 * A write whose connection was lost before its answer (issue 14, fault suite): the database may
 * have committed it — the statement ran, and the reply was lost with the connection — or not. A
 * write that reports failure must have changed nothing, and a committed one must not be reported
 * as failed (a client that retries would apply it twice). So before answering, we ask the database:
 * each such write carries an id chosen here (a history row's, a message's) and `committed` looks
 * for it. Asked until the database answers, for at most `deadlineMs`; when it never does, the
 * caller is told the truth: the outcome is unknown (WriteOutcomeUnknownError), not "failed".
 */
import { DomainError } from '../domain/errors';
import { isConnectionLoss } from './connection-loss';

export class WriteOutcomeUnknownError extends DomainError {
  readonly code = 'WRITE_OUTCOME_UNKNOWN';
  readonly category = 'UNAVAILABLE';
  constructor(what: string) {
    super(`The database connection was lost before ${what} was confirmed, and the database could not be asked since; it may have been applied. Read it back before you retry.`);
  }
}

export interface ConfirmOptions {
  readonly deadlineMs?: number;
  readonly firstPauseMs?: number;
}

/**
 * Runs `write`; on a lost connection, `committed()` says whether it took effect: its result stands
 * for the write's (committed), null means it did not (the original error is thrown: nothing changed).
 */
export async function confirmedWrite<T>(what: string, write: () => Promise<T>, committed: () => Promise<T | null>, options: ConfirmOptions = {}): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isConnectionLoss(err)) throw err;
    const deadline = Date.now() + (options.deadlineMs ?? 15_000);
    for (let pause = options.firstPauseMs ?? 100; ; pause = Math.min(pause * 2, 2_000)) {
      try {
        const result = await committed();
        if (result === null) throw err;
        return result;
      } catch (asked) {
        if (asked === err || !isConnectionLoss(asked)) throw asked;
        if (Date.now() + pause > deadline) throw new WriteOutcomeUnknownError(what);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}
