import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ProviderRegistry } from '../../api/src/llm';
import { FakeLlmServer, anthropic, openai, sse } from '../llm/fake-llm-server';
import { collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 13 part 6 end to end, the measured attack: a project ADMIN points `ai.<provider>.baseUrl` of
 * the project at a listener of their own, spawns a process and sends a message. The tenant's
 * write-only key must not arrive there; the turn fails saying why; once the project sets its own key
 * the pair works. The listener speaks the providers' wire formats (test/llm/fake-llm-server.ts).
 */
const TENANT_KEY = 'sk-tenant-OWN-0123456789abcdef';
const PROJECT_KEY = 'sk-project-OWN-fedcba9876543210';

interface Ev { id: string; type: string; payload: any }

describe.each(testDatabases())('provider keys bound to their endpoint ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let pia: string;
  const listener = new FakeLlmServer();
  const last = new Map<string, string | null>();

  async function turn(id: string, text: string): Promise<Ev> {
    const stream = collect<{ turnEvents: Ev }>(t.ws(pia), `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id type payload } }`, { id, after: last.get(id) ?? null });
    const sent = await t.gql(`mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`, { id, text }, pia);
    expect(sent.errors).toBeUndefined();
    for (;;) {
      const e = (await stream.next(20_000)).data!.turnEvents;
      last.set(id, e.id);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return e;
    }
  }

  beforeAll(async () => {
    await listener.start();
    listener.handler = (req, res) => {
      const s = sse(res);
      if (req.path.endsWith('/messages')) {
        for (const [name, payload] of [anthropic.messageStart(1), anthropic.textStart(0), anthropic.textDelta(0, 'hi'), anthropic.blockStop(0), anthropic.messageDelta('end_turn', 1), anthropic.messageStop()]) s.event(name, payload);
      } else {
        s.data(openai.text('hi', true));
        s.data(openai.finish('stop'));
        s.data('[DONE]');
      }
      s.end();
    };
    db = await driver.open();
    t = await startTestVance(db, {}, { modelProvider: new ProviderRegistry() });
    await t.gql(`mutation { createProject(name: "p") { id } }`);
    pia = (await t.gql(`mutation { createUser(login: "pia") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "p", login: "pia", role: ADMIN) { role } }`);
    for (const provider of ['openai', 'anthropic']) {
      await t.gql(`mutation P($c: String!, $path: String!) { putDocument(layer: VANCE, path: $path, content: $c) { version } }`, {
        path: `_vance/recipes/${provider}-chat.yaml`, c: `description: Chat\nengine: ford\nparams:\n  model: "${provider}:test-model"\n  validation: false\n`,
      });
      // The tenant admin's key: write-only through the API.
      await t.gql(`mutation S($k: String!, $v: String!) { putSetting(key: $k, value: $v) { key } }`, { k: `ai.${provider}.apiKey`, v: TENANT_KEY });
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await listener.stop();
  });
  beforeEach(() => {
    listener.requests.length = 0;
  });

  it.each(['openai', 'anthropic'])("keeps the tenant's %s key from a project admin's base URL, then uses the project's own key there", async (provider) => {
    const put = (key: string, value: string) => t.gql(`mutation S($k: String!, $v: String!) { putSetting(key: $k, value: $v, project: "p") { key source } }`, { k: key, v: value }, pia);
    expect((await put(`ai.${provider}.baseUrl`, `${listener.baseUrl}/v1`)).errors).toBeUndefined();
    const id = (await t.gql(`mutation { spawnProcess(input: { project: "p", recipe: "${provider}-chat" }) { id } }`, {}, pia)).data!.spawnProcess.id;

    const failed = await turn(id, 'hello');
    expect(failed.type).toBe('TurnFailed');
    expect(failed.payload.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(failed.payload.message).toContain(`ai.${provider}.baseUrl is set in project 'p' but ai.${provider}.apiKey is not: the tenant's key`);
    expect(listener.requests).toHaveLength(0);
    expect(JSON.stringify(listener.requests)).not.toContain(TENANT_KEY);

    expect((await put(`ai.${provider}.apiKey`, PROJECT_KEY)).errors).toBeUndefined();
    const finished = await turn(id, 'hello again');
    expect(finished.type).toBe('TurnFinished');
    expect(listener.requests.length).toBeGreaterThan(0);
    const headers = listener.requests.map((r) => JSON.stringify(r.headers)).join('\n');
    expect(headers).toContain(PROJECT_KEY);
    expect(headers).not.toContain(TENANT_KEY);
    // The key stays write-only: the project admin reads that it is set, not what it is.
    const shown = (await t.gql(`query { setting(key: "ai.${provider}.apiKey", project: "p") { value hasValue secret } }`, {}, pia)).data!.setting;
    expect(shown).toEqual({ value: null, hasValue: true, secret: true });
  });
});
