/**
 * Events pushed by a producer, pulled by one consumer as an AsyncIterableIterator (GraphQL
 * subscriptions). Bounded: past `maxBuffered` waiting values the oldest are dropped (a sliding
 * buffer), so a slow subscriber cannot grow memory without limit and a producer never waits.
 * `return()` / `throw()` close it, settle every pending `next()` with done, and run the close hooks
 * once (e.g. unsubscribe from the bus).
 *
 * Producers push from the moment the stream exists (a bus subscription is taken before the first
 * `next()`, so nothing published in between is lost). A queue of its own rather than
 * @repeaterjs/repeater (which it was built on until issue 18): with 1,000 subscribers of one turn,
 * the Repeater's push — a promise and its bookkeeping per value and subscriber — was the largest
 * cost of the fan-out after the socket writes. Here a push to a waiting consumer settles one promise.
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  private buffer: T[] = [];
  private head = 0;
  /** next() calls waiting for a value, oldest first. */
  private readonly waiting: ((result: IteratorResult<T>) => void)[] = [];
  private readonly closeHooks: (() => void)[] = [];
  private done = false;
  /** Set by `pushTo`: values go to it as they are pushed, not to `next()`. */
  private sink: ((value: T) => void) | null = null;

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
    if (this.sink) return this.sink(value);
    const consumer = this.waiting.shift();
    if (consumer) return consumer({ value, done: false });
    if (this.buffer.length - this.head >= this.maxBuffered) this.buffer[this.head++] = undefined as T; // the oldest goes
    this.buffer.push(value);
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * From now on every value goes to `sink` in the push's own call (what is buffered first, in
   * order), and `next()` only reports the end: a consumer of many streams writes each event without
   * a promise per value and stream (issue 18, fan-out; ws-direct-next.ts).
   */
  pushTo(sink: (value: T) => void): void {
    const waiting = this.buffer.slice(this.head);
    this.buffer = [];
    this.head = 0;
    this.sink = sink;
    for (const value of waiting) if (!this.done) sink(value);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head]!;
      this.buffer[this.head++] = undefined as T; // not kept alive by the buffer
      if (this.head === this.buffer.length) {
        this.buffer = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      this.buffer = [];
      this.head = 0;
      for (const hook of this.closeHooks.splice(0)) hook();
      for (const consumer of this.waiting.splice(0)) consumer({ value: undefined, done: true });
    }
    return { value: undefined, done: true };
  }

  /** Closes like `return()` and rejects with `error`. */
  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}

/** An iterator that can hand its values to a sink as they come instead (PushIterator and what derives from it). */
export interface PushableIterator<T> extends AsyncIterableIterator<T> {
  pushTo(sink: (value: T) => void): void;
}

export function isPushable<T>(iterator: AsyncIterator<T>): iterator is PushableIterator<T> {
  return typeof (iterator as Partial<PushableIterator<T>>).pushTo === 'function';
}

/** `source` with every value mapped; closing the result closes the source. */
export function mapAsyncIterator<T, R>(source: AsyncIterableIterator<T>, map: (value: T) => R): AsyncIterableIterator<R> {
  const next = async (): Promise<IteratorResult<R>> => {
    const r = await source.next();
    return r.done ? { value: undefined, done: true } : { value: map(r.value), done: false };
  };
  return derived(source, next, isPushable(source) ? (sink) => source.pushTo((value) => sink(map(value))) : undefined);
}

/** `source` without the values `keep` refuses; closing the result closes the source. */
export function filterAsyncIterator<T>(source: AsyncIterableIterator<T>, keep: (value: T) => boolean): AsyncIterableIterator<T> {
  const next = async () => {
    for (;;) {
      const r = await source.next();
      if (r.done || keep(r.value)) return r;
    }
  };
  return derived(source, next, isPushable(source) ? (sink) => source.pushTo((value) => void (keep(value) && sink(value))) : undefined);
}

/** An iterator whose values `next` takes from `source` (or `pushTo` hands on), and whose end ends `source`. */
function derived<T, R>(source: AsyncIterableIterator<T>, next: () => Promise<IteratorResult<R>>, pushTo?: (sink: (value: R) => void) => void): AsyncIterableIterator<R> {
  return {
    next,
    ...(pushTo ? { pushTo } : {}),
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
