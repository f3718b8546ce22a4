import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import type { TurnEvent } from '../../api/src/domain/turns/turn';
import { turnEventStream } from '../../api/src/domain/turns/turn-event-stream';
import { openDatabase, PgEventBus, TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, isConnectionLoss, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { createPlainProcess } from '../support/process-fixture';
import { startPgProxy, type PgProxy } from './pg-proxy';

// CI, stop 29 (refuse-connections, PostgreSQL): a turnEvents subscriber missed a TurnFinished. Two
// ways an instance's own events could hide another's, each caused here:
// - a write committed and NOTIFYed, its reply lost with the connection: the writing instance skips
//   its own echo and delivered locally only after a write that answered;
// - a lane that moved here: this instance's first event was delivered at once while the other
//   instance's last one was still on its way, and the stream (ids only increase) dropped it.

const postgres = testDatabases().find((d) => d.name === 'postgres');

describe.runIf(postgres)('a write whose reply is lost after its commit (PostgreSQL)', () => {
  let direct: Database;
  let viaProxy: Database;
  let proxy: PgProxy;
  let slowListen: PgProxy;
  let bus: PgEventBus;
  let here: PgEventBus;
  let there: PgEventBus;
  let tenantId: string;
  let target: Process;
  let writer: TypeOrmTurnStore;
  let queue: TypeOrmProcessStore;
  let reader: TypeOrmTurnStore;

  beforeAll(async () => {
    direct = await postgres!.open();
    const url = process.env.TEST_DATABASE_URL!;
    proxy = await startPgProxy(url);
    viaProxy = await openDatabase({ databaseUrl: proxy.url, schema: direct.schema!, poolSize: 5 });
    const quiet = { logger: { info: () => {}, warn: () => {} }, reconnectDelayMs: 200 };
    bus = await PgEventBus.connect(url, `lost_${randomBytes(4).toString('hex')}`, quiet);
    // Two instances on one namespace; `here` hears the database through a network that can be slow.
    slowListen = await startPgProxy(url);
    const namespace = `order_${randomBytes(4).toString('hex')}`;
    here = await PgEventBus.connect(slowListen.url, namespace, quiet);
    there = await PgEventBus.connect(url, namespace, quiet);
    const identity = new TypeOrmIdentityStore(direct.dataSource);
    tenantId = (await identity.createTenant('acme')).tenant.id;
    const alice = (await identity.createUser({ tenantId, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const projectId = (await identity.createProject(tenantId, 'p', 'NORMAL', alice)).id;
    queue = new TypeOrmProcessStore(direct.dataSource, bus);
    const session = await queue.openSession(tenantId, projectId, alice, 'main');
    target = await createPlainProcess(queue, { tenantId, projectId, sessionId: session.id, userId: alice });
    writer = new TypeOrmTurnStore(viaProxy.dataSource, bus);
    reader = new TypeOrmTurnStore(direct.dataSource, bus);
  });
  afterAll(async () => {
    await bus?.close();
    await here?.close();
    await there?.close();
    await slowListen?.close();
    await viaProxy?.close();
    await proxy?.close();
    await direct?.close();
  });

  /** The stream's events until one of `type` arrives (bounded: only a lost event runs into it). */
  async function until(stream: AsyncIterableIterator<TurnEvent>, type: string, seen: TurnEvent[]): Promise<TurnEvent> {
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${type} within 20 s; saw ${seen.map((e) => e.type).join(', ')}`)), 20_000).unref());
    for (;;) {
      const next = await Promise.race([stream.next(), deadline]);
      if (next.done) throw new Error('the stream ended');
      seen.push(next.value);
      if (next.value.type === type) return next.value;
    }
  }

  it('delivers a turn event and a TurnFinished whose writes committed but answered with a lost connection', async () => {
    await queue.queue(tenantId, target.id, [{ sender: 'USER', senderName: 'alice', content: 'hello' }]);
    const begun = (await writer.beginTurn(tenantId, target.id))!;
    const stream = turnEventStream(bus, reader, target, null);
    const seen: TurnEvent[] = [];
    try {
      await viaProxy.dataSource.query('SELECT 1');
      proxy.loseNextReply();
      const appended = await writer.appendEvents(tenantId, target.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'hi' } }]).then(() => null, (err: unknown) => err);
      expect(isConnectionLoss(appended), String(appended)).toBe(true);
      const delta = await until(stream, 'TextDelta', seen);
      expect(delta.payload).toEqual({ text: 'hi' });

      // The loss took the pool's one connection; open the next one first, so that the bytes lost
      // are the finish's reply, not a new connection's handshake (the pool opens connections lazily).
      await viaProxy.dataSource.query('SELECT 1');
      proxy.loseNextReply();
      const finished = await writer.finishTurn(tenantId, begun.turn.id, { status: 'FINISHED', finishReason: 'stop', end: { type: 'TurnFinished', payload: { finishReason: 'stop' } } })
        .then(() => null, (err: unknown) => err);
      expect(isConnectionLoss(finished), String(finished)).toBe(true);
      expect((await reader.findTurn(tenantId, begun.turn.id))!.status).toBe('FINISHED');
      const end = await until(stream, 'TurnFinished', seen);
      const stored = await reader.listEvents(tenantId, target.id, null);
      expect(seen.map((e) => e.id)).toEqual(stored.map((e) => e.id));
      expect(end.id).toBe(stored.at(-1)!.id);
    } finally {
      await stream.return?.();
    }
  });

  it("delivers another instance's event that is still on its way before this instance's next one", async () => {
    await queue.queue(tenantId, target.id, [{ sender: 'USER', senderName: 'alice', content: 'lane moves' }]);
    const begun = (await reader.beginTurn(tenantId, target.id))!;
    const onThere = new TypeOrmTurnStore(direct.dataSource, there);
    const onHere = new TypeOrmTurnStore(direct.dataSource, here);
    const after = (await reader.listEvents(tenantId, target.id, null)).at(-1)?.id ?? null;
    const stream = turnEventStream(here, reader, target, after);
    const seen: TurnEvent[] = [];
    try {
      // The stream is live (its backlog read is behind it) once it delivered a first event.
      const [first] = await onThere.appendEvents(tenantId, target.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'first' } }]);
      expect((await until(stream, 'TextDelta', seen)).id).toBe(first!.id);
      slowListen.hold();
      // The other instance's last event: committed, its NOTIFY held on the way here.
      const [theirs] = await onThere.appendEvents(tenantId, target.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'theirs' } }]);
      // The lane moved here: this instance writes the next event.
      const [ours] = await onHere.appendEvents(tenantId, target.id, begun.turn.id, [{ type: 'TurnFinished', payload: {} }]);
      slowListen.release();
      await until(stream, 'TurnFinished', seen);
      expect(seen.map((e) => e.id)).toEqual([first!.id, theirs!.id, ours!.id]);
    } finally {
      slowListen.release();
      await stream.return?.();
    }
  });
});
