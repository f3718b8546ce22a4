import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import type { ServerTool } from '../../api/src/domain/tools/server-tool';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import { collect, startTestVance, type GraphQLResult, type TestVance } from './harness';

/**
 * Issue 13 part 5: text PostgreSQL cannot store (U+0000 in text and jsonb; an unpaired surrogate in
 * jsonb, and silently altered in text) is refused in any argument as BAD_USER_INPUT naming the
 * argument — it used to reach the driver and answer INTERNAL_SERVER_ERROR — and is made storable
 * (U+FFFD, said so) where the server produced it: a NUL in a tool result used to fail the turn, put
 * the input back, and fail every later turn of the process the same way.
 */
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

/** The offline model, plus `say nul` (text with a NUL) and `args nul` (a tool call whose arguments hold one). */
class NulProvider implements ModelProvider {
  private readonly offline = new OfflineProvider();
  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const last = request.messages[request.messages.length - 1];
    const said = last?.role === 'user' ? last.content.trim() : '';
    if (said === 'say nul') {
      yield { type: 'text-delta', text: 'zero\u0000byte and half a pair \ud83d' };
      yield { type: 'text-delta', text: '\ude00 joined' };
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    if (said === 'args nul') {
      yield { type: 'tool-call', call: { id: 'nul-args-1', name: 'echo_tool', arguments: { text: 'x\u0000y', ['k\u0000']: 1 } } };
      yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    yield* this.offline.stream(request);
  }
}

const tool = (name: string, content: (args: Readonly<Record<string, unknown>>) => string): ServerTool => ({
  name, labels: ['read'], description: `The ${name} tool.`, parameters: { type: 'object', properties: { text: { type: 'string' } } },
  invoke: async (args) => ({ content: content(args) }),
});
const TOOLS = [
  tool('nul_tool', () => 'before\u0000after'),
  tool('surrogate_tool', () => `lone ${'\udc00'} low`),
  // A valid pair at offsets 499/500: ToolCallFinished's 500-character preview cuts it in half.
  tool('emoji_tool', () => `${'e'.repeat(499)}😀 tail`),
  tool('echo_tool', (args) => `echo: ${JSON.stringify(args)}`),
];

interface Ev { id: string; type: string; payload: any }

describe.each(testDatabases())('text the database cannot store ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let id: string;
  let sessionId: string;
  let lastEvent: string | null = null;

  const refusal = (r: GraphQLResult) => ({
    code: r.errors?.[0]?.extensions?.code, domainCode: r.errors?.[0]?.extensions?.domainCode, message: r.errors?.[0]?.message ?? '',
  });

  /** Sends `text` and reads the turn's events (replayed from the last one seen: no registration race). */
  async function turn(text: string): Promise<Ev[]> {
    const stream = collect<{ turnEvents: Ev }>(t.ws(), `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id type payload } }`, { id, after: lastEvent });
    const sent = await t.gql(`mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`, { id, text });
    expect(sent.errors).toBeUndefined();
    const out: Ev[] = [];
    for (;;) {
      const e = (await stream.next(20_000)).data!.turnEvents;
      out.push(e);
      lastEvent = e.id;
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return out;
    }
  }

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, {}, { modelProvider: new NulProvider(), extraTools: TOOLS });
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/worker.yaml", content: $c) { version } }`,
      { c: 'description: Test worker\nengine: ford\nparams:\n  validation: false\n' });
    await t.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/skills/helper/SKILL.md", content: $c) { version } }`,
      { c: '---\ntitle: helper\ndescription: Skill helper\nversion: "1.0.0"\narguments: true\n---\nHelp.\n' });
    const spawned = await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "worker", name: "w" }) { id session { id } } }`);
    id = spawned.data!.spawnProcess.id;
    sessionId = spawned.data!.spawnProcess.session.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  // [what, operation, variables, the argument the refusal must name]
  const cases: [string, string, () => Record<string, unknown>, string][] = [
    ['a project name', `mutation V($v: String!) { createProject(name: $v) { id } }`, () => ({ v: NUL }), 'name'],
    ['a tenant name', `mutation V($v: String!) { createTenant(name: $v) { id } }`, () => ({ v: NUL }), 'name'],
    ['a user login', `mutation V($v: String!) { createUser(login: $v) { token } }`, () => ({ v: NUL }), 'login'],
    ['a member login', `mutation V($v: String!) { addProjectMember(project: "lab", login: $v) { role } }`, () => ({ v: NUL }), 'login'],
    ['an API token label', `mutation V($v: String!) { createApiToken(label: $v) }`, () => ({ v: NUL }), 'label'],
    ['document content', `mutation V($v: String!) { putDocument(layer: VANCE, path: "n.md", content: $v) { version } }`, () => ({ v: NUL }), 'content'],
    ['document content (unpaired surrogate)', `mutation V($v: String!) { putDocument(layer: VANCE, path: "n.md", content: $v) { version } }`, () => ({ v: LONE }), 'content'],
    ['a document path', `mutation V($v: String!) { putDocument(layer: VANCE, path: $v, content: "x") { version } }`, () => ({ v: NUL }), 'path'],
    ['a document lookup', `query V($v: String!) { document(layer: VANCE, path: $v) { version } }`, () => ({ v: NUL }), 'path'],
    ['a document prefix (inline literal)', `query { documents(layer: VANCE, prefix: "a\\u0000") { path } }`, () => ({}), 'prefix'],
    ['content to validate', `query V($v: String!) { validateDocument(path: "_vance/skills/x/SKILL.md", content: $v) { message } }`, () => ({ v: NUL }), 'content'],
    ['a setting value', `mutation V($v: String!) { putSetting(key: "ui.title", value: $v) { key } }`, () => ({ v: NUL }), 'value'],
    ['a setting key', `query V($v: String!) { setting(key: $v) { key } }`, () => ({ v: NUL }), 'key'],
    ['a project argument', `query V($v: String!) { settings(project: $v) { key } }`, () => ({ v: NUL }), 'project'],
    ['a process name', `mutation V($v: String!) { spawnProcess(input: { project: "lab", name: $v }) { id } }`, () => ({ v: NUL }), 'input.name'],
    ['a spawn param value', `mutation V($p: JSON) { spawnProcess(input: { project: "lab", params: $p }) { id } }`, () => ({ p: { note: NUL } }), 'input.params.note'],
    ['a spawn param key', `mutation V($p: JSON) { spawnProcess(input: { project: "lab", params: $p }) { id } }`, () => ({ p: { [NUL]: 1 } }), 'input.params (a key)'],
    ['recipe params', `query V($p: JSON) { resolveRecipe(name: "worker", project: "lab", params: $p) { kind } }`, () => ({ p: { deep: [{ x: NUL }] } }), 'params.deep[0].x'],
    ['message text', `mutation V($id: ID!, $v: String!) { sendMessage(processId: $id, text: $v) { id } }`, () => ({ id, v: NUL }), 'text'],
    ['message text (unpaired surrogate)', `mutation V($id: ID!, $v: String!) { sendMessage(processId: $id, text: $v) { id } }`, () => ({ id, v: LONE }), 'text'],
    ['a /skill line', `mutation V($id: ID!, $v: String!) { skillCommand(processId: $id, line: $v) { kind } }`, () => ({ id, v: `/skill helper ${NUL}` }), 'line'],
    ['skill arguments', `mutation V($id: ID!, $v: String) { activateSkill(processId: $id, name: "helper", args: $v) { outcome } }`, () => ({ id, v: NUL }), 'args'],
    ['a skill name', `mutation V($id: ID!, $v: String!) { activateSkill(processId: $id, name: $v) { outcome } }`, () => ({ id, v: NUL }), 'name'],
    ['a skill to clear', `mutation V($id: ID!, $v: String) { clearSkills(processId: $id, name: $v) { cleared } }`, () => ({ id, v: NUL }), 'name'],
    ['a completion prefix', `query V($id: ID!, $v: String) { skillCompletions(processId: $id, prefix: $v) }`, () => ({ id, v: NUL }), 'prefix'],
    ['a process id', `query V($v: ID!) { process(id: $v) { id } }`, () => ({ v: NUL }), 'id'],
    ['trigger-test messages', `query V($v: [String!]!) { skillTriggerTest(project: "lab", messages: $v) { skill } }`, () => ({ v: ['fine', NUL] }), 'messages[1]'],
    ['client tool names', `mutation V($s: ID!, $v: String!) { registerClientTools(sessionId: $s, tools: [{ name: $v }]) { sessionId } }`, () => ({ s: sessionId, v: NUL }), 'tools[0].name'],
    ['a client tool result', `mutation V($s: ID!, $r: JSON) { submitClientToolResult(sessionId: $s, callId: "00000000-0000-0000-0000-000000000000", result: $r) }`, () => ({ s: sessionId, r: NUL }), 'result'],
  ];

  it.each(cases)('refuses %s with U+0000 or a lone surrogate as BAD_USER_INPUT naming the argument', async (_what, query, variables, path) => {
    const r = refusal(await t.gql(query, variables()));
    expect(r).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'UNSTORABLE_TEXT' });
    expect(r.message).toContain(`Argument '${path}'`);
    expect(r.message).toMatch(/U\+0000|unpaired UTF-16 surrogate/);
  });

  it('answers a query with an unknown field as GRAPHQL_VALIDATION_FAILED, not as an internal error', async () => {
    // Guards against a past bug: Apollo's ValidationError (named after its class) was masked as INTERNAL_SERVER_ERROR.
    const r = await t.gql(`query { resolveRecipe(name: "worker", project: "lab") { name } }`);
    expect(r.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.errors?.[0]?.message).toContain('Cannot query field');
  });

  it('stored nothing for the refused requests', async () => {
    const p = (await t.gql(`query P($id: ID!) { process(id: $id) { pending { content } activeSkills { name } } }`, { id })).data!.process;
    expect(p).toEqual({ pending: [], activeSkills: [] });
    expect((await t.gql(`query { document(layer: VANCE, path: "n.md") { version } }`)).data!.document).toBeNull();
    expect((await t.gql(`query { setting(key: "ui.title") { hasValue } }`)).data!.setting.hasValue).toBe(false);
  });

  it('refuses it on WebSocket too, before a subscription starts', async () => {
    const sub = collect(t.ws(), `subscription V($v: String) { documentChanged(project: $v) { path } }`, { v: NUL });
    await sub.done;
    const errors = (sub.error ?? sub.events[0]?.errors) as { extensions?: { code?: string; domainCode?: string } }[];
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'UNSTORABLE_TEXT' });
  });

  it('keeps a turn whose tool returns a NUL: U+FFFD in its place, said in the result and the event, and later turns work', async () => {
    const events = await turn('call nul_tool {}');
    expect(events.at(-1)!.type).toBe('TurnFinished');
    const finished = events.find((e) => e.type === 'ToolCallFinished')!.payload;
    expect(finished).toMatchObject({ name: 'nul_tool', isError: false, replacedCharacters: 1 });
    expect(finished.preview).toContain('before\ufffdafter');
    expect(events.at(-1)!.payload.replacedCharacters).toEqual({ toolResults: 1, modelOutput: 0 });
    const messages = (await t.gql(`query M($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    const result = messages.filter((m) => m.role === 'tool').at(-1)!.content;
    expect(result).toContain('before\ufffdafter');
    expect(result).toMatch(/1 character that cannot be stored .* replaced with U\+FFFD/);

    const next = await turn('hello again');
    expect(next.at(-1)!.type).toBe('TurnFinished');
    const turns = (await t.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).data!.turns as { status: string }[];
    expect(turns.map((x) => x.status)).not.toContain('FAILED');
    expect((await t.gql(`query P($id: ID!) { process(id: $id) { pending { content } } }`, { id })).data!.process.pending).toEqual([]);
  });

  it('keeps turns whose tools return an unpaired surrogate or a pair the event preview cuts in half', async () => {
    const lone = await turn('call surrogate_tool {}');
    expect(lone.at(-1)!.type).toBe('TurnFinished');
    expect(lone.find((e) => e.type === 'ToolCallFinished')!.payload).toMatchObject({ replacedCharacters: 1 });
    const emoji = await turn('call emoji_tool {}');
    expect(emoji.at(-1)!.type).toBe('TurnFinished');
    // The result itself is intact (a whole pair); only the preview's cut half became U+FFFD.
    const finished = emoji.find((e) => e.type === 'ToolCallFinished')!.payload;
    expect(finished.replacedCharacters).toBeUndefined();
    expect(finished.preview.endsWith('\ufffd')).toBe(true);
    const messages = (await t.gql(`query M($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    expect(messages.filter((m) => m.role === 'tool').at(-1)!.content).toContain('😀 tail');
  });

  it('makes model output storable: a NUL in text and in tool-call arguments, a pair split across deltas stays whole', async () => {
    const said = await turn('say nul');
    expect(said.at(-1)!.type).toBe('TurnFinished');
    expect(said.at(-1)!.payload.replacedCharacters).toEqual({ toolResults: 0, modelOutput: 1 });
    const deltas = said.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('');
    expect(deltas).toBe('zero\ufffdbyte and half a pair 😀 joined');
    const args = await turn('args nul');
    expect(args.at(-1)!.type).toBe('TurnFinished');
    expect(args.find((e) => e.type === 'ToolCallStarted')!.payload.arguments).toEqual({ text: 'x\ufffdy', 'k\ufffd': 1 });
    const messages = (await t.gql(`query M($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    expect(messages.some((m) => m.role === 'assistant' && m.content === 'zero\ufffdbyte and half a pair 😀 joined')).toBe(true);
    expect((await turn('hello')).at(-1)!.type).toBe('TurnFinished');
  });
});
