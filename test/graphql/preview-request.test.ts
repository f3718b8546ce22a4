import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools';
import { FakeLlmServer, openai, sse, type RecordedRequest } from '../llm/fake-llm-server';
import { collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 15, "the preview is the request": composeTurnPreview { request } taken before a turn equals,
 * field by field, what the turn then sends to the provider — recorded on the wire by a local server
 * speaking OpenAI's chat-completions protocol (test/llm/fake-llm-server.ts) — and so does the
 * PromptComposed event's request. Before, the preview listed the tool pool (names no tool implements,
 * 34 shown for 11 sent) and had no request at all.
 *
 * The instance runs no turns by itself (runTurns: false): the message waits in the inbox while the
 * preview is taken, then the runner picks the requested turn up as a starting instance would.
 *
 * What the wire format rewrites, and how it is compared:
 * - messages: ours → OpenAI's (`tool_calls` with JSON-text arguments, `tool_call_id`); compared whole;
 * - tools: wrapped as { type: 'function', function: { name, description, parameters } }; the
 *   adapter adds `properties: {}` to a schema without one (toToolSet); the SDK adds nothing else
 *   here (no `strict`, no `additionalProperties`) — compared whole, labels are not sent;
 * - sampling: renamed (max_tokens, top_p, stop, …); top_k is not an OpenAI parameter (the request's
 *   droppedSampling says so) and must be absent;
 * - added by the adapter, not part of the preview: `stream`, `stream_options`, `tool_choice: auto`.
 */
const RECIPES_DIR = path.resolve(__dirname, '../../vance-defaults/_vance/recipes');
const BUNDLED = readdirSync(RECIPES_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)).sort();

const REQUEST = `request { provider model systemMessages messages { role content toolCalls toolCallId toolName isError } tools { name description parameters labels } sampling droppedSampling }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { provider model tools deferredTools ${REQUEST} } }`;
const RESOLVE = `query R($name: String!) { resolveRecipe(name: $name, project: "lab") { engine systemPromptPreview warnings { message } ${REQUEST} } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id session { id } } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;

const SELECTORS_RECIPE = [
  'description: Label selectors, deferred tools and every sampling value',
  'engine: arthur',
  'params:',
  '  validation: false',
  '  temperature: 0.3',
  '  topP: 0.9',
  '  topK: 40',
  '  maxTokens: 500',
  '  seed: 7',
  '  stopSequences: [END]',
  '  presencePenalty: 0.1',
  '  frequencyPenalty: 0.2',
  'allowedToolsRemove:',
  '  - "@destructive"',
  'allowedToolsAdd:',
  '  - "@workspace"',
  '  - "@browser"',
  'allowedToolsDefer:',
  '  - manual_read',
  '',
].join('\n');

const REVIEW_SKILL = [
  '---',
  'name: reviewing',
  'description: Reviews with care',
  'version: "1.0.0"',
  'tools: [recipe_list]',
  '---',
  'When reviewing, name the file and the line of every finding.',
  '',
].join('\n');

interface WireMessage { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }
interface PreviewMessage { role: string; content: string; toolCalls: { id: string; name: string; arguments: unknown }[] | null; toolCallId: string | null; toolName: string | null; isError: boolean | null }
interface PreviewRequest {
  provider: string; model: string; systemMessages: number; messages: PreviewMessage[];
  tools: { name: string; description: string; parameters: Record<string, unknown>; labels: string[] }[];
  sampling: Record<string, unknown>; droppedSampling: string[];
}

/** Our request messages in OpenAI's chat-completions shape, as the AI SDK writes them. */
function toWire(messages: readonly PreviewMessage[]): WireMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      return { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) };
    }
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId!, content: m.content };
    return { role: m.role, content: m.content };
  });
}

/** The schema as the adapter hands it to the SDK (toToolSet): an object schema, `properties` defaulted. */
const asSent = (parameters: Record<string, unknown>) => ({ type: 'object', properties: {}, ...parameters });

/** Every field of the recorded request that the preview promises, compared with the preview. */
function expectSent(body: Record<string, any>, request: PreviewRequest): void {
  expect(request.provider).toBe('openai');
  expect(body.model).toBe(request.model);
  expect(body.messages).toEqual(toWire(request.messages));
  const tools = (body.tools ?? []) as { type: string; function: Record<string, unknown> }[];
  expect(tools.map((t) => t.type)).toEqual(tools.map(() => 'function'));
  expect(tools.map((t) => t.function)).toEqual(request.tools.map((t) => ({ name: t.name, description: t.description, parameters: asSent(t.parameters) })));
  const s = request.sampling;
  const sent = (value: unknown) => (value === null ? undefined : value);
  expect({
    temperature: body.temperature, max_tokens: body.max_tokens, top_p: body.top_p, seed: body.seed, stop: body.stop,
    frequency_penalty: body.frequency_penalty, presence_penalty: body.presence_penalty, top_k: body.top_k,
  }).toEqual({
    temperature: s.temperature, max_tokens: sent(s.maxTokens), top_p: sent(s.topP), seed: sent(s.seed), stop: sent(s.stopSequences),
    frequency_penalty: sent(s.frequencyPenalty), presence_penalty: sent(s.presencePenalty), top_k: undefined,
  });
}

describe.each(testDatabases())('the preview is the request ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  const model = new FakeLlmServer();

  /**
   * Sends `text`, takes the preview while the message waits in the inbox, then runs the turn.
   * Returns the preview, the first request the turn sent, and the turn's events.
   */
  async function previewThenRun(id: string, text: string) {
    expect((await t.gql(SEND, { id, text })).errors).toBeUndefined();
    const preview = await t.gql(PREVIEW, { id });
    expect(preview.errors).toBeUndefined();
    const before = model.requests.length;
    const runner = t.vance.services.turnRunner;
    await runner.recover();
    await runner.idle();
    expect(model.requests.length).toBeGreaterThan(before);
    const first: RecordedRequest = model.requests[before]!;
    const stream = collect<{ turnEvents: { type: string; payload: any } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id });
    const events: { type: string; payload: any }[] = [];
    for (;;) {
      const e = (await stream.next()).data!.turnEvents;
      events.push(e);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') break;
    }
    stream.stop();
    // Only the last turn's events (a process may have had turns before).
    const started = events.map((e) => e.type).lastIndexOf('TurnStarted');
    return { preview: preview.data!.composeTurnPreview as { tools: string[]; deferredTools: string[]; request: PreviewRequest }, body: first.body as Record<string, any>, events: events.slice(started) };
  }

  /** The PromptComposed event's request equals the wire too: system messages, tools, sampling, model. */
  function expectEventSent(events: { type: string; payload: any }[], body: Record<string, any>, request: PreviewRequest): void {
    const composed = events.find((e) => e.type === 'PromptComposed')!.payload.request;
    expect(composed.model).toBe(body.model);
    expect(composed.system).toEqual(request.messages.slice(0, request.systemMessages).map((m) => ({ role: m.role, content: m.content })));
    expect(body.messages.slice(0, composed.system.length)).toEqual(composed.system);
    expect(composed.tools).toEqual(request.tools);
    expect(composed.sampling).toEqual(request.sampling);
    const finished = events.find((e) => e.type === 'TurnFinished')!.payload;
    // The provider's count of the first call's input next to the estimate.
    expect(finished.promptTokens).toMatchObject({ reported: 321 });
    expect(finished.promptTokens.estimated).toBeGreaterThan(0);
  }

  async function spawn(input: Record<string, unknown>): Promise<{ id: string; session: string }> {
    const r = await t.gql(SPAWN, { input: { project: 'lab', ...input } });
    expect(r.errors).toBeUndefined();
    return { id: r.data!.spawnProcess.id, session: r.data!.spawnProcess.session.id };
  }

  beforeAll(async () => {
    await model.start();
    model.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('Done.', true));
      s.data(openai.finish('stop'));
      s.data(openai.usage(321, 2));
      s.data('[DONE]');
      s.end();
    };
    db = await driver.open();
    t = await startTestVance(db, {}, { runTurns: false });
    await t.gql('mutation { createProject(name: "lab") { id } }');
    for (const [key, value] of [['ai.openai.apiKey', 'sk-test'], ['ai.openai.baseUrl', `${model.baseUrl}/v1`], ['ai.default.provider', 'openai'], ['ai.default.model', 'gpt-test']] as const) {
      expect((await t.gql('mutation S($k: String!, $v: String!) { putSetting(key: $k, value: $v) { key } }', { k: key, v: value })).errors).toBeUndefined();
    }
    const put = async (p: string, c: string) => {
      const r = await t.gql('mutation P($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "lab", path: $p, content: $c) { version } }', { p, c });
      expect(r.errors).toBeUndefined();
    };
    await put('_vance/recipes/selectors.yaml', SELECTORS_RECIPE);
    await put('_vance/skills/reviewing/SKILL.md', REVIEW_SKILL);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await db?.close();
    await model.stop();
  });

  it.each(BUNDLED)('bundled recipe %s: the first request sent equals the preview taken before the turn, and resolveRecipe shows it', async (recipe) => {
    const resolved = await t.gql(RESOLVE, { name: recipe });
    expect(resolved.errors).toBeUndefined();
    const { id } = await spawn({ recipe });
    const { preview, body, events } = await previewThenRun(id, 'What is in the workspace?');
    expectSent(body, preview.request);
    expectEventSent(events, body, preview.request);
    // resolveRecipe: the same request without history — system messages, tools, sampling, model (before issue 15: no request, systemPromptPreview null).
    const r = resolved.data!.resolveRecipe as { systemPromptPreview: string | null; request: PreviewRequest };
    expect(r.request.messages).toEqual(preview.request.messages.slice(0, preview.request.systemMessages));
    expect(r.request.systemMessages).toBe(preview.request.systemMessages);
    expect({ ...r.request, messages: null }).toEqual({ ...preview.request, messages: null });
    expect(r.systemPromptPreview).toBeTruthy();
    expect(body.messages[0].content.startsWith(r.systemPromptPreview!)).toBe(true);
    expect(preview.tools).toEqual(preview.request.tools.map((t) => t.name));
    expect(preview.request.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is in the workspace?' });
  });

  it('covers ford and arthur among the bundled recipes', () => {
    expect(BUNDLED).toEqual(expect.arrayContaining(['ford', 'arthur', 'default']));
  });

  it('resolveRecipe without a project (the tenant hub) shows the request and the prompt too', async () => {
    const r = await t.gql(`query { resolveRecipe(name: "arthur") { systemPromptPreview ${REQUEST} } }`);
    expect(r.errors).toBeUndefined();
    const resolved = r.data!.resolveRecipe as { systemPromptPreview: string; request: PreviewRequest };
    expect(resolved.systemPromptPreview).toContain('Arthur');
    // arthur's whitelist applies: process_spawn is offered, workspace_write (not in arthur's list) is not.
    expect(resolved.request.tools.map((x) => x.name)).toContain('process_spawn');
    expect(resolved.request.tools.map((x) => x.name)).not.toContain('workspace_write');
    expect(resolved.request.messages[0]!.content).toContain('## Available worker recipes');
  });

  it('a recipe with label selectors, deferred tools and every sampling value; a second turn carries the first as history', async () => {
    const { id } = await spawn({ recipe: 'selectors' });
    const first = await previewThenRun(id, 'Start a worker.');
    expectSent(first.body, first.preview.request);
    expectEventSent(first.events, first.body, first.preview.request);
    const names = first.preview.request.tools.map((t) => t.name);
    // arthur's base plus @workspace minus @destructive; manual_read deferred out of the request, reached through tool_list/tool_describe.
    expect(names).toEqual(expect.arrayContaining(['process_spawn', 'workspace_read', 'workspace_write', 'manual_list']));
    expect(names).not.toContain('workspace_delete');
    expect(names).not.toContain('manual_read');
    expect(first.preview.deferredTools).toContain('manual_read');
    expect(names).toEqual(expect.arrayContaining(['tool_list', 'tool_describe']));
    expect(first.preview.request.messages.some((m) => m.role === 'system' && m.content.includes('manual_read'))).toBe(false);
    expect(first.preview.request.tools.find((t) => t.name === 'process_spawn')!.labels).toEqual(expect.arrayContaining(['process']));
    expect(first.preview.request.sampling).toMatchObject({ temperature: 0.3, topP: 0.9, maxTokens: 500, seed: 7, stopSequences: ['END'], presencePenalty: 0.1, frequencyPenalty: 0.2, topK: null });
    expect(first.preview.request.droppedSampling).toEqual(['topK']);
    const second = await previewThenRun(id, 'And now?');
    expectSent(second.body, second.preview.request);
    expect(second.preview.request.messages.map((m) => m.role).slice(second.preview.request.systemMessages)).toEqual(['user', 'assistant', 'user']);
  });

  it('a session with client tools: they are in the request with their schemas and labels', async () => {
    const { id, session } = await spawn({ recipe: 'selectors', session: 'desk' });
    const client = t.ws();
    const calls = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect(client, `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s: session }));
    const registered = await t.gql(`mutation R($s: ID!, $tools: [ClientToolInput!]!) { registerClientTools(sessionId: $s, tools: $tools) { sessionId } }`, {
      s: session,
      tools: [
        { name: 'browser_open', description: 'Open a page', labels: ['browser'], parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
        { name: 'local_notes', description: 'Notes of the desk', labels: ['files'] },
      ],
    });
    expect(registered.errors).toBeUndefined();
    const { preview, body, events } = await previewThenRun(id, 'Open example.org');
    expectSent(body, preview.request);
    expectEventSent(events, body, preview.request);
    expect(preview.request.tools.find((t) => t.name === 'browser_open')).toEqual({
      name: 'browser_open', description: 'Open a page', labels: ['browser'], parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    });
    // Not selected by the recipe: not offered.
    expect(preview.request.tools.map((t) => t.name)).not.toContain('local_notes');
    calls.stop();
    await client.dispose();
  });

  it('a turn with an active skill: its section is a system message and its tools are offered', async () => {
    const { id } = await spawn({ recipe: 'ford' });
    const activated = await t.gql(`mutation A($id: ID!) { activateSkill(processId: $id, name: "reviewing") { outcome } }`, { id });
    expect(activated.errors).toBeUndefined();
    const { preview, body, events } = await previewThenRun(id, 'Review src/app.ts');
    expectSent(body, preview.request);
    expectEventSent(events, body, preview.request);
    const system = preview.request.messages.slice(0, preview.request.systemMessages);
    expect(system.some((m) => m.content.includes('name the file and the line of every finding'))).toBe(true);
    expect(preview.request.tools.map((t) => t.name)).toContain('recipe_list');
  });
});
