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
 * A read that fails (the database is unreachable for a moment) is tried again, 100 ms doubling to
 * 2 s, while later events wait behind it.
 */
export function turnEventStream(
  bus: EventBus, store: TurnStore, process: { tenantId: string; id: string }, afterEventId: string | null, maxBuffered = 10_000, retryMs = 100,
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
  /**
   * A read from the store, tried again until it succeeds or the subscriber leaves (issue 14): a read
   * that failed on a connection lost a moment ago was dropped, and the next live event then moved
   * `last` past what it would have delivered — a silent gap. Later envelopes wait behind it on the chain.
   */
  const retried = async (read: () => Promise<void>): Promise<void> => {
    for (let pause = retryMs; !stream.closed; pause = Math.min(pause * 2, 2_000)) {
      try {
        return await read();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
  stream.onClose(bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (envelope) => {
    if (envelope.processId !== process.id || envelope.tenantId !== process.tenantId) return;
    chain = chain.then(() => retried(async () => {
      if (stream.closed) return;
      const event = envelope.payload ? (envelope as TurnEvent) : await store.findEvent(envelope.tenantId, envelope.id);
      if (event) deliver(event);
    }));
  }));
  const readBacklog = (): void => {
    chain = chain.then(() => retried(async () => {
      if (stream.closed) return;
      const after = last > 0n ? last.toString() : afterEventId;
      for (const event of await store.listEvents(process.tenantId, process.id, after)) deliver(event);
    }));
  };
  stream.onClose(bus.onMissedEvents(readBacklog));
  readBacklog();
  return stream;
}

function toBigInt(id: string | null): bigint {
  return id !== null && /^\d{1,18}$/.test(id) ? BigInt(id) : 0n;
}
