/**
 * Events pushed by a producer, pulled by one consumer as an AsyncIterableIterator (GraphQL
 * subscriptions). Bounded: past `maxBuffered` waiting values the oldest are dropped, so a slow
 * subscriber cannot grow memory without limit. `return()` / `throw()` close it and run the
 * close hooks once (e.g. unsubscribe from the bus).
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private readonly closeHooks: (() => void)[] = [];
  private wake: ((result: IteratorResult<T>) => void) | null = null;
  private done = false;

  constructor(private readonly maxBuffered = 1_000) {}

  get closed(): boolean {
    return this.done;
  }

  /** Runs once when the consumer stops (immediately if it already has). */
  onClose(hook: () => void): void {
    if (this.done) hook();
    else this.closeHooks.push(hook);
  }

  push(value: T): void {
    if (this.done) return;
    if (this.wake) {
      const resolve = this.wake;
      this.wake = null;
      resolve({ value, done: false });
      return;
    }
    this.buffer.push(value);
    if (this.buffer.length > this.maxBuffered) this.buffer.shift();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.wake = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      this.buffer.length = 0;
      for (const hook of this.closeHooks.splice(0)) hook();
      this.wake?.({ value: undefined, done: true });
      this.wake = null;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    return this.return().then(() => Promise.reject(error));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}

/** `source` with every value mapped; closing the result closes the source. */
export function mapAsyncIterator<T, R>(source: AsyncIterableIterator<T>, map: (value: T) => R): AsyncIterableIterator<R> {
  return {
    next: async () => {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: map(r.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    throw: async (error) => {
      await source.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
