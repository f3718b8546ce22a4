/**
 * Events pushed by a producer, pulled by one consumer as an AsyncIterableIterator (GraphQL
 * subscriptions), on @repeaterjs/repeater. Bounded: past `maxBuffered` waiting values the oldest
 * are dropped (a SlidingBuffer), so a slow subscriber cannot grow memory without limit and a
 * producer never waits. `return()` / `throw()` close it, settle every pending `next()` with done,
 * and run the close hooks once (e.g. unsubscribe from the bus).
 *
 * Producers push from the moment the stream exists (a bus subscription is taken before the first
 * `next()`, so nothing published in between is lost), while a Repeater starts its executor only on
 * the first `next()`: what arrives before that goes straight into the same buffer, which is where
 * the Repeater's push would put it with no consumer waiting. Close hooks are ours, not the
 * executor's, for the same reason: a stream returned before its first `next()` never runs one.
 */
import { Repeater, SlidingBuffer, type Push } from '@repeaterjs/repeater';

export class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly buffer: SlidingBuffer;
  private readonly repeater: Repeater<T>;
  private readonly closeHooks: (() => void)[] = [];
  private forward: Push<T> | null = null;
  private done = false;

  constructor(maxBuffered = 1_000) {
    this.buffer = new SlidingBuffer(maxBuffered);
    this.repeater = new Repeater<T>(async (push, stop) => {
      this.forward = push;
      await stop;
    }, this.buffer);
  }

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
    // The Repeater's push settles when the value is consumed; a producer does not wait for that.
    if (this.forward) void this.forward(value);
    else this.buffer.add(value);
  }

  next(): Promise<IteratorResult<T>> {
    return this.repeater.next();
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      for (const hook of this.closeHooks.splice(0)) hook();
    }
    await this.repeater.return();
    return { value: undefined, done: true };
  }

  /** Closes like `return()` and rejects with `error` (Repeater's own throw() on an idle stream waits for the next push). */
  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}

/** `source` with every value mapped; closing the result closes the source. */
export function mapAsyncIterator<T, R>(source: AsyncIterableIterator<T>, map: (value: T) => R): AsyncIterableIterator<R> {
  return derived(source, async (): Promise<IteratorResult<R>> => {
    const r = await source.next();
    return r.done ? { value: undefined, done: true } : { value: map(r.value), done: false };
  });
}

/** `source` without the values `keep` refuses; closing the result closes the source. */
export function filterAsyncIterator<T>(source: AsyncIterableIterator<T>, keep: (value: T) => boolean): AsyncIterableIterator<T> {
  return derived(source, async () => {
    for (;;) {
      const r = await source.next();
      if (r.done || keep(r.value)) return r;
    }
  });
}

/** An iterator whose values `next` takes from `source`, and whose end ends `source`. */
function derived<T, R>(source: AsyncIterableIterator<T>, next: () => Promise<IteratorResult<R>>): AsyncIterableIterator<R> {
  return {
    next,
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
