import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import type { TurnEvent } from '../../api/src/domain/turns/turn';
import { turnEventStream } from '../../api/src/domain/turns/turn-event-stream';
import { openDatabase, PgEventBus, TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, isConnectionLoss, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { createPlainProcess } from '../support/process-fixture';
import { startPgProxy, type PgProxy } from './pg-proxy';

// CI, stop 29 (refuse-connections, PostgreSQL): a turnEvents subscriber missed the TurnFinished of
// a FINISHED turn. The final write had committed and NOTIFYed, its reply was lost with the
// connection; the other instances heard the NOTIFY, the writing instance skips its own echo and
// delivers locally only after a write that answered. Here the database answers the write and the
// proxy drops the answer: the subscriber on the writing instance must still get the event.

const postgres = testDatabases().find((d) => d.name === 'postgres');

describe.runIf(postgres)('a write whose reply is lost after its commit (PostgreSQL)', () => {
  let direct: Database;
  let viaProxy: Database;
  let proxy: PgProxy;
  let bus: PgEventBus;
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
    bus = await PgEventBus.connect(url, `lost_${randomBytes(4).toString('hex')}`, { logger: { info: () => {}, warn: () => {} }, reconnectDelayMs: 200 });
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
    const begun = (await writer.beginTurn(tenantId, target.id, 'ford'))!;
    const stream = turnEventStream(bus, reader, target, null);
    const seen: TurnEvent[] = [];
    try {
      proxy.loseNextReply();
      const appended = await writer.appendEvents(tenantId, target.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'hi' } }]).then(() => null, (err: unknown) => err);
      expect(isConnectionLoss(appended), String(appended)).toBe(true);
      const delta = await until(stream, 'TextDelta', seen);
      expect(delta.payload).toEqual({ text: 'hi' });

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
});
