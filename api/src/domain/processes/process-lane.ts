import type { LaneLock } from './process-store';

/**
 * The lane (DESIGN §1, §7): every mutation of one process runs serialized. Locally a FIFO promise
 * chain per process; across instances the LaneLock (a PostgreSQL advisory lock) held while the job
 * runs. A failing job does not break the lane for the next one.
 */
export class ProcessLane {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly lock: LaneLock) {}

  run<T>(processId: string, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(processId) ?? Promise.resolve();
    const result = previous.then(async () => {
      const release = await this.lock.acquire(processId);
      try {
        return await job();
      } finally {
        await release();
      }
    });
    const tail = result.catch(() => undefined);
    this.tails.set(processId, tail);
    // Forget the chain once it is idle, so the map does not grow with every process ever touched.
    void tail.then(() => {
      if (this.tails.get(processId) === tail) this.tails.delete(processId);
    });
    return result;
  }
}

/** The embedded database serves one instance: the local FIFO is all the serialisation needed. */
export const localLaneLock: LaneLock = { acquire: async () => async () => {} };
