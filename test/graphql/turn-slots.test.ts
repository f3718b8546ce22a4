import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { testDatabases } from '../support/databases';
import { ADMIN_TOKEN, collect, eventually, startTestVance, type TestVance } from './harness';

// Issue 14, item 4: turns waiting on a client tool (or a slow model) hold a turn slot, not a
// database connection; the slots per instance are a setting, and one tenant holds at most its
// share. Before: a waiting turn held a pool connection, and with 8 such turns (pool − 2) every other
// process of every tenant blocked (sendMessage 19.8 s).
describe.each(testDatabases())('turn slots ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_CLIENT_TOOL_TIMEOUT_MS: '600000', VANCE_TURN_SLOTS: '3', VANCE_TURN_SLOTS_PER_TENANT: '2' });
    await t.gql(`mutation { createProject(name: "slots") { id } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "slots", path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const turnsOf = async (id: string, token = ADMIN_TOKEN) =>
    ((await t.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id }, token)).data!.turns as { status: string }[]).map((x) => x.status);

  it('lets one tenant run at most its share of waiting turns, while another tenant\'s turn runs, and starts the next when one ends', async () => {
    // Tenant one (the admin's): three processes whose turns wait on a client tool nobody answers yet.
    const waiting: { id: string; session: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const spawned = (await t.gql(`mutation S($s: String!) { spawnProcess(input: { project: "slots", recipe: "plain", session: $s }) { id session { id } } }`, { s: `laptop-${i}` })).data!.spawnProcess;
      waiting.push({ id: spawned.id, session: spawned.session.id });
    }
    const calls = await Promise.all(waiting.map(async ({ session }) => {
      const sub = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: { callId: string } }>(t.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s: session }));
      expect((await t.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s: session })).errors).toBeUndefined();
      return sub;
    }));
    for (const { id } of waiting) {
      expect((await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"wait\\"}") { id } }`, { id })).errors).toBeUndefined();
    }
    const firstTwo = await Promise.all([calls[0]!.next(60_000), calls[1]!.next(60_000)]);
    expect(await turnsOf(waiting[0]!.id)).toEqual(['RUNNING']);
    expect(await turnsOf(waiting[1]!.id)).toEqual(['RUNNING']);
    await eventually(() => t.vance.services.turnRunner.slotUsage!.waiting === 1);
    expect(t.vance.services.turnRunner.slotUsage).toMatchObject({ running: 2, waiting: 1 });
    expect(await turnsOf(waiting[2]!.id)).toEqual([]); // at its tenant's share: not begun, its message pending

    // Tenant two: its turn takes the third slot and runs to its end.
    const identity = t.vance.services.identity;
    const admin = await identity.authenticate(ADMIN_TOKEN);
    await identity.createTenant(admin, 'other');
    const owner = (await identity.createUser(admin, 'other-owner', 'other', 'TENANT_ADMIN')).token;
    await t.gql(`mutation { createProject(name: "theirs") { id } }`, {}, owner);
    await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "theirs", path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    }, owner);
    const theirs = (await t.gql(`mutation { spawnProcess(input: { project: "theirs", recipe: "plain" }) { id } }`, {}, owner)).data!.spawnProcess.id as string;
    const events = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string } }>(t.ws(owner), `subscription E($id: ID!) { turnEvents(processId: $id) { type } }`, { id: theirs }));
    expect((await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "hello from the other tenant") { id } }`, { id: theirs }, owner)).errors).toBeUndefined();
    while ((await events.next(60_000)).data!.turnEvents.type !== 'TurnFinished') { /* until its end */ }
    expect(await turnsOf(theirs, owner)).toEqual(['FINISHED']);
    expect(await turnsOf(waiting[2]!.id)).toEqual([]);

    // One of tenant one's turns ends: its third turn gets the slot.
    const answered = await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s: waiting[0]!.session, c: firstTwo[0].data!.clientToolCalls.callId });
    expect(answered.data?.submitClientToolResult).toBe(true);
    const third = (await calls[2]!.next(60_000)).data!.clientToolCalls;
    await eventually(async () => (await turnsOf(waiting[0]!.id))[0] === 'FINISHED');
    expect(await turnsOf(waiting[2]!.id)).toEqual(['RUNNING']);

    // Let the rest end, so that close() does not wait on them.
    await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s: waiting[1]!.session, c: firstTwo[1].data!.clientToolCalls.callId });
    await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s: waiting[2]!.session, c: third.callId });
    await eventually(async () => (await turnsOf(waiting[2]!.id))[0] === 'FINISHED');
    events.stop();
    for (const c of calls) c.stop();
  });
});

describe.each(testDatabases())('turns waiting on client tools hold no connection ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open(); // PostgreSQL: a pool of 5 connections
    t = await startTestVance(db, { VANCE_CLIENT_TOOL_TIMEOUT_MS: '600000' });
    await t.gql(`mutation { createProject(name: "pool") { id } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "pool", path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('runs another process to its end while 8 turns wait on client tools, more than the pool has connections', async () => {
    const waiting: { session: string; calls: ReturnType<typeof collect<{ clientToolCalls: { callId: string } }>> }[] = [];
    for (let i = 0; i < 8; i++) {
      const spawned = (await t.gql(`mutation S($s: String!) { spawnProcess(input: { project: "pool", recipe: "plain", session: $s }) { id session { id } } }`, { s: `desk-${i}` })).data!.spawnProcess;
      const session = spawned.session.id as string;
      const calls = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: { callId: string } }>(t.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s: session }));
      await t.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s: session });
      await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"wait\\"}") { id } }`, { id: spawned.id });
      waiting.push({ session, calls });
    }
    const open = await Promise.all(waiting.map(async (w) => (await w.calls.next(60_000)).data!.clientToolCalls.callId));
    const id = (await t.gql(`mutation { spawnProcess(input: { project: "pool", recipe: "plain" }) { id } }`)).data!.spawnProcess.id as string;
    const events = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type } }`, { id }));
    expect((await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "am I blocked?") { id } }`, { id })).errors).toBeUndefined();
    while ((await events.next(60_000)).data!.turnEvents.type !== 'TurnFinished') { /* until its end */ }
    // Its slot is freed just after TurnFinished (the lane lets go first): the 8 still wait.
    await eventually(() => t.vance.services.turnRunner.slotUsage!.running === 8);
    await Promise.all(waiting.map((w, i) => t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s: w.session, c: open[i] })));
    await eventually(() => t.vance.services.turnRunner.slotUsage!.running === 0);
    events.stop();
    for (const w of waiting) w.calls.stop();
  });
});
