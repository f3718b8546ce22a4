import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { DOCUMENT_CHANGED_TOPIC } from '../../api/src/domain/events/document-changed';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { collect, startTestVance, type TestVance } from './harness';

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
});
