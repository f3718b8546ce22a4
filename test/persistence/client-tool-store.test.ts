import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import { TypeOrmClientToolStore, TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

// Issue 14 item 7: after a restart, client (FOOT) tool calls of killed turns were delivered again
// and their answers accepted, so the client ran the tool twice.
describe.each(testDatabases())('TypeOrmClientToolStore: calls of a turn that no longer runs ($name)', (driver) => {
  let db: Database;
  let processes: TypeOrmProcessStore;
  let turns: TypeOrmTurnStore;
  let calls: TypeOrmClientToolStore;
  let acme: string;
  let alice: string;
  let sessionId: string;
  let process: Process;

  beforeAll(async () => {
    db = await driver.open();
    processes = new TypeOrmProcessStore(db.dataSource);
    turns = new TypeOrmTurnStore(db.dataSource);
    calls = new TypeOrmClientToolStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    acme = (await identity.createTenant('acme')).tenant.id;
    alice = (await identity.createUser({ tenantId: acme, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const p = (await identity.createProject(acme, 'p', 'NORMAL', alice)).id;
    sessionId = (await processes.openSession(acme, p, alice, 'laptop')).id;
    process = await processes.createProcess({
      tenantId: acme, projectId: p, sessionId, userId: alice, name: 'w', parentProcessId: null, engine: 'ford',
      recipeName: null, recipeSource: null, connectionProfile: null, activeSkills: [], allowedSkillsOverride: null, locked: false,
      engineParams: {}, promptOverride: null, profileAppend: null, promptMode: 'APPEND', dataRelayCorrectionOverride: null,
      toolAdjustments: { add: [], remove: [], keep: [], dropFirst: [], defer: [] }, guards: [], recipeGuards: [],
    });
  });
  afterAll(async () => {
    await db?.close();
  });

  const callIn = async (turnId: string | null, tool: string) => calls.createCall({
    tenantId: acme, sessionId, userId: alice, processId: process.id, turnId, kind: 'TOOL', tool, arguments: { n: 1 }, script: null,
    deadline: new Date(Date.now() + 3_600_000),
  });
  const pendingTools = async () => (await calls.listPendingCalls(acme, sessionId)).map((c) => c.tool);

  it('delivers and accepts a call while its turn runs, neither once the turn was interrupted', async () => {
    await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: 'go' });
    const first = (await turns.beginTurn(acme, process.id))!;
    const open = await callIn(first.turn.id, 'open_one');
    const orphan = await callIn(first.turn.id, 'orphan');
    expect(await pendingTools()).toEqual(['open_one', 'orphan']);
    expect(await calls.answerCall(acme, open.callId, { result: 'ok' })).toBe(true);
    // The server died; at restart recovery marks the turn INTERRUPTED (its input runs again).
    expect(await turns.finishTurn(acme, first.turn.id, { status: 'INTERRUPTED', errorCode: 'INTERRUPTED' })).toBe(true);
    expect(await pendingTools()).toEqual([]);
    expect(await calls.answerCall(acme, orphan.callId, { result: 'late' })).toBe(false);
    expect((await calls.findCall(acme, orphan.callId))!.answer).toBeNull();
    expect((await calls.findCall(acme, open.callId))!.answer).toEqual({ result: 'ok' });
  });

  it('keeps calls made outside a turn open', async () => {
    const free = await callIn(null, 'free');
    expect(await pendingTools()).toEqual(['free']);
    expect(await calls.answerCall(acme, free.callId, { error: 'no' })).toBe(true);
    expect(await pendingTools()).toEqual([]);
  });
});
