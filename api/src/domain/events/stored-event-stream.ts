import type { EventBus } from './event-bus';
import type { EventRoute } from './topic-handlers';
import { PushIterator } from '../shared/push-iterator';

/** Where a stream's events come from: the bus for live ones, the store for the backlog. */
export interface StoredEventSource<Envelope, Event extends { readonly id: string }> {
  readonly topic: string;
  /** The bus hands the stream its key's envelopes only (topic-handlers.ts); `matches` still decides. */
  readonly route?: EventRoute;
  /** Whether a bus envelope belongs to this stream (its process, its tenant). */
  matches(envelope: Envelope): boolean;
  /** The event of an envelope; loaded by id when the envelope came without it (too large for a NOTIFY). */
  complete(envelope: Envelope): Promise<Event | null>;
  /** The event of an envelope that carries it, at once; undefined when it must be loaded (`complete`). */
  carried?(envelope: Envelope): Event | undefined;
  /** Stored events after `afterEventId` (all when null), oldest first. */
  backlog(afterEventId: string | null): Promise<readonly Event[]>;
}

/**
 * Stored events for a subscriber (turn events, process events): first those after `afterEventId`,
 * then the live stream, with no gap and no duplicate. The bus subscription comes FIRST; live
 * envelopes are handled on one promise chain that starts with the backlog query, so they wait
 * behind it, and any id ≤ the last one delivered is dropped. Bounded buffer for slow subscribers.
 *
 * When the bus says events may have been missed (its LISTEN connection was lost and is back, issue
 * 14), the stream reads the stored events after the last one it delivered, on the same chain, so
 * what was published meanwhile arrives in order before anything newer — no gap, no resubscribe.
 * A read that fails (the database is unreachable for a moment) is tried again, `retryMs` doubling
 * to 2 s, while later events wait behind it: a dropped read let the next live event move past
 * what it would have delivered — a silent gap (seen in the fault suite, test/faults).
 */
export function storedEventStream<Envelope, Event extends { readonly id: string }>(
  bus: EventBus, source: StoredEventSource<Envelope, Event>, afterEventId: string | null, maxBuffered = 10_000, retryMs = 100,
): AsyncIterableIterator<Event> {
  const stream = new PushIterator<Event>(maxBuffered);
  let last = toBigInt(afterEventId);
  const deliver = (event: Event) => {
    const id = BigInt(event.id);
    if (stream.closed || id <= last) return;
    last = id;
    stream.push(event);
  };
  let chain: Promise<void> = Promise.resolve();
  /** Reads and completions on the chain not finished yet: while there are none, a carried event goes at once. */
  let pending = 0;
  const then = (step: () => Promise<void>): void => {
    pending++;
    chain = chain.then(step).finally(() => void pending--);
  };
  /** A read from the store, tried until it succeeds or the subscriber leaves. */
  const retried = async (read: () => Promise<void>): Promise<void> => {
    for (let pause = retryMs; !stream.closed; pause = Math.min(pause * 2, 2_000)) {
      try {
        return await read();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
  // Ordered: this instance's own events come in commit order with the others' (event-bus.ts).
  stream.onClose(bus.subscribe<Envelope>(source.topic, (envelope) => {
    if (!source.matches(envelope)) return;
    // While the bus does not hear the other instances, a live event is this instance's own: taken
    // as it comes, it would move the stream past the others' events missed meanwhile (fault suite:
    // whole turns missed). The store has them all, in order: read them from there instead.
    if (bus.hearsOthers?.() === false) return readBacklog();
    // Nothing waiting before it: an event the envelope carries is delivered in this call (with 1,000
    // subscribers, 1,000 promise steps per event less). Otherwise it waits its turn on the chain.
    const carried = pending === 0 ? source.carried?.(envelope) : undefined;
    if (carried) return deliver(carried);
    then(() => retried(async () => {
      if (stream.closed) return;
      const event = await source.complete(envelope);
      if (event) deliver(event);
    }));
  }, { ordered: true, route: source.route }));
  const readBacklog = (): void => {
    then(() => retried(async () => {
      if (stream.closed) return;
      for (const event of await source.backlog(last > 0n ? last.toString() : afterEventId)) deliver(event);
    }));
  };
  stream.onClose(bus.onMissedEvents(readBacklog));
  readBacklog();
  return stream;
}

function toBigInt(id: string | null): bigint {
  return id !== null && /^\d{1,18}$/.test(id) ? BigInt(id) : 0n;
}
