import type { EventBus } from '../events/event-bus';
import { PushIterator } from '../shared/push-iterator';
import { TURN_EVENTS_TOPIC, type TurnEvent, type TurnEventEnvelope } from './turn';
import type { TurnStore } from './turn-store';

/**
 * A process's turn events for a subscriber: first the persisted events after `afterEventId`, then
 * the live stream, with no gap and no duplicate. The bus subscription comes FIRST; live envelopes
 * are handled on one promise chain that starts with the backlog query, so they wait behind it, and
 * any id ≤ the last one delivered is dropped. An envelope published without payload (too large for
 * a notification) is completed from the store. Bounded buffer for slow subscribers (oldest dropped).
 *
 * When the bus says events may have been missed (its LISTEN connection was lost and is back, issue
 * 14), the stream reads the stored events after the last one it delivered, on the same chain, so
 * what was published meanwhile arrives in order before anything newer — no gap, no resubscribe.
 */
export function turnEventStream(
  bus: EventBus, store: TurnStore, process: { tenantId: string; id: string }, afterEventId: string | null, maxBuffered = 10_000,
): AsyncIterableIterator<TurnEvent> {
  const stream = new PushIterator<TurnEvent>(maxBuffered);
  let last = toBigInt(afterEventId);
  const deliver = (event: TurnEvent) => {
    const id = BigInt(event.id);
    if (stream.closed || id <= last) return;
    last = id;
    stream.push(event);
  };
  let chain: Promise<void> = Promise.resolve();
  stream.onClose(bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (envelope) => {
    if (envelope.processId !== process.id || envelope.tenantId !== process.tenantId) return;
    chain = chain.then(async () => {
      if (stream.closed) return;
      const event = envelope.payload ? (envelope as TurnEvent) : await store.findEvent(envelope.tenantId, envelope.id);
      if (event) deliver(event);
    }).catch(() => undefined);
  }));
  const readBacklog = (): void => {
    chain = chain.then(async () => {
      if (stream.closed) return;
      const after = last > 0n ? last.toString() : afterEventId;
      for (const event of await store.listEvents(process.tenantId, process.id, after)) deliver(event);
    }).catch(() => undefined);
  };
  stream.onClose(bus.onMissedEvents(readBacklog));
  readBacklog();
  return stream;
}

function toBigInt(id: string | null): bigint {
  return id !== null && /^\d{1,18}$/.test(id) ? BigInt(id) : 0n;
}
