/**
 * MCP tool packs end to end (issue 19 part 2): pack documents written over GraphQL, the SDK's own
 * McpServer on loopback as the pack's server, turns run by the offline model calling pack tools
 * (`force <tool> {json}` calls a tool not offered with its schema: a deferred one after tool_describe).
 * Selection by `@mcp:<pack>` and by a pack's own label, an `isError` result, a server that is down,
 * one that hangs (call timeout, connect timeout), stdio refused without the tenant policy, a header
 * secret that never reaches another origin, one pooled connection for several turns (a changed
 * document replaces it), the tool list refreshed on list_changed, and tenant isolation.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { ForcingProvider } from '../support/forcing-provider';
import { closedPortUrl, startMcpTestServer, startRecorder, type McpTestServer } from '../support/mcp-test-server';
import type { Database } from '../../api/src/persistence';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { collect, eventually, startTestVance, type TestVance } from './harness';

const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!) { putDocument(layer: $layer, project: $project, path: $path, content: $content) { version } }`;
const SETTING = `mutation S($key: String!, $value: String, $project: String) { putSetting(key: $key, value: $value, project: $project) { key } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;
const SECRET = 'pack-secret-7f3a9c';
const STDIO_SERVER = path.resolve(__dirname, '../support/mcp-stdio-server.mjs');

interface Ev { id: string; type: string; payload: any }

describe.each(testDatabases())('MCP tool packs ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let main: McpTestServer;
  const last = new Map<string, string>();
  const closers: (() => Promise<void>)[] = [];

  async function put(layer: string, path: string, content: string, project?: string, token?: string): Promise<void> {
    const r = await t.gql(PUT, { layer, path, content, ...(project ? { project } : {}) }, token);
    if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
  }

  async function spawn(project: string, recipe: string, token?: string): Promise<string> {
    const r = await t.gql(SPAWN, { input: { project, recipe } }, token);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data!.spawnProcess.id;
  }

  /** Sends `text` and reads the turn's events until it finished or failed. */
  async function turn(id: string, text: string, token?: string): Promise<Ev[]> {
    const stream = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(t.ws(token), EVENTS, { id, after: last.get(id) ?? null }));
    const sent = await t.gql(SEND, { id, text }, token);
    if (sent.errors) throw new Error(JSON.stringify(sent.errors));
    const events: Ev[] = [];
    for (;;) {
      const e = (await stream.next(30_000)).data!.turnEvents;
      events.push(e);
      if (process.env.DEBUG_PACKS) console.log(e.type, JSON.stringify(e.payload).slice(0, 300));
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') break;
    }
    last.set(id, events[events.length - 1]!.id);
    return events;
  }
  const composed = (events: Ev[]) => events.find((e) => e.type === 'PromptComposed')!.payload;
  const finished = (events: Ev[]) => events.filter((e) => e.type === 'ToolCallFinished').map((e) => e.payload);
  const said = (events: Ev[]) => events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('');

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, {}, { modelProvider: new ForcingProvider() });
    main = await startMcpTestServer();
    closers.push(() => main.close());
    for (const project of ['ops', 'broken']) await t.gql(`mutation { createProject(name: "${project}") { id } }`);
    await t.gql(SETTING, { key: 'mcp.main.token', value: SECRET });
    // The secret's binding, in its own (the tenant's) layer: it may go to the pack server's origin only.
    await t.gql(SETTING, { key: 'mcp.main.token.origins', value: new URL(main.url).origin });
    await put('VANCE', '_vance/tools/main.mcp.yaml', [
      `url: ${main.url}`, 'labels: [web, Search]', 'timeoutMs: 1000', 'exclude: [hang]',
      'headers:', '  X-Api-Key: { setting: mcp.main.token }', '  X-Static: plain',
    ].join('\n'));
    // The same server as a second pack, deferred, with only echo and hang.
    await put('VANCE', '_vance/tools/lazy.mcp.yaml', `url: ${main.url}\ndeferred: true\ninclude: [echo, hang]\ntimeoutMs: 400\n`);
    await put('VANCE', '_vance/recipes/plain.yaml', 'description: Worker\nengine: ford\nparams:\n  validation: false\n');
    // arthur's base is a fixed list: only the add brings pack tools in (seed 004 §6.1, §6.2).
    await put('VANCE', '_vance/recipes/by-pack.yaml', 'description: By pack\nengine: arthur\nparams:\n  validation: false\nallowedToolsAdd: ["@mcp:main"]\n');
    await put('VANCE', '_vance/recipes/by-label.yaml', 'description: By label\nengine: arthur\nparams:\n  validation: false\nallowedToolsAdd: ["@search"]\n');
  });
  afterAll(async () => {
    await t?.close();
    for (const close of closers) await close();
    await db?.close();
  });

  it('selects a pack\'s tools by @mcp:<pack> and calls one in a turn; names fit every provider', async () => {
    const id = await spawn('ops', 'by-pack');
    const events = await turn(id, 'call main_echo {"text": "ping"}');
    const payload = composed(events);
    expect(payload.tools).toEqual(expect.arrayContaining(['main_echo', 'main_fail', 'main_search_v2_query']));
    // exclude: [hang]; the lazy pack is not selected by @mcp:main.
    expect(payload.tools).not.toContain('main_hang');
    expect(payload.tools.filter((n: string) => n.startsWith('lazy_'))).toEqual([]);
    for (const name of payload.tools) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(payload.toolDetails.find((d: any) => d.name === 'main_echo').labels).toEqual(expect.arrayContaining(['mcp', 'mcp:main', 'web', 'search']));
    expect(finished(events)).toEqual([expect.objectContaining({ name: 'main_echo', isError: false })]);
    expect(said(events)).toContain('echo: ping');
    expect(events[events.length - 1]!.type).toBe('TurnFinished');
  });

  it('projectTools (the dashboard\'s Tools page) lists pack tools with their source and labels', async () => {
    const r = await t.gql(`query { projectTools(project: "ops") { tools { name labels deferred origin { kind layer path pack } } problems { path } } }`);
    const tools = r.data!.projectTools.tools as any[];
    expect(tools.find((x) => x.name === 'main_echo')).toEqual({
      name: 'main_echo', labels: expect.arrayContaining(['mcp', 'mcp:main', 'web', 'search']), deferred: false,
      origin: { kind: 'MCP_PACK', layer: 'VANCE', path: '_vance/tools/main.mcp.yaml', pack: 'main' },
    });
    expect(tools.find((x) => x.name === 'lazy_echo')).toMatchObject({ deferred: true, origin: { kind: 'MCP_PACK', pack: 'lazy' } });
    expect(tools.find((x) => x.name === 'current_time')?.origin.kind).toBe('BUILTIN');
  });

  it('selects by the pack\'s own label; the server\'s input schema is checked before the call', async () => {
    const id = await spawn('ops', 'by-label');
    const calls = main.calls.length;
    const events = await turn(id, 'call main_echo {"text": 42}');
    expect(composed(events).tools).toContain('main_echo');
    const [call] = finished(events);
    expect(call).toMatchObject({ name: 'main_echo', isError: true });
    expect(main.calls.length).toBe(calls); // refused by the registry, never sent
    expect(events[events.length - 1]!.type).toBe('TurnFinished');
  });

  it('an isError result and a call past timeoutMs are tool errors; the turn goes on', async () => {
    const id = await spawn('ops', 'plain');
    const failed = await turn(id, 'call main_fail {}');
    expect(finished(failed)).toEqual([expect.objectContaining({ name: 'main_fail', isError: true })]);
    expect(said(failed)).toContain('the database of the pack is on fire');
    expect(failed[failed.length - 1]!.type).toBe('TurnFinished');

    // lazy is deferred: listed by tool_list, not offered with a schema.
    const listed = await turn(id, 'call tool_list {}');
    expect(composed(listed).deferredTools).toEqual(expect.arrayContaining(['lazy_echo', 'lazy_hang']));
    expect(composed(listed).tools).not.toContain('lazy_hang');
    expect(said(listed)).toContain('lazy_hang');
    // The deferred-tool path: tool_describe gives the pack's schema, and the tool is callable.
    const described = await turn(id, 'call tool_describe {"name": "lazy_echo"}');
    expect(finished(described)).toEqual([expect.objectContaining({ name: 'tool_describe', isError: false })]);
    expect(said(described)).toContain('text');
    const called = await turn(id, 'force lazy_echo {"text": "deferred"}');
    expect(finished(called)).toEqual([expect.objectContaining({ name: 'lazy_echo', isError: false })]);
    expect(said(called)).toContain('echo: deferred');
  });

  it('a hanging tool call times out as a tool error', async () => {
    await put('PROJECT', '_vance/tools/slow.mcp.yaml', `url: ${main.url}\ninclude: [hang]\ntimeoutMs: 300\n`, 'broken');
    const id = await spawn('broken', 'plain');
    const events = await turn(id, 'call slow_hang {}');
    const [call] = finished(events);
    expect(call).toMatchObject({ name: 'slow_hang', isError: true });
    expect(said(events)).toContain('no answer within 300 ms');
    expect(events[events.length - 1]!.type).toBe('TurnFinished');
  });

  it('a pack that is down or never answers gives no tools and a problem; the turn finishes', async () => {
    const stuck = await startRecorder('never');
    closers.push(() => stuck.close());
    await put('PROJECT', '_vance/tools/down.mcp.yaml', `url: ${await closedPortUrl()}\n`, 'broken');
    await put('PROJECT', '_vance/tools/stuck.mcp.yaml', `url: ${stuck.url}\nconnectTimeoutMs: 300\n`, 'broken');
    const id = await spawn('broken', 'plain');
    const events = await turn(id, 'call main_echo {"text": "still here"}');
    const payload = composed(events);
    expect(payload.tools.filter((n: string) => n.startsWith('down_') || n.startsWith('stuck_'))).toEqual([]);
    const problems = payload.toolProblems as { path: string; message: string }[];
    expect(problems.find((p) => p.path === '_vance/tools/down.mcp.yaml')?.message).toContain("MCP pack 'down' is not reachable");
    expect(problems.find((p) => p.path === '_vance/tools/stuck.mcp.yaml')?.message).toContain('no answer within 300 ms');
    expect(said(events)).toContain('echo: still here');
    expect(events[events.length - 1]!.type).toBe('TurnFinished');
  });

  it('refuses a stdio pack without the tenant policy; a project setting cannot allow it', async () => {
    await t.gql(SETTING, { key: 'tools.mcp.allowStdio', value: 'true', project: 'broken' });
    await put('PROJECT', '_vance/tools/local.mcp.yaml', 'command: node\nargs: ["-e", "process.exit(3)"]\n', 'broken');
    const id = await spawn('broken', 'plain');
    const events = await turn(id, 'hello');
    const problem = (composed(events).toolProblems as { path: string; message: string }[]).find((p) => p.path === '_vance/tools/local.mcp.yaml');
    expect(problem?.message).toContain('tools.mcp.allowStdio');
    expect(composed(events).tools.filter((n: string) => n.startsWith('local_'))).toEqual([]);
  });

  it('runs a stdio pack in a process of its own once the tenant allows it', async () => {
    await t.gql(`mutation { createProject(name: "local") { id } }`);
    await put('PROJECT', '_vance/tools/here.mcp.yaml', `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(STDIO_SERVER)}]\nconnectTimeoutMs: 20000\n`, 'local');
    await t.gql(SETTING, { key: 'tools.mcp.allowStdio', value: 'true' });
    try {
      const id = await spawn('local', 'plain');
      const events = await turn(id, 'call here_where {}');
      expect(finished(events)).toEqual([expect.objectContaining({ name: 'here_where', isError: false })]);
      const pid = /pid (\d+)/.exec(said(events))?.[1];
      expect(Number(pid)).toBeGreaterThan(0);
      expect(Number(pid)).not.toBe(process.pid);
      // The policy is checked at each call: turned off, the still-listed tool refuses without a document write.
      await t.gql(SETTING, { key: 'tools.mcp.allowStdio', value: null });
      const refused = await turn(id, 'call here_where {}');
      expect(finished(refused)).toEqual([expect.objectContaining({ name: 'here_where', isError: true })]);
      expect(said(refused)).toContain('tools.mcp.allowStdio');
    } finally {
      await t.gql(SETTING, { key: 'tools.mcp.allowStdio', value: null });
    }
  });

  it('sends a header secret to the pack\'s own origin only', async () => {
    // The pack's server got the tenant's secret (the pack is the tenant's own).
    expect(main.requests.some((h) => h['x-api-key'] === SECRET && h['x-static'] === 'plain')).toBe(true);
    const elsewhere = await startRecorder('ok');
    const bouncer = await startRecorder({ redirectTo: elsewhere.url });
    closers.push(() => elsewhere.close(), () => bouncer.close());
    // A project's pack pointing elsewhere does not get the tenant's secret (bound to the main server's origin).
    await put('PROJECT', '_vance/tools/leak.mcp.yaml', `url: ${elsewhere.url}\nheaders:\n  X-Api-Key: { setting: mcp.main.token }\n`, 'broken');
    // A project secret goes to the project's pack — and not on to where that server redirects.
    await t.gql(SETTING, { key: 'bounce.token', value: `${SECRET}-project`, project: 'broken' });
    await t.gql(SETTING, { key: 'bounce.token.origins', value: new URL(bouncer.url).origin, project: 'broken' });
    // A project binding for the tenant's secret does not count: the binding must be in the secret's layer.
    await t.gql(SETTING, { key: 'mcp.main.token.origins', value: new URL(elsewhere.url).origin, project: 'broken' });
    await put('PROJECT', '_vance/tools/bounce.mcp.yaml', `url: ${bouncer.url}\nheaders:\n  Authorization: { setting: bounce.token, prefix: "Bearer " }\n`, 'broken');
    const id = await spawn('broken', 'plain');
    const events = await turn(id, 'hello');
    const problems = composed(events).toolProblems as { path: string; message: string }[];
    expect(problems.find((p) => p.path === '_vance/tools/leak.mcp.yaml')?.message).toContain('refused by the secret binding rule');
    // …and with the project's own binding in the way, the tenant's pack gets no secret in this project either (fails closed).
    expect(problems.find((p) => p.path === '_vance/tools/main.mcp.yaml')?.message).toContain('refused by the secret binding rule');
    expect(problems.find((p) => p.path === '_vance/tools/bounce.mcp.yaml')?.message).toContain("MCP pack 'bounce' is not reachable");
    expect(bouncer.requests.some((h) => h.authorization === `Bearer ${SECRET}-project`)).toBe(true);
    const leaked = elsewhere.requests.filter((h) => JSON.stringify(h).includes(SECRET));
    expect(leaked).toEqual([]);
  });

  it('reuses one connection across turns; a changed document replaces it; list_changed refreshes the tools', async () => {
    const id = await spawn('ops', 'plain');
    await turn(id, 'call main_echo {"text": "one"}');
    const sessions = main.sessions();
    const second = await turn(id, 'call main_echo {"text": "two"}');
    const third = await turn(id, 'call main_echo {"text": "three"}');
    expect(said(second)).toContain('echo: two');
    expect(said(third)).toContain('echo: three');
    expect(main.sessions()).toBe(sessions);

    main.addTool('late');
    await eventually(async () => composed(await turn(id, 'hello')).tools.includes('main_late'), 200);
    expect(main.sessions()).toBe(sessions);

    await put('VANCE', '_vance/tools/main.mcp.yaml', [
      `url: ${main.url}`, 'labels: [web, search]', 'timeoutMs: 1000', 'exclude: [hang]', 'description: changed',
      'headers:', '  X-Api-Key: { setting: mcp.main.token }', '  X-Static: plain',
    ].join('\n'));
    const after = await turn(id, 'call main_echo {"text": "four"}');
    expect(said(after)).toContain('echo: four');
    expect(main.sessions()).toBe(sessions + 1);
  });

  it('a server that forgot the session (a restart) fails one call as a tool error; the next turn connects anew', async () => {
    const id = await spawn('ops', 'plain');
    expect(said(await turn(id, 'call main_echo {"text": "before"}'))).toContain('echo: before');
    const sessions = main.sessions();
    await main.forgetSessions();
    const broken = await turn(id, 'call main_echo {"text": "during"}');
    expect(finished(broken)).toEqual([expect.objectContaining({ name: 'main_echo', isError: true })]);
    expect(broken[broken.length - 1]!.type).toBe('TurnFinished');
    const healed = await turn(id, 'call main_echo {"text": "after"}');
    expect(said(healed)).toContain('echo: after');
    expect(main.sessions()).toBeGreaterThan(sessions);
  });

  it('another tenant never sees the pack', async () => {
    await t.gql(`mutation { createTenant(name: "beta") { id } }`);
    const bob = (await t.gql(`mutation { createUser(login: "bob", tenant: "beta", role: TENANT_ADMIN) { token } }`)).data!.createUser.token as string;
    await t.gql(`mutation { createProject(name: "home") { id } }`, {}, bob);
    await put('VANCE', '_vance/recipes/plain.yaml', 'description: Worker\nengine: ford\nparams:\n  validation: false\n', undefined, bob);
    const sessions = main.sessions();
    const id = await spawn('home', 'plain', bob);
    const events = await turn(id, 'call main_echo {"text": "sneak"}', bob);
    const payload = composed(events);
    expect(payload.tools.filter((n: string) => n.startsWith('main_') || n.startsWith('lazy_'))).toEqual([]);
    expect(payload.toolProblems).toEqual([]);
    expect(said(events)).not.toContain('echo: sneak');
    expect(main.sessions()).toBe(sessions);
  });

  it('refuses an invalid pack document at write time with located diagnostics and writes nothing', async () => {
    const r = await t.gql(PUT, { layer: 'VANCE', path: '_vance/tools/bad.mcp.yaml', content: 'labels: [ok]\ntimeoutMs: -5\nurl: ftp://example.org/\n' });
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const diagnostics = r.errors![0]!.extensions!.diagnostics as { field?: string; line?: number; path?: string }[];
    expect(diagnostics).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'timeoutMs', line: 2, path: '_vance/tools/bad.mcp.yaml' }),
      expect.objectContaining({ field: 'url', line: 3 }),
    ]));
    const read = await t.gql(`query { document(layer: VANCE, path: "_vance/tools/bad.mcp.yaml") { version } }`);
    expect(read.data?.document ?? null).toBeNull();
  });
});
