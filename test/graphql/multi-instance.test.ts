import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_EVENTS_TOPIC } from '../../api/src/domain/processes/process-event';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { DOCUMENT_CHANGED_TOPIC } from '../../api/src/domain/events/document-changed';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import pg from 'pg';
import { PgEventBus } from '../../api/src/persistence';
import { collect, eventually, startTestVance, type TestVance } from './harness';

// Two stateless instances on one PostgreSQL (DESIGN §7): a write on one must invalidate the
// other's cache and reach its subscribers (LISTEN/NOTIFY). PGlite is single-instance by design.
const postgres = testDatabases().filter((d) => d.name === 'postgres');

if (postgres.length === 0) {
  describe('two instances on one database', () => {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
  });
}

describe.each(postgres)('two instances on one database ($name)', (driver) => {
  let dbA: Database;
  let dbB: Database;
  let a: TestVance;
  let b: TestVance;
  beforeAll(async () => {
    dbA = await driver.open();
    dbB = await driver.reopen!(dbA);
    a = await startTestVance(dbA);
    b = await startTestVance(dbB);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbB?.close();
    await dbA?.close();
  });

  it('invalidates the other instance cache and streams the change to its subscribers', async () => {
    const EFFECTIVE = `{ effectiveDocument(path: "shared.md") { document { content } } }`;
    expect((await b.gql(EFFECTIVE)).data?.effectiveDocument).toBeNull(); // cached miss on B
    // Load: wait until B's subscription is registered, not 300 ms that a busy machine can outlast.
    const sub = await b.bus.listening(DOCUMENT_CHANGED_TOPIC, () => collect<{ documentChanged: unknown }>(b.ws(), `subscription { documentChanged { path change } }`));
    await a.gql(`mutation { putDocument(layer: VANCE, path: "shared.md", content: "from A") { version } }`);
    expect((await sub.next()).data?.documentChanged).toEqual({ path: 'shared.md', change: 'PUT' });
    expect((await b.gql(EFFECTIVE)).data?.effectiveDocument?.document.content).toBe('from A');
  });

  it('routes a client tool call to the client connected to the other instance, and the answer back', async () => {
    await a.gql(`mutation { createProject(name: "twin") { id } }`);
    await a.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/clienty.yaml", content: $c) { version } }`, {
      c: 'description: Client tools\nengine: ford\nparams:\n  validation: false\n',
    });
    const spawned = (await a.gql(`mutation { spawnProcess(input: { project: "twin", recipe: "clienty", session: "laptop" }) { id session { id } } }`)).data!.spawnProcess;
    const sessionId = spawned.session.id as string;
    // Load: both subscriptions are seen registered (on A and on B) instead of a 300 ms sleep.
    const calls = await a.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () =>
      collect<{ clientToolCalls: any }>(a.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId tool arguments } }`, { s: sessionId }));
    const events = await b.bus.listening(TURN_EVENTS_TOPIC, () =>
      collect<{ turnEvents: any }>(b.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id: spawned.id }));
    const registered = await a.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo", labels: ["files"] }]) { tools { name } } }`, { s: sessionId });
    expect(registered.errors).toBeUndefined();
    await b.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"hi\\"}") { id } }`, { id: spawned.id });
    const call = (await calls.next(15_000)).data!.clientToolCalls;
    expect(call).toMatchObject({ tool: 'local_echo', arguments: { text: 'hi' } });
    const answered = await b.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "echoed on the laptop") }`, { s: sessionId, c: call.callId });
    expect(answered.data?.submitClientToolResult).toBe(true);
    for (;;) {
      const e = (await events.next(15_000)).data!.turnEvents;
      if (e.type === 'ToolCallFinished') {
        expect(e.payload).toMatchObject({ name: 'local_echo', isError: false, preview: 'echoed on the laptop' });
      }
      if (e.type === 'TurnFinished') break;
    }
  });

  it('a turnEvents subscriber whose instance lost its LISTEN connection still sees every event of the turn, once, in order (issue 14)', async () => {
    // A third instance that runs no turns: the turn runs on A, the subscriber is on C.
    const dbC = await driver.reopen!(dbA);
    const c = await startTestVance(dbC, {}, { runTurns: false });
    try {
      await a.gql(`mutation { createProject(name: "gapless") { id } }`);
      await a.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
        c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
      });
      const id = (await a.gql(`mutation { spawnProcess(input: { project: "gapless", recipe: "plain" }) { id } }`)).data!.spawnProcess.id as string;
      const SUB = `subscription E($id: ID!) { turnEvents(processId: $id) { id type } }`;
      const onA = await a.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { id: string; type: string } }>(a.ws(), SUB, { id }));
      const onC = await c.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { id: string; type: string } }>(c.ws(), SUB, { id }));
      // Process events too are stored and re-read after the gap (issue 14, item 3).
      const PSUB = `subscription P($id: ID!) { processEvents(processId: $id) { id type } }`;
      const procOnA = await a.bus.listening(PROCESS_EVENTS_TOPIC, () => collect<{ processEvents: { id: string; type: string } }>(a.ws(), PSUB, { id }));
      const procOnC = await c.bus.listening(PROCESS_EVENTS_TOPIC, () => collect<{ processEvents: { id: string; type: string } }>(c.ws(), PSUB, { id }));
      const readProcess = async (sub: typeof procOnA): Promise<string[]> => {
        const seen: string[] = [];
        for (;;) {
          const e = (await sub.next(30_000)).data!.processEvents;
          seen.push(`${e.id}:${e.type}`);
          if (e.type === 'TURN_SCHEDULED') return seen;
        }
      };
      const bus = c.vance.services.bus as PgEventBus;
      const pid = bus.listenerPid;
      expect(pid).not.toBeNull();
      const admin = new pg.Client({ connectionString: dbA.connectionString });
      await admin.connect();
      try {
        expect((await admin.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok).toBe(true);
      } finally {
        await admin.end();
      }
      // The turn runs while C's listener is down (it reconnects after 1 s).
      const sent = await a.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "hello across a gap") { id } }`, { id });
      expect(sent.errors).toBeUndefined();
      const read = async (sub: typeof onA): Promise<string[]> => {
        const seen: string[] = [];
        for (;;) {
          const e = (await sub.next(30_000)).data!.turnEvents;
          seen.push(`${e.id}:${e.type}`);
          if (e.type === 'TurnFinished') return seen;
        }
      };
      const expected = await read(onA);
      expect(expected.length).toBeGreaterThan(2);
      // Before issue 14, C's subscriber got nothing of this turn, with no error (0 of 6 in the report).
      expect(await read(onC)).toEqual(expected);
      const processExpected = await readProcess(procOnA);
      expect(processExpected.map((e) => e.split(':')[1])).toEqual(['MESSAGE_QUEUED', 'TURN_SCHEDULED']);
      expect(await readProcess(procOnC)).toEqual(processExpected);
      await eventually(() => bus.listenerPid !== null && bus.listenerPid !== pid);
      // And nothing twice: the next turn's events follow directly.
      await a.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "and after it") { id } }`, { id });
      expect(await read(onC)).toEqual(await read(onA));
      expect(await readProcess(procOnC)).toEqual(await readProcess(procOnA));
      // A late subscriber resumes after an event id it saw: the stored events after it, then live ones.
      const resumed = await c.bus.listening(PROCESS_EVENTS_TOPIC, () =>
        collect<{ processEvents: { id: string; type: string } }>(c.ws(), `subscription P($id: ID!, $after: ID) { processEvents(processId: $id, afterEventId: $after) { id type } }`, { id, after: processExpected[0]!.split(':')[0] }));
      expect(await readProcess(resumed)).toEqual(processExpected.slice(1));
    } finally {
      await c.close();
      await dbC.close();
    }
  });
});
