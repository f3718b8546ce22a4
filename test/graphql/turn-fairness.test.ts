import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ProviderRegistry } from '../../api/src/llm';
import { MAX_TOOL_ARGUMENT_CHARS } from '../../api/src/domain/tools/tool-call-bounds';
import { FakeLlmServer, openai, sse, type Handler } from '../llm/fake-llm-server';
import { collect, expectServedDuring, probeDuring, startTestVance, type TestVance } from './harness';

/**
 * Issue 13 end to end, in a turn: what a model or a script does inside one tenant's turn must not
 * stall another tenant. Two of the measured attacks:
 * - a model that streams an endless tool-call argument (a 50 MB one grew the server by 400–870 MB and
 *   stalled it 10–20 s): the call is stopped past MAX_TOOL_ARGUMENT_CHARS and the turn says why;
 * - a skill script that calls `vance.log` in a loop (29–50 s against its 5 s limit): it is stopped
 *   by its compute budget, which counts the time its calls wait for the event loop.
 * In both, another tenant's `{ me }` is sent again and again meanwhile (harness.ts: expectServedDuring).
 * The model is a local server speaking OpenAI's wire format (test/llm/fake-llm-server.ts).
 */
interface Ev { id: string; type: string; payload: any }

const LOOP_SKILL = '---\ntitle: Loop\ndescription: Logs forever\nversion: "1.0.0"\nscripts:\n  - name: spin\n    target: BRAIN\n    file: scripts/spin.js\n    description: Logs in a loop.\n---\nLoop.\n';

describe.each(testDatabases())('a turn cannot stall another tenant ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let mallory: string;
  let olga: string;
  const model = new FakeLlmServer();
  const probe = async () => {
    const r = await t.gql('{ me { login } }', {}, olga);
    expect(r.data?.me.login).toBe('olga');
  };

  async function turn(id: string, text: string): Promise<Ev[]> {
    const stream = collect<{ turnEvents: Ev }>(t.ws(mallory), `subscription E($id: ID!) { turnEvents(processId: $id) { id type payload } }`, { id });
    const sent = await t.gql(`mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`, { id, text }, mallory);
    expect(sent.errors).toBeUndefined();
    const events: Ev[] = [];
    for (;;) {
      const e = (await stream.next(60_000)).data!.turnEvents;
      events.push(e);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return events;
    }
  }
  const spawn = async () => (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "chat" }) { id } }`, {}, mallory)).data!.spawnProcess.id as string;
  /** Answers a first request with `first`, and every request that carries a tool result with text. */
  const answering = (first: Handler): Handler => (req, res) => {
    if (JSON.stringify(req.body).includes('"role":"tool"')) {
      const s = sse(res);
      s.data(openai.text('done', true));
      s.data(openai.finish('stop'));
      s.data('[DONE]');
      s.end();
      return;
    }
    return first(req, res);
  };

  beforeAll(async () => {
    await model.start();
    db = await driver.open();
    t = await startTestVance(db, { VANCE_SCRIPT_TIMEOUT_MS: '1000' }, { modelProvider: new ProviderRegistry() });
    await t.gql('mutation { createProject(name: "lab") { id } }');
    mallory = (await t.gql('mutation { createUser(login: "mallory") { token } }')).data!.createUser.token;
    await t.gql('mutation { addProjectMember(project: "lab", login: "mallory", role: ADMIN) { role } }');
    await t.gql('mutation { createTenant(name: "globex") { id } }');
    olga = (await t.gql('mutation { createUser(login: "olga", tenant: "globex") { token } }')).data!.createUser.token;
    const put = (path: string, content: string) => t.gql('mutation P($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "lab", path: $p, content: $c) { version } }', { p: path, c: content }, mallory);
    await put('_vance/recipes/chat.yaml', 'description: Chat\nengine: ford\nparams:\n  model: "openai:test-model"\n  validation: false\n  maxIterations: 3\n');
    await put('_vance/skills/loop/SKILL.md', LOOP_SKILL);
    await put('_vance/skills/loop/scripts/spin.js', "for (;;) vance.log('info', 'x')");
    for (const [key, value] of [['ai.openai.apiKey', 'sk-test'], ['ai.openai.baseUrl', `${model.baseUrl}/v1`]] as const) {
      await t.gql('mutation S($k: String!, $v: String!) { putSetting(key: $k, value: $v) { key } }', { k: key, v: value });
    }
    await probe(); // warm
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await db?.close();
    await model.stop();
  });

  it('stops a model streaming an endless tool-call argument, fails the turn saying why, and serves another tenant meanwhile', async () => {
    let written = 0;
    let closed = false;
    model.handler = (_req, res) => {
      res.on('close', () => { closed = true; });
      const s = sse(res);
      s.data(openai.toolStart(0, 'call_1', 'doc_read'));
      s.data(openai.toolArgs(0, '{"path": "'));
      // Endless: only the client stopping ends it (50 MB at most, so that a broken bound ends too).
      const more = (): void => {
        if (closed || written >= 50_000_000) return void res.end();
        s.data(openai.toolArgs(0, 'x'.repeat(10_000)));
        written += 10_000;
        setImmediate(more);
      };
      more();
    };
    const id = await spawn();
    const probed = await probeDuring(() => turn(id, 'read it'), probe);
    const ended = probed.result.at(-1)!;
    expect(ended.type).toBe('TurnFailed');
    expect(ended.payload.code).toBe('PROVIDER_ERROR');
    expect(ended.payload.message).toContain(`exceed ${MAX_TOOL_ARGUMENT_CHARS} characters`);
    expect(written).toBeLessThan(50_000_000);
    expectServedDuring(probed);
  });

  it('stops a script calling vance.log in a loop at its compute budget or its call cap, and serves another tenant meanwhile', async () => {
    model.handler = answering((_req, res) => {
      const s = sse(res);
      s.data(openai.toolStart(0, 'call_1', 'skill_loop__spin'));
      s.data(openai.toolArgs(0, '{}'));
      s.data(openai.finish('tool_calls'));
      s.data('[DONE]');
      s.end();
    });
    const id = await spawn();
    expect((await t.gql('mutation A($id: ID!) { activateSkill(processId: $id, name: "loop") { outcome } }', { id }, mallory)).errors).toBeUndefined();
    const probed = await probeDuring(() => turn(id, 'spin'), probe);
    const events = probed.result;
    expect(events.at(-1)!.type).toBe('TurnFinished');
    const call = events.find((e) => e.type === 'ToolCallFinished' && e.payload.name === 'skill_loop__spin');
    expect(call?.payload.isError).toBe(true);
    expect(call?.payload.preview).toContain('TIMEOUT');
    // Either bound may end it first, depending on the machine's speed: both are correct.
    expect(call?.payload.preview).toMatch(/computed longer than 1000 ms|made more than 10000 calls to vance\.\*/);
    // The log is capped (50 lines and one note), however many calls the loop made.
    expect(events.filter((e) => e.type === 'ScriptLog').length).toBeLessThanOrEqual(51);
    expectServedDuring(probed);
  });
});
