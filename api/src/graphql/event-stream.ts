import type { EventBus } from '../domain/events/event-bus';
import { PushIterator } from '../domain/shared/push-iterator';

/**
 * Bus events as an AsyncIterableIterator for GraphQL subscriptions: `map` filters (null = skip) and
 * shapes each event; the bus subscription ends when the client stops (graphql-js calls `return()`).
 */
export function eventStream<T, R>(bus: EventBus, topic: string, map: (event: T) => R | null, maxBuffered = 1_000): AsyncIterableIterator<R> {
  const stream = new PushIterator<R>(maxBuffered);
  stream.onClose(bus.subscribe<T>(topic, (event) => {
    const value = map(event);
    if (value !== null) stream.push(value);
  }));
  return stream;
}
