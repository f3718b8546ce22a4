import { describe, expect, it } from 'vitest';
import type { EventBus, Unsubscribe } from '../events/event-bus';
import { TURN_EVENTS_TOPIC, type TurnEvent } from './turn';
import { turnEventStream } from './turn-event-stream';
import type { TurnStore } from './turn-store';

const TENANT = 't';
const PROCESS = 'p';

/** A bus whose cross-instance side can be cut: while `connected` is false, live events are lost. */
class CuttableBus implements EventBus {
  connected = true;
  private readonly handlers = new Set<(payload: unknown) => void>();
  private readonly gapHandlers = new Set<() => void>();

  async publish<T>(_topic: string, payload: T): Promise<void> {
    if (this.connected) for (const h of [...this.handlers]) h(payload);
  }

  subscribe<T>(_topic: string, handler: (payload: T) => void): Unsubscribe {
    const h = handler as (payload: unknown) => void;
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }

  onMissedEvents(handler: () => void): Unsubscribe {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  /** This instance's own event: its subscribers get it even while the cross-instance side is cut. */
  deliverLocal(payload: unknown): void {
    for (const h of [...this.handlers]) h(payload);
  }

  hearsOthers(): boolean {
    return this.connected;
  }

  reconnect(): void {
    this.connected = true;
    for (const h of [...this.gapHandlers]) h();
  }

  get gapListeners(): number {
    return this.gapHandlers.size;
  }

  async close(): Promise<void> {}
}

/** The stored events; `write` stores one and publishes it, as the turn's sink does. */
function storeAndBus() {
  const events: TurnEvent[] = [];
  const bus = new CuttableBus();
  let reads = 0;
  /** Reads that fail next, as on a connection the database just terminated. */
  const failing = { reads: 0 };
  const store = {
    listEvents: async (_t: string, _p: string, after: string | null) => {
      reads++;
      await new Promise((r) => setImmediate(r));
      if (failing.reads > 0 && failing.reads--) throw new Error('Connection terminated unexpectedly');
      return events.filter((e) => BigInt(e.id) > BigInt(after ?? '0'));
    },
    findEvent: async (_t: string, id: string) => events.find((e) => e.id === id) ?? null,
  } as unknown as TurnStore;
  const write = async (): Promise<void> => {
    const event: TurnEvent = { id: String(events.length + 1), tenantId: TENANT, processId: PROCESS, turnId: 'turn', type: 'TextDelta', payload: { n: events.length + 1 }, at: new Date(0).toISOString() };
    events.push(event);
    await bus.publish(TURN_EVENTS_TOPIC, event);
  };
  /** An event written on this instance: delivered here whether or not the bus hears the others. */
  const writeLocal = async (): Promise<void> => {
    const event: TurnEvent = { id: String(events.length + 1), tenantId: TENANT, processId: PROCESS, turnId: 'turn', type: 'TextDelta', payload: { n: events.length + 1 }, at: new Date(0).toISOString() };
    events.push(event);
    bus.deliverLocal(event);
  };
  return { bus, store, write, writeLocal, failing, reads: () => reads };
}

async function take(stream: AsyncIterableIterator<TurnEvent>, n: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < n) ids.push((await stream.next()).value!.id);
  return ids;
}

describe('turnEventStream after missed events (issue 14: silent gaps after a LISTEN reconnect)', () => {
  it('reads what was stored while the bus was cut, in order, before newer live events, each once', async () => {
    const { bus, store, write } = storeAndBus();
    await write();
    const stream = turnEventStream(bus, store, { tenantId: TENANT, id: PROCESS }, null);
    expect(await take(stream, 1)).toEqual(['1']);
    await write();
    expect(await take(stream, 1)).toEqual(['2']);
    bus.connected = false;
    await write();
    await write();
    bus.reconnect();
    await write(); // live, while the backlog read is under way: it waits behind it
    expect(await take(stream, 3)).toEqual(['3', '4', '5']);
    await write();
    expect(await take(stream, 1)).toEqual(['6']);
    await stream.return?.();
  });

  it("does not let this instance's own event skip the others' events missed while the bus is cut (fault suite: whole turns missed)", async () => {
    const { bus, store, write, writeLocal } = storeAndBus();
    const stream = turnEventStream(bus, store, { tenantId: TENANT, id: PROCESS }, null, 10_000, 1);
    await write();
    expect(await take(stream, 1)).toEqual(['1']);
    bus.connected = false;
    await write(); // another instance's: lost with the listener
    await writeLocal(); // this instance's: delivered here at once
    // Before: '3' came live and moved the stream past '2', which the re-read after the reconnect skipped.
    expect(await take(stream, 2)).toEqual(['2', '3']);
    bus.reconnect();
    await write();
    expect(await take(stream, 1)).toEqual(['4']);
    await stream.return?.();
  });

  it('tries a failed backlog read again, and holds newer live events behind it (before: the read was dropped, a silent gap)', async () => {
    const { bus, store, write, failing } = storeAndBus();
    const stream = turnEventStream(bus, store, { tenantId: TENANT, id: PROCESS }, null, 10_000, 1);
    await write();
    expect(await take(stream, 1)).toEqual(['1']);
    bus.connected = false;
    await write();
    await write();
    failing.reads = 2;
    bus.reconnect();
    await write(); // live, while the backlog read fails: it waits behind the read
    expect(await take(stream, 3)).toEqual(['2', '3', '4']);
    await stream.return?.();
  });

  it('re-reads from the subscriber\'s afterEventId when nothing was delivered yet', async () => {
    const { bus, store, write } = storeAndBus();
    for (let i = 0; i < 3; i++) await write();
    const stream = turnEventStream(bus, store, { tenantId: TENANT, id: PROCESS }, '2');
    expect(await take(stream, 1)).toEqual(['3']);
    bus.connected = false;
    await write();
    bus.reconnect();
    expect(await take(stream, 1)).toEqual(['4']);
    await stream.return?.();
  });

  it('stops listening for gaps once the subscriber leaves', async () => {
    const { bus, store, reads } = storeAndBus();
    const stream = turnEventStream(bus, store, { tenantId: TENANT, id: PROCESS }, null);
    expect(bus.gapListeners).toBe(1);
    await stream.return?.();
    expect(bus.gapListeners).toBe(0);
    const before = reads();
    bus.reconnect();
    await new Promise((r) => setImmediate(r));
    expect(reads()).toBe(before);
  });
});
