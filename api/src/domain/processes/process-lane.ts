import type { LaneLock, LaneTenure } from './process-store';

/**
 * The lane (DESIGN §1, §7): every mutation of one process runs serialized. Locally a FIFO promise
 * chain per process; across instances the LaneLock (a PostgreSQL lease, issue 14) held while the job
 * runs. A failing job does not break the lane for the next one.
 */
export class ProcessLane {
  private readonly tails = new Map<string, Promise<unknown>>();
  private takeover: ((processId: string) => Promise<void>) | null = null;

  constructor(private readonly lock: LaneLock) {}

  /**
   * What any job does first when its lane was taken over from a dead holder (the turn runner ends
   * the turn left RUNNING there). Whichever job comes first — a turn, or a message being queued —
   * is the one that knows, so it is done for every job, not only for turns.
   */
  onTakeover(handler: (processId: string) => Promise<void>): void {
    this.takeover = handler;
  }

  run<T>(processId: string, job: (tenure: LaneTenure) => Promise<T>): Promise<T> {
    const previous = this.tails.get(processId) ?? Promise.resolve();
    const result = previous.then(() => this.lock.hold(processId, async (tenure) => {
      if (tenure.takenOver && this.takeover) await this.takeover(processId);
      return job(tenure);
    }));
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
export const localLaneLock: LaneLock = { hold: (_key, job) => job({ takenOver: false }) };
