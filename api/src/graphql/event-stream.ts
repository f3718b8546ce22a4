import type { EventBus } from '../domain/events/event-bus';

/**
 * Bus events as an AsyncIterableIterator for GraphQL subscriptions. Buffers a bounded number of
 * events for a slow subscriber (the oldest are dropped past it) and unsubscribes when the client
 * stops (graphql-js calls `return()`).
 */
export function eventStream<T, R>(
  bus: EventBus, topic: string, map: (event: T) => R | null, maxBuffered = 1_000,
): AsyncIterableIterator<R> {
  const buffer: R[] = [];
  let wake: ((result: IteratorResult<R>) => void) | null = null;
  let done = false;
  const unsubscribe = bus.subscribe<T>(topic, (event) => {
    const value = map(event);
    if (value === null || done) return;
    if (wake) {
      const resolve = wake;
      wake = null;
      resolve({ value, done: false });
    } else {
      buffer.push(value);
      if (buffer.length > maxBuffered) buffer.shift();
    }
  });
  const finish = (): Promise<IteratorResult<R>> => {
    done = true;
    unsubscribe();
    buffer.length = 0;
    wake?.({ value: undefined, done: true });
    wake = null;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next: () => {
      if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (wake = resolve));
    },
    return: finish,
    throw: (error) => finish().then(() => Promise.reject(error)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
