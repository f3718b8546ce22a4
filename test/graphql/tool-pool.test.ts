import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ForcingProvider } from '../support/forcing-provider';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { codeOf, collect, eventually, startTestVance, type TestVance } from './harness';

/**
 * Issue 15, "tools that exist, or a diagnostic", over GraphQL: the catalog is what the deployment
 * runs, entries that resolve to nothing are reported with the reason instead of listed, deferred
 * tools are reached through tool_list/tool_describe, and respond ends a turn in one model call.
 * The provider records every request (its tool names) and otherwise is the offline model, except
 * that a conversation containing "speak plainly" always answers in plain text (a model that ignores
 * the respond convention) and `force <tool> {json}` calls a tool whether offered or not.
 */
const PUT = `mutation Put($layer: Layer!, $path: String!, $content: String!) { putDocument(layer: $layer, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name session { id } } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!) { turnEvents(processId: $id) { id type payload } }`;
const MESSAGES = `query M($id: ID!) { messages(processId: $id) { role content toolCall } }`;
const POOL = `unrestricted primary deferred allowed unresolved unresolvedTools { entry field reason } details { name labels placement }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { tools deferredTools allowedTools sections { kind text } toolPool { ${POOL} } } }`;
const RESOLVE = `query R($name: String!) { resolveRecipe(name: $name, project: "ops") { engine tools { ${POOL} } } }`;
const REGISTER = `mutation R($sessionId: ID!, $tools: [ClientToolInput!]!) { registerClientTools(sessionId: $sessionId, tools: $tools) { sessionId } }`;
const CALLS = `subscription C($sessionId: ID!) { clientToolCalls(sessionId: $sessionId) { callId } }`;

/** Tools that no deployment of Vance implements: the old catalog listed them. */
const NEVER_RUN = ['web_search', 'web_fetch', 'rag_query', 'doc_read', 'doc_write', 'how_do_i', 'memory_search'];

interface Ev { id: string; type: string; payload: any }

const DOCS: Record<string, string> = {
  '_vance/recipes/wishful.yaml': [
    'description: Names tools that do not exist here', 'engine: ford', 'params:', '  validation: false',
    'allowedToolsAdd: ["@web", shell_exec]', 'allowedToolsRemove: ["client_*"]',
  ].join('\n'),
  '_vance/recipes/deferring.yaml': [
    'description: Defers the manual and process tools', 'engine: ford', 'params:', '  validation: false',
    'allowedToolsDefer: [manual_read, "@process"]',
  ].join('\n'),
  '_vance/recipes/budgeted.yaml': [
    'description: A small tool surface', 'engine: ford', 'params:', '  validation: false', '  maxTools: 6',
    'allowedToolsKeep: [respond, manual_list]', 'allowedToolsDropFirst: ["workspace_*"]',
  ].join('\n'),
  '_vance/skills/wants/SKILL.md': '---\ntitle: wants\ndescription: Wants tools\nversion: "1.0.0"\ntools: [shell_exec, web_search, manual_list]\n---\nUse the shell.\n',
};

describe.each(testDatabases())('tool pools, deferred tools and respond over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: TestVance;
  const provider = new ForcingProvider({ plainly: 'speak plainly' });

  const spawn = async (recipe: string, name: string, session?: string) => {
    const r = await s.gql(SPAWN, { input: { project: 'ops', recipe, name, ...(session ? { session } : {}) } });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data!.spawnProcess as { id: string; session: { id: string } };
  };
  const preview = async (id: string) => {
    const r = await s.gql(PREVIEW, { id });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data!.composeTurnPreview;
  };
  /** Sends a message and reads the turn's events; `calls` are the model requests the turn made. */
  const turn = async (id: string, text: string): Promise<{ events: Ev[]; calls: string[][] }> => {
    const client = s.ws();
    const open = s.bus.count(TURN_EVENTS_TOPIC);
    const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(client, EVENTS, { id }));
    const before = provider.requests.length;
    const sent = await s.gql(SEND, { id, text });
    if (sent.errors) throw new Error(JSON.stringify(sent.errors));
    const events: Ev[] = [];
    let started = false;
    for (;;) {
      const e = (await stream.next()).data!.turnEvents;
      // Replayed events of earlier turns come first: read from this turn's start.
      if (e.type === 'TurnStarted' && e.payload.input.some((i: any) => i.preview === text.slice(0, i.preview.length))) started = true;
      if (!started) continue;
      events.push(e);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') break;
    }
    stream.stop();
    await client.dispose();
    // The server ends the subscription asynchronously; the next turn's must not meet the token's cap.
    await s.bus.until(TURN_EVENTS_TOPIC, (n) => n <= open);
    return { events, calls: provider.requests.slice(before) };
  };
  const finished = (events: Ev[]) => events[events.length - 1]!;
  const toolResult = (events: Ev[], name: string) => events.find((e) => e.type === 'ToolCallFinished' && e.payload.name === name)!.payload;

  beforeAll(async () => {
    db = await driver.open();
    s = await startTestVance(db, {}, { modelProvider: provider });
    await s.gql(`mutation { createProject(name: "ops") { id } }`);
    for (const [path, content] of Object.entries(DOCS)) {
      const r = await s.gql(PUT, { layer: 'VANCE', path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
  });
  afterAll(async () => {
    await s?.close();
    await db?.close();
  });

  it('lists only tools this deployment runs: the default recipe\'s preview tools are the tools the model is offered, each with labels', async () => {
    const p = await spawn('default', 'plain');
    const shown = await preview(p.id);
    for (const name of NEVER_RUN) expect(shown.allowedTools).not.toContain(name);
    expect(shown.tools).toContain('respond');
    expect(shown.toolPool.details.map((t: any) => t.name)).toEqual(shown.allowedTools);
    for (const t of shown.toolPool.details) expect(t.labels.length, t.name).toBeGreaterThan(0);
    const { calls } = await turn(p.id, 'hello');
    expect([...calls[0]!].sort()).toEqual([...shown.tools].sort());
    const resolved = (await s.gql(RESOLVE, { name: 'default' })).data!.resolveRecipe.tools;
    expect(resolved.primary).toEqual(shown.toolPool.primary);

    const catalog = (await s.gql(`{ toolCatalog { name labels description } }`)).data!.toolCatalog;
    const names = catalog.map((t: any) => t.name);
    for (const name of NEVER_RUN) expect(names).not.toContain(name);
    expect(names).toEqual(expect.arrayContaining(['respond', 'whoami', 'current_time', 'process_list', 'manual_read', 'workspace_write']));
    for (const name of shown.allowedTools) expect(names).toContain(name);
    expect(catalog.find((t: any) => t.name === 'workspace_delete')).toMatchObject({ labels: ['write', 'destructive', 'workspace'], description: expect.any(String) });
    expect(codeOf(await s.gql(`{ toolCatalog { name } }`, {}, null))).toBe('UNAUTHENTICATED');
  });

  it('reports a recipe\'s and a skill\'s tools that resolve to nothing as unresolved, with the reason, and does not list them', async () => {
    const resolved = (await s.gql(RESOLVE, { name: 'wishful' })).data!.resolveRecipe.tools;
    expect(resolved.allowed).not.toContain('shell_exec');
    expect(resolved.unresolvedTools).toEqual([
      { entry: '@web', field: 'allowedToolsAdd', reason: 'label @web matches no tool; it resolves only when a connected client registers a tool with that label' },
      { entry: 'shell_exec', field: 'allowedToolsAdd', reason: "no tool of this deployment is called 'shell_exec'; it resolves only when a connected client registers it" },
      { entry: 'client_*', field: 'allowedToolsRemove', reason: "no tool name starts with 'client_'; the pattern resolves only when a connected client registers such a tool" },
    ]);

    const p = await spawn('wishful', 'wishful');
    const act = await s.gql(`mutation { activateSkill(processId: "${p.id}", name: "wants") { outcome } }`);
    expect(act.errors).toBeUndefined();
    const shown = await preview(p.id);
    for (const name of ['shell_exec', 'web_search']) {
      expect(shown.tools).not.toContain(name);
      expect(shown.allowedTools).not.toContain(name);
    }
    expect(shown.tools).toContain('manual_list');
    expect(shown.toolPool.unresolvedTools.filter((u: any) => u.field === 'tools')).toEqual([
      { entry: 'shell_exec', field: 'tools', reason: expect.stringContaining("no tool of this deployment is called 'shell_exec'") },
      { entry: 'web_search', field: 'tools', reason: expect.stringContaining("no tool of this deployment is called 'web_search'") },
    ]);
    const { events, calls } = await turn(p.id, 'go');
    expect(calls[0]).not.toContain('shell_exec');
    const composed = events.find((e) => e.type === 'PromptComposed')!.payload;
    expect(composed.tools).not.toContain('shell_exec');
    expect(composed.unresolvedTools).toEqual(shown.toolPool.unresolvedTools);
    expect(composed.toolDetails).toEqual(shown.toolPool.details);
  });

  it('loads the bundled web-research recipe: its web tools are unresolved with the reason, its label removals still apply', async () => {
    const r = await s.gql(RESOLVE, { name: 'web-research' });
    expect(r.errors).toBeUndefined();
    const tools = r.data!.resolveRecipe.tools;
    expect(tools.unresolvedTools.filter((u: any) => u.field === 'allowedToolsAdd').map((u: any) => u.entry)).toEqual(['web_search', 'web_fetch']);
    expect(tools.primary).toContain('respond');
    expect(tools.primary).toContain('manual_read');
    for (const name of ['workspace_write', 'workspace_delete', 'web_search']) expect(tools.allowed).not.toContain(name);
  });

  it('resolves a plain name per turn once the session\'s client registers a tool of that name', async () => {
    const p = await spawn('wishful', 'desk-proc', 'desk');
    const client = s.ws();
    const calls = await s.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect(client, CALLS, { sessionId: p.session.id }));
    const registered = await s.gql(REGISTER, {
      sessionId: p.session.id,
      tools: [{ name: 'shell_exec', labels: ['shell'] }, { name: 'web_open', labels: ['web'] }, { name: 'web_snapshot', labels: ['web'], deferred: true }],
    });
    expect(registered.errors).toBeUndefined();
    const shown = await preview(p.id);
    expect(shown.tools).toEqual(expect.arrayContaining(['shell_exec', 'web_open']));
    expect(shown.toolPool.unresolved).not.toContain('shell_exec');
    expect(shown.toolPool.unresolved).not.toContain('@web');
    expect(shown.toolPool.details).toContainEqual({ name: 'web_open', labels: ['web'], placement: 'PRIMARY' });
    // Registered deferred: reached through tool_list / tool_describe, not offered with its schema.
    expect(shown.deferredTools).toEqual(['web_snapshot']);
    expect(shown.tools).toEqual(expect.arrayContaining(['tool_list', 'tool_describe']));
    expect(shown.tools).not.toContain('web_snapshot');
    calls.stop();
    await client.dispose();
    await eventually(async () => (await s.gql(`query Q($id: ID!) { clientTools(sessionId: $id) { sessionId } }`, { id: p.session.id })).data!.clientTools === null);
    expect((await preview(p.id)).tools).not.toContain('shell_exec');
  });

  it('allowedToolsDefer: the deferred tools are callable but offered without schemas; tool_list lists them, tool_describe loads one', async () => {
    const resolved = (await s.gql(RESOLVE, { name: 'deferring' })).data!.resolveRecipe.tools;
    expect(resolved.deferred).toEqual(['manual_read', 'process_list', 'process_spawn', 'process_status']);
    expect(resolved.primary).not.toContain('manual_read');
    expect(resolved.primary).toEqual(expect.arrayContaining(['tool_list', 'tool_describe']));

    const p = await spawn('deferring', 'deferring');
    const shown = await preview(p.id);
    expect(shown.deferredTools).toEqual(['manual_read', 'process_list', 'process_spawn', 'process_status']);
    expect(shown.tools).toEqual(expect.arrayContaining(['tool_list', 'tool_describe', 'manual_list']));
    for (const name of shown.deferredTools) expect(shown.tools).not.toContain(name);
    expect(shown.toolPool.details).toContainEqual({ name: 'manual_read', labels: ['read', 'docs'], placement: 'DEFERRED' });
    expect(shown.sections.map((x: any) => x.text).join('\n')).not.toContain('manual_read');

    const listed = await turn(p.id, 'call tool_list {"label": "process"}');
    expect(listed.calls[0]).not.toContain('manual_read');
    const stored = (await s.gql(MESSAGES, { id: p.id })).data!.messages.filter((m: any) => m.role === 'tool');
    const list = JSON.parse(stored[stored.length - 1].content);
    expect(list.tools.map((t: any) => t.name)).toEqual(['process_list', 'process_spawn', 'process_status']);
    expect(list.tools[0].description.length).toBeGreaterThan(10);

    const described = await turn(p.id, 'call tool_describe {"name": "manual_read"}');
    expect(toolResult(described.events, 'tool_describe')).toMatchObject({ isError: false, preview: expect.stringContaining('"parameters"') });
    // Loaded for the rest of the turn: the next model call of the turn offers it with its schema.
    expect(described.calls[0]).not.toContain('manual_read');
    expect(described.calls[1]).toContain('manual_read');

    const direct = await turn(p.id, 'force manual_read {"name": "recipe-authoring"}');
    expect(toolResult(direct.events, 'manual_read')).toMatchObject({ isError: false });
    const composed = listed.events.find((e) => e.type === 'PromptComposed')!.payload;
    expect(composed.deferredTools).toEqual(['manual_read', 'process_list', 'process_spawn', 'process_status']);
    expect(composed.tools).toContain('tool_list');
  });

  it('allowedToolsDropFirst under maxTools: the cut goes to the deferred tools, tool_list and tool_describe take two places', async () => {
    const p = await spawn('budgeted', 'budgeted');
    const shown = await preview(p.id);
    expect(shown.tools).toHaveLength(6);
    expect(shown.tools).toEqual(expect.arrayContaining(['respond', 'manual_list', 'tool_list', 'tool_describe']));
    expect(shown.deferredTools).toEqual(expect.arrayContaining(['workspace_delete', 'workspace_list', 'workspace_read', 'workspace_write']));
    const { calls } = await turn(p.id, 'hi');
    expect(calls[0]).toHaveLength(6);
  });

  it.each(['default', 'ford', 'arthur'])('answers a plain turn of the bundled %s recipe (validation on) in one model call, through respond', async (recipe) => {
    const p = await spawn(recipe, `one-call-${recipe}`);
    const { events, calls } = await turn(p.id, 'What is 2 + 2?');
    expect(calls).toHaveLength(1);
    expect(finished(events)).toMatchObject({ type: 'TurnFinished', payload: { iterations: 1, corrections: [], finishReason: 'stop' } });
    expect(events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('')).toContain('You said: What is 2 + 2?');
    const messages = (await s.gql(MESSAGES, { id: p.id })).data!.messages;
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]).toMatchObject({ content: expect.stringContaining('You said: What is 2 + 2?'), toolCall: null });
  });

  it('corrects a plain-text reply without respond exactly once under validation', async () => {
    const p = await spawn('default', 'plain-talker');
    const { events, calls } = await turn(p.id, 'speak plainly');
    expect(calls).toHaveLength(2);
    expect(finished(events).payload).toMatchObject({ iterations: 2, corrections: ['no-tool-call'] });
    const system = (await s.gql(MESSAGES, { id: p.id })).data!.messages.filter((m: any) => m.role === 'system');
    expect(system).toHaveLength(1);
  });

  it('ends at respond after a work tool', async () => {
    const p = await spawn('default', 'worker-then-respond');
    const { events, calls } = await turn(p.id, 'call manual_list {}');
    expect(calls).toHaveLength(2);
    expect(finished(events).payload).toMatchObject({ iterations: 2, corrections: [] });
    const messages = (await s.gql(MESSAGES, { id: p.id })).data!.messages;
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[3].content).toMatch(/^Tool manual_list returned: /);
  });
});
