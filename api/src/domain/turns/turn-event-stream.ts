import type { EventBus } from '../events/event-bus';
import { storedEventStream } from '../events/stored-event-stream';
import { processRoute } from '../events/topic-handlers';
import { TURN_EVENTS_TOPIC, type TurnEvent, type TurnEventEnvelope } from './turn';
import type { TurnStore } from './turn-store';

/**
 * A process's turn events for a subscriber: the persisted events after `afterEventId`, then the
 * live ones, with no gap and no duplicate, also across a bus reconnect (stored-event-stream.ts). An
 * envelope published without payload (too large for a notification) is completed from the store.
 */
export function turnEventStream(
  bus: EventBus, store: TurnStore, process: { tenantId: string; id: string }, afterEventId: string | null, maxBuffered = 10_000, retryMs = 100,
): AsyncIterableIterator<TurnEvent> {
  return storedEventStream<TurnEventEnvelope, TurnEvent>(bus, {
    topic: TURN_EVENTS_TOPIC,
    route: processRoute(process),
    matches: (e) => e.processId === process.id && e.tenantId === process.tenantId,
    complete: async (e) => (e.payload ? (e as TurnEvent) : store.findEvent(e.tenantId, e.id)),
    carried: (e) => (e.payload ? (e as TurnEvent) : undefined),
    backlog: (after) => store.listEvents(process.tenantId, process.id, after),
  }, afterEventId, maxBuffered, retryMs);
}
