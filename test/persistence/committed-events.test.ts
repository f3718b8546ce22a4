import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import type { ProcessEventEnvelope } from '../../api/src/domain/processes/process-event';
import { PROCESS_EVENTS_TOPIC } from '../../api/src/domain/processes/process-event';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { planRestore } from '../../api/src/domain/turns/turn-retry';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from '../../api/src/domain/events/document-changed';
import {
  PgEventBus, TypeOrmDocumentStore, TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, type CommitNotifier, type Database,
} from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { createPlainProcess } from '../support/process-fixture';

// Issue 14, items 2, 3 and 6: an event is committed with its data. The store that writes it NOTIFYs
// it in the same statement or transaction, so a write that failed announced nothing and a committed
// one cannot be reported as failed by a publish after it (before: putDocument, sendMessage and a
// turn's events answered INTERNAL_SERVER_ERROR while the bus reconnected, although applied). A
// turn's end event is written with its final state (before: TurnFinished could be followed by
// TurnFailed), process events are stored, and a failed turn's input is retried, then marked failed.

/** A notifier that records what this instance's subscribers would get. */
function recording(): CommitNotifier & { delivered: Array<{ topic: string; payload: any }> } {
  const delivered: Array<{ topic: string; payload: any }> = [];
  return { channel: null, origin: 'test', delivered, deliverLocal: (topic, payload) => void delivered.push({ topic, payload }), mayHaveMissed: () => {} };
}

describe.each(testDatabases())('events committed with their data ($name)', (driver) => {
  let db: Database;
  let notifier: ReturnType<typeof recording>;
  let processes: TypeOrmProcessStore;
  let turns: TypeOrmTurnStore;
  let acme: string;
  let process: Process;

  beforeAll(async () => {
    db = await driver.open();
    notifier = recording();
    processes = new TypeOrmProcessStore(db.dataSource, notifier);
    turns = new TypeOrmTurnStore(db.dataSource, notifier);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    acme = (await identity.createTenant('acme')).tenant.id;
    const alice = (await identity.createUser({ tenantId: acme, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const p = (await identity.createProject(acme, 'p', 'NORMAL', alice)).id;
    const session = await processes.openSession(acme, p, alice, 'main');
    process = await createPlainProcess(processes, { tenantId: acme, projectId: p, sessionId: session.id, userId: alice });
  });
  afterAll(async () => {
    await db?.close();
  });

  const endEvents = async (turnId: string) =>
    (await turns.listEvents(acme, process.id, null)).filter((e) => e.turnId === turnId && (e.type === 'TurnFinished' || e.type === 'TurnFailed'));

  it('ends a turn once: the final state and its end event in one write, announced after it; a second end writes nothing', async () => {
    await processes.queue(acme, process.id, [{ sender: 'USER', senderName: 'alice', content: 'once' }]);
    const begun = (await turns.beginTurn(acme, process.id))!;
    notifier.delivered.length = 0;
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FINISHED', finishReason: 'stop', end: { type: 'TurnFinished', payload: { finishReason: 'stop' } } })).toBe(true);
    // Before: FINISHED was written, then (after one-shot clean-up and guards) TurnFinished; a failure in between added TurnFailed.
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FAILED', errorCode: 'X', end: { type: 'TurnFailed', payload: { code: 'X' } } })).toBe(false);
    const ends = await endEvents(begun.turn.id);
    expect(ends.map((e) => e.type)).toEqual(['TurnFinished']);
    expect((await turns.findTurn(acme, begun.turn.id))!.status).toBe('FINISHED');
    expect(notifier.delivered).toEqual([{ topic: TURN_EVENTS_TOPIC, payload: expect.objectContaining({ id: ends[0]!.id, type: 'TurnFinished', payload: { finishReason: 'stop' } }) }]);
  });

  it("counts a failed turn's attempt on its input, marks a message failed at the cap and takes it no more, and requests the retry after its backoff", async () => {
    await processes.queue(acme, process.id, [{ sender: 'USER', senderName: 'alice', content: 'poison' }, { sender: 'USER', senderName: 'alice', content: 'innocent' }]);
    const begun = (await turns.beginTurn(acme, process.id))!;
    // "poison" has failed twice the same way before; this is its third failure.
    const taken = begun.taken.map((m) => (m.content === 'poison' ? { ...m, attempts: 2, failure: 'PROVIDER_ERROR: boom' } : m));
    const restore = planRestore(taken, { code: 'PROVIDER_ERROR', message: 'boom', counts: true }, { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 });
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FAILED', errorCode: 'PROVIDER_ERROR', errorMessage: 'boom', restore, end: { type: 'TurnFailed', payload: { code: 'PROVIDER_ERROR' } } })).toBe(true);
    expect((await endEvents(begun.turn.id)).map((e) => e.type)).toEqual(['TurnFailed']);
    const inbox = await processes.listPending(acme, process.id);
    expect(inbox.map((m) => [m.content, m.attempts, m.failure, m.failedAt !== null])).toEqual([
      ['poison', 3, 'PROVIDER_ERROR: boom', true],
      ['innocent', 1, 'PROVIDER_ERROR: boom', false],
    ]);
    // The retry is requested, but not due before its backoff: the sweep leaves it alone until then.
    expect((await processes.findProcess(acme, process.id))!.turnRequestedAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect((await turns.listRequestedTurns()).map((r) => r.processId)).not.toContain(process.id);
    // A turn takes what is left; the failed message stays, marked, out of the way.
    const next = (await turns.beginTurn(acme, process.id))!;
    expect(next.taken.map((m) => [m.content, m.attempts])).toEqual([['innocent', 1]]);
    expect(await turns.finishTurn(acme, next.turn.id, { status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } })).toBe(true);
    expect((await processes.listPending(acme, process.id)).map((m) => m.content)).toEqual(['poison']);
  });

  it('stores process events with the change they report, in one transaction; a change that fails stores none', async () => {
    const before = (await processes.listEvents(acme, process.id, null)).length;
    notifier.delivered.length = 0;
    await processes.update(acme, process.id, () => ({ openSkills: ['a'] }), [{ type: 'SKILL_CLEARED', skill: 'x', reason: 'Explicit.' }]);
    await expect(processes.update(acme, process.id, () => { throw new Error('refused'); }, [{ type: 'SKILL_CLEARED', skill: 'y', reason: 'never' }])).rejects.toThrow('refused');
    const { queued } = await processes.queue(acme, process.id, [{ sender: 'USER', senderName: 'alice', content: 'hello' }], (q) => [
      ...q.map((m) => ({ type: 'MESSAGE_QUEUED' as const, messageId: m.id, sender: m.sender, senderName: m.senderName, preview: m.content })),
      { type: 'TURN_SCHEDULED' as const, reason: 'User message.' },
    ]);
    const events = (await processes.listEvents(acme, process.id, null)).slice(before);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'SKILL_CLEARED', skill: 'x', reason: 'Explicit.' },
      { type: 'MESSAGE_QUEUED', messageId: queued[0]!.id, sender: 'USER', senderName: 'alice', preview: 'hello' },
      { type: 'TURN_SCHEDULED', reason: 'User message.' },
    ]);
    const ids = events.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect((await processes.listEvents(acme, process.id, events[0]!.id)).map((e) => e.event.type)).toEqual(['MESSAGE_QUEUED', 'TURN_SCHEDULED']);
    expect(await processes.findEvent(acme, events[1]!.id)).toEqual(events[1]);
    expect(notifier.delivered.map((d) => [d.topic, d.payload.id])).toEqual(events.map((e) => [PROCESS_EVENTS_TOPIC, e.id]));
  });
});

const postgres = testDatabases().filter((d) => d.name === 'postgres');

describe.each(postgres)('NOTIFY in the writing statement ($name)', (driver) => {
  let db: Database;
  let a: PgEventBus;
  let b: PgEventBus;
  const quiet = { info: () => {}, warn: () => {} };

  beforeAll(async () => {
    db = await driver.open();
    a = await PgEventBus.connect(db.connectionString!, db.schema, { logger: quiet });
    b = await PgEventBus.connect(db.connectionString!, db.schema, { logger: quiet });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it('reaches the other instance exactly once per committed write, without the bus publishing, and says nothing of a failed write', async () => {
    // Bus A may not publish at all: every event must travel with its write's own statement.
    a.publish = async () => { throw new Error('the event bus is down'); };
    const heardOnB: Array<{ topic: string; payload: any }> = [];
    const heardOnA: Array<{ topic: string; payload: any }> = [];
    for (const topic of [TURN_EVENTS_TOPIC, PROCESS_EVENTS_TOPIC, DOCUMENT_CHANGED_TOPIC]) {
      b.subscribe(topic, (payload) => void heardOnB.push({ topic, payload }));
      a.subscribe(topic, (payload) => void heardOnA.push({ topic, payload }));
    }
    const identity = new TypeOrmIdentityStore(db.dataSource);
    const documents = new TypeOrmDocumentStore(db.dataSource, a);
    const processes = new TypeOrmProcessStore(db.dataSource, a);
    const turns = new TypeOrmTurnStore(db.dataSource, a);
    const tenant = (await identity.createTenant('acme')).tenant.id;
    const alice = (await identity.createUser({ tenantId: tenant, login: 'alice', role: 'MEMBER', tokenHash: 'h' })).user.id;
    const project = (await identity.createProject(tenant, 'p', 'NORMAL', alice)).id;
    const ref = { tenantId: tenant, projectId: project };

    const put = await documents.put({ ...ref, path: 'a.md', content: 'one', author: 'alice', announce: { layer: 'PROJECT' } });
    // A stale expectedVersion writes nothing, and announces nothing.
    await expect(documents.put({ ...ref, path: 'a.md', content: 'stale', author: 'alice', expectedVersion: 7, announce: { layer: 'PROJECT' } })).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    const deleted = await documents.delete({ ...ref, path: 'a.md', author: 'alice', announce: { layer: 'PROJECT' } });
    const session = await processes.openSession(tenant, project, alice, 'main');
    const proc = await createPlainProcess(processes, { tenantId: tenant, projectId: project, sessionId: session.id, userId: alice });
    await processes.queue(tenant, proc.id, [{ sender: 'USER', senderName: 'alice', content: 'hi' }], () => [{ type: 'TURN_SCHEDULED', reason: 'User message.' }]);
    const begun = (await turns.beginTurn(tenant, proc.id))!;
    const big = 'x'.repeat(20_000); // too large for a NOTIFY: goes out as its id
    const events = await turns.appendEvents(tenant, proc.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'small' } }, { type: 'TextDelta', payload: { text: big } }]);
    await turns.finishTurn(tenant, begun.turn.id, { status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } });

    const expected = 6; // PUT, DELETE, TURN_SCHEDULED, two TextDeltas, TurnFinished
    for (let i = 0; i < 400 && heardOnB.length < expected; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200)); // and nothing more arrives
    expect(heardOnB.map((h) => h.topic)).toEqual([DOCUMENT_CHANGED_TOPIC, DOCUMENT_CHANGED_TOPIC, PROCESS_EVENTS_TOPIC, TURN_EVENTS_TOPIC, TURN_EVENTS_TOPIC, TURN_EVENTS_TOPIC]);
    // This instance heard each once too (after the commit, not its NOTIFY's echo), the same envelopes.
    expect(heardOnA).toEqual(heardOnB);
    const [putEvent, deleteEvent] = heardOnB.map((h) => h.payload) as DocumentChanged[];
    expect(putEvent).toMatchObject({ tenantId: tenant, projectId: project, layer: 'PROJECT', path: 'a.md', version: put.version, change: 'PUT', author: 'alice' });
    expect(deleteEvent).toMatchObject({ path: 'a.md', version: deleted, change: 'DELETE' });
    expect((heardOnB[2]!.payload as ProcessEventEnvelope).event).toEqual({ type: 'TURN_SCHEDULED', reason: 'User message.' });
    const [small, large] = heardOnB.slice(3, 5).map((h) => h.payload as TurnEventEnvelope);
    expect(small).toEqual(events[0]);
    expect(large).toEqual({ ...events[1], payload: undefined });
    expect(large!.payload).toBeUndefined();
  });
});
