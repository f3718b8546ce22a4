import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import { TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { laneFence, LeaseLostError } from '../../api/src/persistence/lane-fence';
import { createPlainProcess } from '../support/process-fixture';

describe.each(testDatabases())('TypeOrmTurnStore ($name)', (driver) => {
  let db: Database;
  let processes: TypeOrmProcessStore;
  let turns: TypeOrmTurnStore;
  let acme: string;
  let globex: string;
  let process: Process;

  beforeAll(async () => {
    db = await driver.open();
    processes = new TypeOrmProcessStore(db.dataSource);
    turns = new TypeOrmTurnStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    acme = (await identity.createTenant('acme')).tenant.id;
    globex = (await identity.createTenant('globex')).tenant.id;
    const alice = (await identity.createUser({ tenantId: acme, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const p = (await identity.createProject(acme, 'p', 'NORMAL', alice)).id;
    const session = await processes.openSession(acme, p, alice, 'main');
    process = await createPlainProcess(processes, { tenantId: acme, projectId: p, sessionId: session.id, userId: alice });
  });
  afterAll(async () => {
    await db?.close();
  });

  const pending = async () => (await processes.listPending(acme, process.id)).map((m) => m.content);

  it('takes the whole inbox FIFO into a RUNNING turn and writes it to the chat log; nothing to take → null', async () => {
    expect(await turns.beginTurn(acme, process.id)).toBeNull();
    for (let i = 1; i <= 12; i++) await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: `m${i}` });
    const begun = (await turns.beginTurn(acme, process.id))!;
    expect(begun.taken.map((m) => m.content)).toEqual(Array.from({ length: 12 }, (_, i) => `m${i + 1}`));
    expect(begun.turn).toMatchObject({ status: 'RUNNING', engine: 'ford', processId: process.id });
    expect(await pending()).toEqual([]);
    const log = await turns.listMessages(acme, process.id);
    expect(log.map((m) => m.content)).toEqual(begun.taken.map((m) => m.content));
    expect(log.every((m) => m.role === 'user' && m.turnId === begun.turn.id)).toBe(true);
    await turns.appendMessage(acme, process.id, begun.turn.id, { role: 'assistant', senderName: 'w', content: 'done', toolCall: { kind: 'calls', calls: [{ id: 'c1', name: 't', arguments: { a: 1 } }] } });
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FINISHED', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } })).toBe(true);
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FAILED' })).toBe(false);
    expect(await turns.findTurn(acme, begun.turn.id)).toMatchObject({ status: 'FINISHED', usage: { inputTokens: 3, outputTokens: 1 }, finishedAt: expect.any(Date) });
    expect((await turns.listMessages(acme, process.id)).at(-1)).toMatchObject({ role: 'assistant', toolCall: { kind: 'calls', calls: [{ id: 'c1' }] } });
  });

  it('beginning a turn clears the turn request in the same statement, also when the inbox is empty; the input keeps ids, seq and times', async () => {
    await processes.update(acme, process.id, () => ({ turnRequestedAt: new Date() }));
    expect(await turns.beginTurn(acme, process.id)).toBeNull();
    expect((await processes.findProcess(acme, process.id))!.turnRequestedAt).toBeNull();
    const queued = await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'x' });
    await processes.update(acme, process.id, () => ({ turnRequestedAt: new Date() }));
    // Another tenant's id takes nothing and clears nothing.
    expect(await turns.beginTurn(globex, process.id)).toBeNull();
    expect((await processes.findProcess(acme, process.id))!.turnRequestedAt).not.toBeNull();
    const begun = (await turns.beginTurn(acme, process.id))!;
    expect((await processes.findProcess(acme, process.id))!.turnRequestedAt).toBeNull();
    expect(begun.taken).toEqual([{ id: queued.id, seq: expect.stringMatching(/^\d+$/), sender: 'USER', senderName: 'alice', content: 'x', createdAt: queued.createdAt.toISOString(), attempts: 0, failure: null }]);
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FINISHED' })).toBe(true);
  });

  it('begins a turn with the process read in the same statement, as it was; a process that is not IDLE takes nothing and keeps its request', async () => {
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'held' });
    await processes.update(acme, process.id, () => ({ status: 'CLOSED', turnRequestedAt: new Date() }));
    expect(await turns.beginTurn(acme, process.id)).toBeNull();
    expect(await pending()).toEqual(['held']);
    expect((await processes.findProcess(acme, process.id))!.turnRequestedAt).not.toBeNull();
    const idle = await processes.update(acme, process.id, () => ({ status: 'IDLE' }));
    const begun = (await turns.beginTurn(acme, process.id))!;
    // The process as the turn found it (its request not yet cleared), with the types findProcess gives.
    expect(begun.process).toEqual(idle);
    expect(begun.turn.engine).toBe(idle.engine);
    expect(begun.taken.map((m) => m.content)).toEqual(['held']);
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FINISHED' })).toBe(true);
  });

  it('a failed turn puts its input back before messages queued meanwhile and drops its chat-log rows', async () => {
    const before = (await turns.listMessages(acme, process.id)).length;
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'first' });
    await processes.appendPending(acme, process.id, { sender: 'SKILL', senderName: 'alice', content: 'second' });
    const begun = (await turns.beginTurn(acme, process.id))!;
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'meanwhile' });
    await turns.appendMessage(acme, process.id, begun.turn.id, { role: 'assistant', senderName: 'w', content: 'partial', toolCall: null });
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FAILED', errorCode: 'PROVIDER_ERROR', errorMessage: 'boom' })).toBe(true);
    const inbox = await processes.listPending(acme, process.id);
    expect(inbox.map((m) => [m.sender, m.content])).toEqual([['USER', 'first'], ['SKILL', 'second'], ['USER', 'meanwhile']]);
    expect(inbox[0]!.id).toBe(begun.taken[0]!.id);
    expect((await turns.listMessages(acme, process.id)).length).toBe(before);
    expect(await turns.findTurn(acme, begun.turn.id)).toMatchObject({ status: 'FAILED', errorCode: 'PROVIDER_ERROR', errorMessage: 'boom' });
  });

  it('events: increasing ids, listed after an id; running and requested turns for recovery; tenants isolated', async () => {
    const begun = (await turns.beginTurn(acme, process.id))!;
    const events = [];
    for (let i = 0; i < 12; i++) events.push(...await turns.appendEvents(acme, process.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: `t${i}` } }]));
    const ids = events.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await turns.listEvents(acme, process.id, events[8]!.id)).map((e) => e.payload.text)).toEqual(['t9', 't10', 't11']);
    expect(await turns.findEvent(acme, events[0]!.id)).toEqual(events[0]);
    expect(await turns.findEvent(globex, events[0]!.id)).toBeNull();
    expect(await turns.listEvents(globex, process.id, null)).toEqual([]);
    expect(await turns.listTurns(globex, process.id)).toEqual([]);
    // Several in one write: ids in the list's order, payloads as given.
    const batch = await turns.appendEvents(acme, process.id, begun.turn.id, Array.from({ length: 30 }, (_, i) => ({ type: 'TextDelta' as const, payload: { text: `b${i}`, nested: { i, list: [i, 'x'] } } })));
    expect(batch.map((e) => e.payload)).toEqual(Array.from({ length: 30 }, (_, i) => ({ text: `b${i}`, nested: { i, list: [i, 'x'] } })));
    expect(batch.map((e) => BigInt(e.id))).toEqual(batch.map((e) => BigInt(e.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(BigInt(batch[0]!.id)).toBeGreaterThan(ids.at(-1)!);
    expect((await turns.listEvents(acme, process.id, events.at(-1)!.id)).map((e) => e.payload.text)).toEqual(batch.map((e) => e.payload.text));
    expect(await turns.listEvents(acme, process.id, 'not-a-number')).toHaveLength(42);
    expect((await turns.listRunningTurns()).map((t) => t.id)).toEqual([begun.turn.id]);
    await processes.update(acme, process.id, () => ({ turnRequestedAt: new Date() }));
    expect(await turns.listRequestedTurns()).toEqual([{ tenantId: acme, processId: process.id }]);
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'INTERRUPTED', errorCode: 'INTERRUPTED' })).toBe(true);
    expect(await turns.listRunningTurns()).toEqual([]);
    expect(await pending()).toEqual(['first', 'second', 'meanwhile']);
  });

  // Issue 18: what a turn holds goes with its next write — one statement, never half of it.
  it('chat-log rows and events ride in one write: appendEvents logs them before its events; finishTurn stores the held ones before its end', async () => {
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'q' });
    const begun = (await turns.beginTurn(acme, process.id))!;
    const before = (await turns.listMessages(acme, process.id)).length;
    const reply = { role: 'assistant' as const, senderName: 'w', content: 'a', toolCall: { kind: 'calls' as const, calls: [{ id: 'c1', name: 't', arguments: {} }] } };
    const result = { role: 'tool' as const, senderName: 't', content: 'r', toolCall: null };
    const stored = await turns.appendEvents(acme, process.id, begun.turn.id, [{ type: 'TurnStarted', payload: {} }, { type: 'ToolCallStarted', payload: { n: 1 } }], [reply, result]);
    expect(stored.map((e) => e.type)).toEqual(['TurnStarted', 'ToolCallStarted']);
    expect(BigInt(stored[1]!.id)).toBeGreaterThan(BigInt(stored[0]!.id));
    const logged = (await turns.listMessages(acme, process.id)).slice(before);
    expect(logged.map((m) => [m.role, m.content, m.toolCall, m.turnId])).toEqual([['assistant', 'a', reply.toolCall, begun.turn.id], ['tool', 'r', null, begun.turn.id]]);
    // Messages alone are a write too.
    expect(await turns.appendEvents(acme, process.id, begun.turn.id, [], [{ role: 'system', senderName: null, content: 's', toolCall: null }])).toEqual([]);
    // Fenced out (issue 14): neither the rows nor the events are stored.
    await expect(laneFence.run({ key: process.id, token: '987654321' }, () =>
      turns.appendEvents(acme, process.id, begun.turn.id, [{ type: 'TextDelta', payload: { text: 'lost' } }], [{ role: 'assistant', senderName: 'w', content: 'lost', toolCall: null }]))).rejects.toBeInstanceOf(LeaseLostError);
    expect((await turns.listMessages(acme, process.id)).map((m) => m.content)).not.toContain('lost');
    expect(await turns.finishTurn(acme, begun.turn.id, {
      status: 'FINISHED', finishReason: 'stop', end: { type: 'TurnFinished', payload: {} },
      held: { events: [{ type: 'TextDelta', payload: { text: 'hi' } }, { type: 'TextDelta', payload: { text: ' there' } }], messages: [{ role: 'assistant', senderName: 'w', content: 'hi there', toolCall: null }] },
    })).toBe(true);
    const events = (await turns.listEvents(acme, process.id, stored[1]!.id)).map((e) => [e.type, e.payload]);
    expect(events).toEqual([['TextDelta', { text: 'hi' }], ['TextDelta', { text: ' there' }], ['TurnFinished', {}]]);
    expect((await turns.listMessages(acme, process.id)).slice(before).map((m) => m.content)).toEqual(['a', 'r', 's', 'hi there']);
    // A turn that has ended stores nothing held: no second end, no late rows.
    expect(await turns.finishTurn(acme, begun.turn.id, { status: 'FAILED', end: { type: 'TurnFailed', payload: {} }, held: { events: [{ type: 'TextDelta', payload: { text: 'late' } }], messages: [{ role: 'assistant', senderName: 'w', content: 'late', toolCall: null }] } })).toBe(false);
    expect((await turns.listEvents(acme, process.id, stored[1]!.id)).length).toBe(3);
    expect((await turns.listMessages(acme, process.id)).map((m) => m.content)).not.toContain('late');
  });

  it('reads the chat log on from where it last read: rows another instance added, rows a failed turn dropped, each process and tenant its own', async () => {
    const other = new TypeOrmTurnStore(db.dataSource); // another instance, with its own memory of the logs
    const before = await turns.listMessages(acme, process.id);
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'read-on 1' });
    const begun = (await other.beginTurn(acme, process.id))!;
    await other.appendMessage(acme, process.id, begun.turn.id, { role: 'assistant', senderName: 'w', content: 'read-on 2', toolCall: null });
    const grown = await turns.listMessages(acme, process.id);
    expect(grown.map((m) => m.content)).toEqual([...before.map((m) => m.content), 'read-on 1', 'read-on 2']);
    // The rows read before are the same objects (what is computed per message stays with them); the array is the caller's.
    expect(grown.slice(0, before.length).every((m, i) => m === before[i])).toBe(true);
    grown.pop();
    expect((await turns.listMessages(acme, process.id)).at(-1)!.content).toBe('read-on 2');
    // The other instance fails the turn: its rows go, and this instance's next read sees it.
    expect(await other.finishTurn(acme, begun.turn.id, { status: 'FAILED' })).toBe(true);
    expect((await turns.listMessages(acme, process.id)).map((m) => m.content)).toEqual(before.map((m) => m.content));
    expect(await turns.listMessages(globex, process.id)).toEqual([]);
    expect(await pending()).toEqual(['read-on 1']);
    const again = (await turns.beginTurn(acme, process.id))!;
    expect(await turns.finishTurn(acme, again.turn.id, { status: 'FINISHED' })).toBe(true);
    expect((await turns.listMessages(acme, process.id)).map((m) => m.content)).toEqual([...before.map((m) => m.content), 'read-on 1']);
    expect((await other.listMessages(acme, process.id)).map((m) => m.content)).toEqual([...before.map((m) => m.content), 'read-on 1']);
  });

  // issue 18: the chat log and the session's client tools come with beginTurn (no read of their own).
  it('beginTurn brings the whole chat log with the input logged, read on; a log that changed behind it is not brought', async () => {
    const other = new TypeOrmTurnStore(db.dataSource);
    const whole = async () => (await turns.listMessages(acme, process.id)).map((m) => m.content);
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'with-turn 1' });
    const first = (await turns.beginTurn(acme, process.id))!;
    expect(first.clientTools).toEqual([]);
    expect(first.log?.map((m) => m.content)).toEqual(await whole());
    expect(first.log?.at(-1)).toMatchObject({ role: 'user', content: 'with-turn 1', turnId: first.turn.id, seq: expect.any(String), createdAt: expect.any(Date) });
    await turns.appendMessage(acme, process.id, first.turn.id, { role: 'assistant', senderName: 'w', content: 'with-turn reply', toolCall: { kind: 'calls', calls: [{ id: 'c9', name: 't', arguments: {} }] } });
    expect(await turns.finishTurn(acme, first.turn.id, { status: 'FINISHED' })).toBe(true);
    const known = await turns.listMessages(acme, process.id);
    // Read on: the rows read before are the same objects, then the reply and the new input.
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'with-turn 2' });
    const second = (await turns.beginTurn(acme, process.id))!;
    expect(second.log?.slice(0, known.length).every((m, i) => m === known[i])).toBe(true);
    expect(second.log?.slice(known.length).map((m) => m.content)).toEqual(['with-turn 2']);
    expect(second.log?.at(-2)?.toolCall).toEqual({ kind: 'calls', calls: [{ id: 'c9', name: 't', arguments: {} }] });
    // Another instance fails that turn (its row goes) and runs the next: this one's count no longer matches.
    expect(await other.finishTurn(acme, second.turn.id, { status: 'FAILED' })).toBe(true);
    const third = (await other.beginTurn(acme, process.id))!;
    expect(await other.finishTurn(acme, third.turn.id, { status: 'FAILED' })).toBe(true);
    await turns.appendMessage(acme, process.id, null, { role: 'user', senderName: 'x', content: 'with-turn elsewhere', toolCall: null });
    const fourth = (await turns.beginTurn(acme, process.id))!;
    expect(fourth.log).toBeUndefined();
    expect(await whole()).toEqual([...known.map((m) => m.content), 'with-turn elsewhere', 'with-turn 2']);
    expect(await turns.finishTurn(acme, fourth.turn.id, { status: 'FINISHED' })).toBe(true);
    // Read whole once, it is brought again.
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'with-turn 3' });
    const fifth = (await turns.beginTurn(acme, process.id))!;
    expect(fifth.log?.map((m) => m.content)).toEqual(await whole());
    expect(await turns.finishTurn(acme, fifth.turn.id, { status: 'FINISHED' })).toBe(true);
  });
});
