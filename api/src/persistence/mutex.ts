/**
 * A FIFO async mutex. The PGlite pool uses it to make its single session exclusive: whoever holds
 * the lock owns the session (and any transaction on it) until it calls the returned release.
 */
export type Release = () => void;

export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** Resolves once every earlier holder has released; the release function is idempotent. */
  lock(): Promise<Release> {
    let unlock!: () => void;
    const next = new Promise<void>((resolve) => (unlock = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    this.waiting += 1;
    return previous.then(() => {
      this.waiting -= 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        unlock();
      };
    });
  }

  /** How many callers wait for the lock (the holder not counted). */
  get waitingCount(): number {
    return this.waiting;
  }
}
