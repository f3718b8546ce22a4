import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import type { ServerTool } from '../../api/src/domain/tools/server-tool';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { codeOf, collect, eventually, startTestVance, type TestVance } from './harness';

/**
 * Issue 6 end to end over GraphQL: skill scripts as tools (BRAIN in isolated-vm with the vance.*
 * bindings, FOOT routed to the client), client tools registered by a connected client and resolved
 * by `@label`, completion guards (recipe, runtime, fail-open, round cap), and the abuse cases —
 * each contained with a clear tool error while the server keeps serving.
 *
 * The model is the offline provider (`call <tool> {json}` makes a tool call), plus a judge: a call
 * whose system prompt is the completion-guard recipe's answers `{"fire": true}` when the judged
 * output contains "DONE".
 */
class TestProvider implements ModelProvider {
  private readonly offline = new OfflineProvider();
  judgeCalls = 0;
  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
    if (system.includes('strict, brief judge')) {
      this.judgeCalls++;
      const user = request.messages[request.messages.length - 1]!.content;
      const data = JSON.parse(user.slice(user.indexOf('{'))) as { output: string };
      yield { type: 'text-delta', text: JSON.stringify({ fire: data.output.includes('DONE'), reason: 'test judge' }) };
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    yield* this.offline.stream(request);
  }
}

const TOOLS: ServerTool[] = [
  { name: 'echo_tool', labels: ['read'], description: 'Echo.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, invoke: async (a) => ({ content: `echo: ${String(a.text ?? '')}` }) },
  { name: 'secret_tool', labels: ['read'], description: 'Secret.', parameters: { type: 'object', properties: {} }, invoke: async () => ({ content: 'the secret' }) },
];

const SCRIPTS: Record<string, string> = {
  add: '({ sum: args.a + args.b })',
  ws: "vance.workspace.write('notes/hello.md', 'hi ' + args.name);\n({ read: vance.workspace.read('notes/hello.md'), files: vance.workspace.list('notes/').files.map(f => f.path) })",
  nested: "'nested says ' + vance.tool('echo_tool', { text: 'from script' })",
  self: "vance.tool('skill_calc__self', {})",
  escape: "const F = this.constructor.constructor; const p = F('return typeof process')(); const r = typeof require; [p, r, typeof args.constructor.constructor('return globalThis')().process].join(',')",
  hostproc: "this.constructor.constructor('return process')().env.HOME",
  spin: 'while (true) {}',
  bomb: 'const a = []; while (true) a.push(new Array(1e6).fill(a.length));',
  huge: "'x'.repeat(100 * 1024 * 1024)",
  badpath: "vance.workspace.read('../_vance/recipes/scripted.yaml')",
  notpool: "vance.tool('secret_tool', {})",
  log: "vance.log('info', 'hello from the script'); vance.log('shout', 42); vance.context().skill.name + '@' + vance.context().process.name",
  thrower: "function f() { throw new TypeError('bad input ' + args.x); }\nf()",
  foot: 'args.x * 2',
};

const CALC_SKILL = [
  '---',
  'title: Calc',
  'description: Script tools for tests',
  'version: "1.0.0"',
  'scripts:',
  ...Object.keys(SCRIPTS).map((name) => [
    `  - name: ${name}`,
    `    target: ${name === 'foot' ? 'FOOT' : 'BRAIN'}`,
    `    file: scripts/${name}.js`,
    ...(name === 'add' ? ['    description: Adds two numbers.', '    params:', '      - name: a', '        type: number', '        required: true', '      - name: b', '        type: number', '        required: true'] : []),
  ].join('\n')),
  '---',
  'Calculator.',
].join('\n');

type Started = TestVance & { readonly provider: TestProvider };

/**
 * Load: the limits are generous for everything that is meant to finish — a script's compute limit
 * of 400 ms failed the code-guard judge on a busy machine, and a 1.5 s client-tool deadline raced
 * the test's own answers. The caps under test get work that never ends: `while (true) {}` for the
 * compute limit (1 s), a client that never answers for the client-tool deadline (a process with its
 * own clientToolTimeoutMs, SILENT_MS).
 */
async function start(database: Database): Promise<Started> {
  const provider = new TestProvider();
  const vance = await startTestVance(database, { VANCE_SCRIPT_TIMEOUT_MS: '1000', VANCE_CLIENT_TOOL_TIMEOUT_MS: '60000' }, { modelProvider: provider, extraTools: TOOLS });
  return Object.assign(vance, { provider });
}
const SILENT_MS = 500;

const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!) { putDocument(layer: $layer, project: $project, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name session { id } } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const ACTIVATE = `mutation A($id: ID!, $name: String!) { activateSkill(processId: $id, name: $name) { outcome } }`;
const CLEAR = `mutation C($id: ID!, $name: String) { clearSkills(processId: $id, name: $name) { cleared } }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { tools allowedTools } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;
const CALLS = `subscription C($sessionId: ID!) { clientToolCalls(sessionId: $sessionId) { callId sessionId processId turnId kind tool arguments script { skill name source } deadline } }`;
const REGISTER = `mutation R($sessionId: ID!, $tools: [ClientToolInput!]!) { registerClientTools(sessionId: $sessionId, tools: $tools) { sessionId tools { name labels description parameters } registeredAt } }`;
const SUBMIT = `mutation S($sessionId: ID!, $callId: ID!, $result: JSON, $error: String) { submitClientToolResult(sessionId: $sessionId, callId: $callId, result: $result, error: $error) }`;
const PROCESS = `query P($id: ID!) { process(id: $id) { pending { sender senderName content } guards { kind } recipeGuards guardRounds } }`;

interface Ev { id: string; turnId: string; type: string; payload: any }

/** Sends a message and reads the turn events until `turns` turns have finished or failed. */
async function runTurns(s: Started, id: string, text: string, turns = 1): Promise<Ev[]> {
  // Load: send once the subscription is registered, not after a 100 ms sleep.
  const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id, after: lastEvent.get(id) ?? null }));
  const sent = await s.gql(SEND, { id, text });
  if (sent.errors) throw new Error(JSON.stringify(sent.errors));
  const out: Ev[] = [];
  let ended = 0;
  while (ended < turns) {
    const next = await stream.next(20_000).catch((err: Error) => {
      throw new Error(`${err.message} after ${JSON.stringify(out.map((e) => [e.type, e.type === 'GuardRan' || e.type === 'TurnFinished' || e.type === 'TurnFailed' ? e.payload : undefined]))}`);
    });
    const e = next.data!.turnEvents;
    out.push(e);
    if (e.type === 'TurnFinished' || e.type === 'TurnFailed') ended++;
  }
  lastEvent.set(id, out[out.length - 1]!.id);
  return out;
}
const lastEvent = new Map<string, string>();

/** A client listening for the session's calls, once its subscription is registered (load: no sleep). */
async function clientOf(s: Started, sessionId: string) {
  const client = s.ws();
  const calls = await s.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: any }>(client, CALLS, { sessionId }));
  return { client, calls };
}

/**
 * Disconnects a client and waits until the server has ended its registration: that happens after
 * the socket closed, asynchronously, and must not land on the next test's registration.
 */
async function disconnect(s: Started, client: { dispose(): void | Promise<void> }, sessionId: string): Promise<void> {
  await client.dispose();
  await eventually(async () => (await s.gql(`query Q($id: ID!) { clientTools(sessionId: $id) { sessionId } }`, { id: sessionId })).data!.clientTools === null);
}

const toolResult = (events: Ev[], name: string): { isError: boolean; preview: string } => {
  const finished = events.find((e) => e.type === 'ToolCallFinished' && e.payload.name === name);
  if (!finished) throw new Error(`no ToolCallFinished for ${name} in ${events.map((e) => e.type).join(',')}: ${events.filter((e) => e.type === "TextDelta").map((e) => e.payload.text).join("")} ${JSON.stringify(events.find((e) => e.type === "PromptComposed")?.payload.tools)} ${JSON.stringify(events.find((e) => e.type === "SkillVerdicts")?.payload)}`);
  return finished.payload;
};

describe.each(testDatabases())('the sandbox over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: Started;
  let calc: string;
  let calcSession: string;

  beforeAll(async () => {
    db = await driver.open();
    s = await start(db);
    await s.gql(`mutation { createProject(name: "lab") { id } }`);
    const docs: Record<string, string> = {
      '_vance/recipes/scripted.yaml': 'description: Scripted worker\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\nallowedToolsRemove: [secret_tool, "@files"]\nallowedToolsAdd: ["@browser"]\n',
      '_vance/recipes/guarded.yaml': [
        'description: Guarded worker', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - script: _vance/guards/llm-judge.js', '    params:', '      judge: "Is the work done?"', '      prompt: "Double-check it, DONE?"', '    trigger: stop', '    maxRounds: 2',
      ].join('\n'),
      '_vance/recipes/failing-guard.yaml': [
        'description: A guard that throws and one that is missing', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |', "      vance.log('warn', 'about to fail');", "      throw new Error('guard boom');",
        '  - script: _vance/guards/nowhere.js',
        '  - scriptBody: "while (true) {}"',
      ].join('\n'),
      '_vance/recipes/start-guard.yaml': [
        'description: A start guard adds to the turn', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |', "      if (vance.guard.point === 'start') vance.guard.continueWith('Guard note: ' + vance.params.note + ' / ' + vance.guard.task);", '    params:', '      note: be careful', '    trigger: start',
      ].join('\n'),
      '_vance/recipes/term-worker.yaml': [
        'description: A worker whose terminate guard asks for one more pass', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |', "      vance.guard.continueWith('One more pass on: ' + vance.guard.task);", '    trigger: terminate', '    maxRounds: 1',
      ].join('\n'),
      '_vance/recipes/command-guarded.yaml': [
        'description: A command guard', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |',
        "      const c = vance.guard.command;",
        "      if (c.args.startsWith('script')) vance.guard.deny('no guard scripts: ' + [c.verb, c.args, c.skill, c.phase, vance.guard.continueWith('no')].join('|'));",
        '    trigger: command',
      ].join('\n'),
      '_vance/recipes/round-cap.yaml': [
        'description: Guards that report their cap', 'engine: ford', 'params:', '  validation: false',
        'guard:',
        '  - scriptBody: |', "      vance.log('info', ['never', vance.guard.maxRounds, vance.guard.naturalStop, vance.guard.continueWith('again')].join(' '));", '    maxRounds: 0',
        '  - scriptBody: |', "      vance.log('info', ['default', vance.guard.round, vance.guard.maxRounds, vance.guard.naturalStop].join(' '));",
      ].join('\n'),
      '_vance/recipes/two-guards.yaml': [
        'description: Two stop guards', 'engine: ford', 'params:', '  validation: false',
        'guard:',
        '  - scriptBody: |', "      if (vance.guard.round === 0) vance.log('info', 'first ' + vance.guard.fired + ' ' + vance.guard.continueWith('check again'));", '    maxRounds: 1',
        '  - scriptBody: |', "      if (!vance.guard.output.includes('check again')) vance.log('info', 'second ' + vance.guard.fired + ' ' + vance.guard.continueWith('mine too'));", '    maxRounds: 1',
      ].join('\n'),
      '_vance/recipes/start-activates.yaml': [
        'description: A start guard activates a skill for the turn', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |', "      vance.log('info', 'calc ' + vance.guard.activateSkill('calc') + ', nowhere ' + vance.guard.activateSkill('nowhere-skill'));", '    trigger: start',
      ].join('\n'),
      '_vance/recipes/command-broken.yaml': [
        'description: A command guard that cannot run', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - script: _vance/guards/nowhere.js', '    trigger: command',
      ].join('\n'),
      '_vance/skills/installer/SKILL.md': '---\ntitle: installer\ndescription: Installs a runtime guard\nversion: "1.0.0"\nactivate:\n  - guard script _vance/guards/llm-judge.js\n---\nInstaller.\n',
      '_vance/skills/delegate/SKILL.md': '---\ntitle: delegate\ndescription: Delegate to a worker\nversion: "1.0.0"\narguments: true\nrun:\n  target: spawn\n  recipe: term-worker\naction: "Work on {{ args.text }}"\n---\nDelegated.\n',
      '_vance/skills/tidy/SKILL.md': '---\ntitle: tidy\ndescription: Clears runtime guards\nversion: "1.0.0"\nactivate:\n  - guard clear\n---\nTidy.\n',
      '_vance/recipes/tool-guard.yaml': [
        'description: Guards with and without tools', 'engine: ford', 'params:', '  validation: false',
        'guard:',
        '  - scriptBody: |', "      vance.log('info', 'with tools: ' + vance.tool('echo_tool', { text: 'from a guard' }));", '    allowTools: true',
        '  - scriptBody: |', "      vance.log('info', typeof vance.tool + ' ' + typeof vance.workspace);", "      vance.tool('echo_tool', {});",
      ].join('\n'),
      '_vance/skills/calc/SKILL.md': CALC_SKILL,
      ...Object.fromEntries(Object.entries(SCRIPTS).map(([name, body]) => [`_vance/skills/calc/scripts/${name}.js`, body])),
    };
    for (const [path, content] of Object.entries(docs)) {
      const r = await s.gql(PUT, { layer: 'VANCE', path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
    const spawned = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scripted', name: 'calc', session: 'desk' } })).data!.spawnProcess;
    calc = spawned.id;
    calcSession = spawned.session.id;
  });

  afterAll(async () => {
    await s?.close();
    await db?.close();
  });

  it('a script is a tool with the §13.7 schema only while its skill is active', async () => {
    expect((await s.gql(PREVIEW, { id: calc })).data!.composeTurnPreview.tools).not.toContain('skill_calc__add');
    expect((await s.gql(ACTIVATE, { id: calc, name: 'calc' })).errors).toBeUndefined();
    const tools: string[] = (await s.gql(PREVIEW, { id: calc })).data!.composeTurnPreview.tools;
    expect(tools).toEqual(expect.arrayContaining(['skill_calc__add', 'skill_calc__ws', 'skill_calc__foot']));
    const events = await runTurns(s, calc, 'call skill_calc__add {"a": 2, "b": 3}');
    expect(toolResult(events, 'skill_calc__add')).toMatchObject({ isError: false, preview: '{"sum":5}' });
    const bad = await runTurns(s, calc, 'call skill_calc__add {"a": "two"}');
    expect(toolResult(bad, 'skill_calc__add')).toMatchObject({ isError: true });
    expect(toolResult(bad, 'skill_calc__add').preview).toMatch(/'a' must be a number.*missing required argument 'b'|missing required argument 'b'/s);
    expect((await s.gql(CLEAR, { id: calc, name: 'calc' })).data!.clearSkills.cleared).toEqual(['calc']);
    expect((await s.gql(PREVIEW, { id: calc })).data!.composeTurnPreview.tools).not.toContain('skill_calc__add');
    const gone = await runTurns(s, calc, 'call skill_calc__add {"a": 1, "b": 1}');
    expect(gone.find((e) => e.type === 'PromptComposed')!.payload.tools).not.toContain('skill_calc__add');
    expect(gone.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('')).toContain('tool skill_calc__add is not offered');
    await s.gql(ACTIVATE, { id: calc, name: 'calc' });
  });

  it('BRAIN bindings: workspace read/write/list in the project, vance.tool through the pool, context and log', async () => {
    const ws = await runTurns(s, calc, 'call skill_calc__ws {"name": "Ada"}');
    expect(JSON.parse(toolResult(ws, 'skill_calc__ws').preview)).toEqual({ read: 'hi Ada', files: ['notes/hello.md'] });
    const doc = await s.gql(`query { document(layer: PROJECT, project: "lab", path: "workspace/notes/hello.md") { content } }`);
    expect(doc.data!.document.content).toBe('hi Ada');

    const nested = await runTurns(s, calc, 'call skill_calc__nested {}');
    expect(toolResult(nested, 'skill_calc__nested')).toMatchObject({ isError: false, preview: 'nested says echo: from script' });

    const logged = await runTurns(s, calc, 'call skill_calc__log {}');
    expect(toolResult(logged, 'skill_calc__log')).toMatchObject({ isError: false, preview: 'calc@calc' });
    const lines = logged.filter((e) => e.type === 'ScriptLog').map((e) => e.payload);
    expect(lines).toEqual([
      { source: 'skill_calc__log', level: 'info', message: 'hello from the script' },
      { source: 'skill_calc__log', level: 'info', message: '42' },
    ]);
  });

  it('abuse is contained with a clear tool error and the server keeps serving', async () => {
    const cases: Array<[string, RegExp]> = [
      ['self', /nested tool calls are limited to depth 3/],
      ['notpool', /Tool 'secret_tool' is not allowed in this turn/],
      ['badpath', /'\.\.' is not allowed/],
      ['hostproc', /failed \(GUEST, line 1\): ReferenceError: process is not defined/],
      ['spin', /failed \(TIMEOUT/],
      // Load: a heap bomb's GC work near the limit counts as compute (measured 0.1-0.5 s beside six
      // CPU hogs), so it may meet the 1 s compute limit first; both refusals contain it. The sandbox's
      // own test pins MEMORY with a generous limit; 'huge' (one allocation) stays MEMORY here.
      ['bomb', /failed \((MEMORY|TIMEOUT)/],
      ['huge', /failed \(MEMORY/],
      ['thrower', /failed \(GUEST, line 1\).*TypeError: bad input 7/],
    ];
    for (const [script, expected] of cases) {
      const events = await runTurns(s, calc, `call skill_calc__${script} {"x": 7}`);
      const result = toolResult(events, `skill_calc__${script}`);
      expect(result.isError, script).toBe(true);
      expect(result.preview, script).toMatch(expected);
      expect(events[events.length - 1]!.type, script).toBe('TurnFinished');
    }
    // Nothing of the host was reachable: the guest's own Function sees no process and no require.
    const escape = await runTurns(s, calc, 'call skill_calc__escape {}');
    expect(toolResult(escape, 'skill_calc__escape')).toMatchObject({ isError: false, preview: 'undefined,undefined,undefined' });
    // And the sandbox still works after timeouts and memory bombs.
    const after = await runTurns(s, calc, 'call skill_calc__add {"a": 20, "b": 22}');
    expect(toolResult(after, 'skill_calc__add')).toMatchObject({ isError: false, preview: '{"sum":42}' });
    expect((await s.gql('{ me { login } }')).data!.me.login).toBe('admin');
  });

  it('client tools: registration, @label resolution per turn, a call answered over GraphQL', async () => {
    const { client, calls } = await clientOf(s, calcSession);
    const registered = await s.gql(REGISTER, {
      sessionId: calcSession,
      tools: [
        { name: 'browser_open', description: 'Open a page', labels: ['@Browser'], parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
        { name: 'local_notes', labels: ['files'] },
      ],
    });
    expect(registered.errors).toBeUndefined();
    expect(registered.data!.registerClientTools.tools.map((t: any) => [t.name, t.labels])).toEqual([['browser_open', ['browser']], ['local_notes', ['files']]]);
    const preview = (await s.gql(PREVIEW, { id: calc })).data!.composeTurnPreview;
    // The recipe's `@browser` (add) and `@files` (remove) resolve against the client's labels.
    expect(preview.tools).toContain('browser_open');
    expect(preview.allowedTools).not.toContain('local_notes');

    const turn = runTurns(s, calc, 'call browser_open {"url": "https://example.org"}');
    const call = (await calls.next()).data!.clientToolCalls;
    expect(call).toMatchObject({ sessionId: calcSession, processId: calc, kind: 'TOOL', tool: 'browser_open', arguments: { url: 'https://example.org' }, script: null });
    const answered = await s.gql(SUBMIT, { sessionId: calcSession, callId: call.callId, result: { title: 'Example Domain' } });
    expect(answered.data!.submitClientToolResult).toBe(true);
    const events = await turn;
    expect(toolResult(events, 'browser_open')).toMatchObject({ isError: false, preview: '{"title":"Example Domain"}' });
    // A second answer to the same call is refused.
    expect(codeOf(await s.gql(SUBMIT, { sessionId: calcSession, callId: call.callId, result: 1 }))).toBe('CONFLICT');

    // A FOOT script goes to the client the same way, with its source.
    const foot = runTurns(s, calc, 'call skill_calc__foot {"x": 21}');
    const script = (await calls.next()).data!.clientToolCalls;
    expect(script).toMatchObject({ kind: 'SCRIPT', tool: 'skill_calc__foot', arguments: { x: 21 }, script: { skill: 'calc', name: 'foot', source: 'args.x * 2' } });
    await s.gql(SUBMIT, { sessionId: calcSession, callId: script.callId, result: 42 });
    expect(toolResult(await foot, 'skill_calc__foot')).toMatchObject({ isError: false, preview: '42' });

    // An error answer reaches the model as a tool error.
    const failing = runTurns(s, calc, 'call browser_open {"url": "x"}');
    const third = (await calls.next()).data!.clientToolCalls;
    await s.gql(SUBMIT, { sessionId: calcSession, callId: third.callId, error: 'no browser here' });
    expect(toolResult(await failing, 'browser_open')).toMatchObject({ isError: true, preview: "Client tool 'browser_open' failed: no browser here" });

    // No answer in time: a clear tool error, the turn goes on. Load-proof: nobody ever answers, so
    // only the deadline (this process's own, short clientToolTimeoutMs) can end the wait.
    const quiet = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scripted', name: 'quiet', session: 'desk', params: { clientToolTimeoutMs: SILENT_MS } } })).data!.spawnProcess;
    expect(quiet.session.id).toBe(calcSession);
    const silent = await runTurns(s, quiet.id, 'call browser_open {"url": "slow"}');
    expect(toolResult(silent, 'browser_open').preview).toMatch(new RegExp(`did not answer 'browser_open' within ${SILENT_MS} ms`));
    expect(silent[silent.length - 1]!.type).toBe('TurnFinished');
    await calls.next(); // the unanswered call was delivered
    await disconnect(s, client, calcSession);
  });

  it('a FOOT result from a session that does not own the call is refused', async () => {
    const other = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scripted', name: 'other', session: 'second' } })).data!.spawnProcess;
    const { client, calls } = await clientOf(s, calcSession);
    await s.gql(REGISTER, { sessionId: calcSession, tools: [{ name: 'browser_open', labels: ['browser'] }] });
    const turn = runTurns(s, calc, 'call browser_open {"url": "owned"}');
    const call = (await calls.next()).data!.clientToolCalls;
    // Same user, another session: FORBIDDEN with a code that says why.
    const wrongSession = await s.gql(SUBMIT, { sessionId: other.session.id, callId: call.callId, result: 'hijacked' });
    expect(codeOf(wrongSession)).toBe('FORBIDDEN');
    expect(wrongSession.errors![0]!.extensions!.domainCode).toBe('CLIENT_TOOL_CALL_NOT_OWNED');
    expect(wrongSession.errors![0]!.message).toMatch(/sent to another session/);
    // Another user: the call does not exist for them.
    const created = await s.gql(`mutation { createUser(login: "mallory") { token } }`);
    const token = created.data!.createUser.token as string;
    expect(codeOf(await s.gql(SUBMIT, { sessionId: calcSession, callId: call.callId, result: 'hijacked' }, token))).toBe('NOT_FOUND');
    const theirs = collect<{ clientToolCalls: any }>(s.ws(token), CALLS, { sessionId: calcSession });
    await theirs.done;
    expect(JSON.stringify(theirs.error ?? theirs.events)).toContain('NOT_FOUND');
    // The owner's answer still lands.
    await s.gql(SUBMIT, { sessionId: calcSession, callId: call.callId, result: 'mine' });
    expect(toolResult(await turn, 'browser_open')).toMatchObject({ isError: false, preview: 'mine' });
    // With the client gone the registration ends (load: waited for, not assumed after 200 ms): a
    // call fails at once with a clear message.
    await disconnect(s, client, calcSession);
    const gone = await runTurns(s, calc, 'call skill_calc__foot {"x": 1}');
    expect(toolResult(gone, 'skill_calc__foot').preview).toMatch(/No client is connected to this session/);
  });

  it('a client that reconnects gets the calls still waiting for an answer', async () => {
    const { client: first, calls } = await clientOf(s, calcSession);
    await s.gql(REGISTER, { sessionId: calcSession, tools: [{ name: 'browser_open', labels: ['browser'] }] });
    const turn = runTurns(s, calc, 'call browser_open {"url": "reconnect"}');
    const call = (await calls.next()).data!.clientToolCalls;
    // The client reconnects before answering: the new subscription gets the pending call at once.
    const { client: second, calls: again } = await clientOf(s, calcSession);
    expect((await again.next()).data!.clientToolCalls).toMatchObject({ callId: call.callId, tool: 'browser_open' });
    // Load: wait until the server has ended the first subscription (its bus subscription is gone;
    // the presence count drops in the same step), instead of 150 ms that a busy machine can outlast.
    const both = s.bus.count(CLIENT_TOOL_CALLS_TOPIC);
    await first.dispose();
    await s.bus.until(CLIENT_TOOL_CALLS_TOPIC, (n) => n === both - 1);
    // The second connection keeps the registration alive, and its answer lands.
    expect((await s.gql(`query Q($id: ID!) { clientTools(sessionId: $id) { tools { name } } }`, { id: calcSession })).data!.clientTools.tools).toEqual([{ name: 'browser_open' }]);
    await s.gql(SUBMIT, { sessionId: calcSession, callId: call.callId, result: 'after reconnect' });
    expect(toolResult(await turn, 'browser_open')).toMatchObject({ isError: false, preview: 'after reconnect' });
    await disconnect(s, second, calcSession);
  });

  it('registration refuses bad tools with the field that is wrong, and changes nothing', async () => {
    const bad = await s.gql(REGISTER, { sessionId: calcSession, tools: [{ name: 'ok_tool' }, { name: 'skill_x__y' }] });
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
    expect(bad.errors![0]!.extensions!.diagnostics[0]).toMatchObject({ field: 'tools[1].name' });
    const schema = await s.gql(REGISTER, { sessionId: calcSession, tools: [{ name: 'x', parameters: { type: 'string' } }] });
    expect(schema.errors![0]!.extensions!.diagnostics[0]).toMatchObject({ field: 'tools[0].parameters' });
    expect(codeOf(await s.gql(REGISTER, { sessionId: '00000000-0000-4000-8000-000000000000', tools: [] }))).toBe('NOT_FOUND');
  });

  it('a recipe guard (llm-judge.js) continues the engine up to maxRounds per user turn, then delivers', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'guarded', name: 'guarded' } })).data!.spawnProcess.id;
    const recipeGuards = (await s.gql(PROCESS, { id })).data!.process.recipeGuards;
    expect(recipeGuards).toEqual([{ script: { kind: 'PATH', path: '_vance/guards/llm-judge.js' }, params: { judge: 'Is the work done?', prompt: 'Double-check it, DONE?' }, trigger: 'stop', maxRounds: 2, allowTools: false }]);
    const judged = s.provider.judgeCalls;
    // Turn 1 replies "You said: finish it DONE" → the judge fires → follow-up (round 1) → turn 2 echoes the
    // follow-up which contains DONE → fires again (round 2) → turn 3 → the guard still runs at the cap (the judge
    // fires again), but its continueWith queues nothing: delivered.
    const events = await runTurns(s, id, 'finish it DONE', 3);
    const ran = events.filter((e) => e.type === 'GuardRan').map((e) => e.payload);
    expect(ran.map((r) => [r.continued ?? false, r.capped ?? null])).toEqual([[true, null], [true, null], [false, expect.stringMatching(/Round cap reached \(2 of 2/)]]);
    expect(s.provider.judgeCalls - judged).toBe(3);
    expect(events.filter((e) => e.type === 'TurnFinished').map((e) => e.payload.guardFollowUps)).toEqual([1, 1, 0]);
    const inputs = events.filter((e) => e.type === 'TurnStarted').map((e) => e.payload.input[0]);
    expect(inputs.map((i) => i.sender)).toEqual(['USER', 'GUARD', 'GUARD']);
    expect(inputs[1].preview).toBe('[_vance/guards/llm-judge.js] Double-check it, DONE?');
    expect((await s.gql(PROCESS, { id })).data!.process.guardRounds).toEqual({ 'recipe:0': 2 });
    // A new user message resets the rounds: the judge runs again (and does not fire this time).
    const next = await runTurns(s, id, 'something else');
    expect(next.filter((e) => e.type === 'GuardRan').map((e) => e.payload.continued)).toEqual([false]);
    expect(s.provider.judgeCalls - judged).toBe(4);
    expect((await s.gql(PROCESS, { id })).data!.process.guardRounds).toEqual({});
  });

  it('guards fail open: a throwing, a missing and a looping guard are reported and the turn delivers', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'failing-guard', name: 'failing' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'hello');
    const ran = events.filter((e) => e.type === 'GuardRan').map((e) => e.payload);
    expect(ran.map((r) => [r.failed?.kind, r.failOpen])).toEqual([['GUEST', true], ['MISSING', true], ['TIMEOUT', true]]);
    expect(ran[0].failed.message).toMatch(/guard boom/);
    expect(events.find((e) => e.type === 'ScriptLog')!.payload).toMatchObject({ level: 'warn', message: 'about to fail' });
    expect(events[events.length - 1]).toMatchObject({ type: 'TurnFinished', payload: { guardFollowUps: 0 } });
    expect(events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('')).toContain('You said: hello');
    expect((await s.gql(PROCESS, { id })).data!.process.pending).toEqual([]);
  });

  it('allowTools: true gives a guard the process tools; the supervisor surface has none', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'tool-guard', name: 'tooling' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'hi');
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['with tools: echo: from a guard', 'undefined undefined']);
    const ran = events.filter((e) => e.type === 'GuardRan').map((e) => e.payload);
    expect(ran[0]).toMatchObject({ continued: false });
    expect(ran[1]).toMatchObject({ failed: { kind: 'GUEST' }, failOpen: true });
    expect(ran[1].failed.message).toMatch(/vance\.tool is not a function/);
  });

  it('a start guard adds its prompt to the turn it starts', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'start-guard', name: 'starter' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'go');
    expect(events.find((e) => e.type === 'GuardRan')!.payload).toMatchObject({ point: 'start', continued: true });
    const messages = (await s.gql(`query M($id: ID!) { messages(processId: $id) { role senderName content } }`, { id })).data!.messages;
    expect(messages.slice(0, 2)).toEqual([
      { role: 'user', senderName: 'admin', content: 'go' },
      { role: 'user', senderName: '_guard', content: 'Guard note: be careful / go' },
    ]);
  });

  it('a runtime guard installed by a skill\'s activate: (the bundled code-guard) judges with completion-guard', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scripted', name: 'coder' } })).data!.spawnProcess.id;
    expect((await s.gql(ACTIVATE, { id, name: 'code-guard' })).data!.activateSkill.outcome).toBe('FIRED');
    expect((await s.gql(PROCESS, { id })).data!.process.guards).toEqual([{ kind: 'INLINE' }]);
    const judged = s.provider.judgeCalls;
    const events = await runTurns(s, id, 'implemented the parser, DONE', 2);
    expect(s.provider.judgeCalls - judged).toBeGreaterThanOrEqual(1);
    const inputs = events.filter((e) => e.type === 'TurnStarted').map((e) => e.payload.input[0]);
    expect(inputs[1]).toMatchObject({ sender: 'GUARD' });
    expect(inputs[1].preview).toMatch(/did you run the build and the tests/);
  });

  it('a terminate guard keeps a worker going before it reports to its parent', async () => {
    const parent = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scripted', name: 'boss' } })).data!.spawnProcess.id;
    const activated = await s.gql(`mutation A($id: ID!) { activateSkill(processId: $id, name: "delegate", args: "the report") { outcome child { id } } }`, { id: parent });
    expect(activated.data!.activateSkill.outcome).toBe('SPAWNED');
    const child = activated.data!.activateSkill.child.id as string;
    // The child's first turn ends → the terminate guard continues it once → its second turn reports.
    const stream = collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id: child });
    const events: Ev[] = [];
    while (events.filter((e) => e.type === 'TurnFinished').length < 2) events.push((await stream.next(20_000)).data!.turnEvents);
    const guardRan = events.filter((e) => e.type === 'GuardRan').map((e) => e.payload);
    expect(guardRan.map((g) => [g.point, g.continued ?? false, g.capped ?? null])).toEqual([
      ['terminate', true, null], ['terminate', false, expect.stringMatching(/Round cap reached/)],
    ]);
    const inputs = events.filter((e) => e.type === 'TurnStarted').map((e) => e.payload.input[0]);
    expect(inputs[1]).toMatchObject({ sender: 'GUARD', preview: '[inline guard #1 of the recipe] One more pass on: Work on the report' });
    // Only the final pass reaches the parent's inbox. Load: wait for the final report to arrive
    // (not 500 ms); a report of the first pass would have been sent before the second pass began,
    // so it would be there by then.
    const reportsOf = async () => ((await s.gql(`query M($id: ID!) { messages(processId: $id) { senderName content } }`, { id: parent })).data!.messages as any[])
      .filter((m) => m.content.startsWith('Result of'));
    await eventually(async () => (await reportsOf()).some((m) => m.content.includes('One more pass on')));
    const reports = await reportsOf();
    expect(reports).toHaveLength(1);
    expect(reports[0].content).toContain('One more pass on: Work on the report');
  });

  it('maxRounds: one default (3) reported when unset, 0 never continues; the guard runs at the cap and reads maxRounds and naturalStop', async () => {
    const guards = (await s.gql(`{ recipe(name: "round-cap", project: "lab") { guards } }`)).data!.recipe.guards;
    expect(guards.map((g: any) => g.maxRounds)).toEqual([0, 3]);
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'round-cap', name: 'capped' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'hello');
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['never 0 true false', 'default 0 3 true']);
    expect(events.filter((e) => e.type === 'GuardRan')[0]!.payload).toMatchObject({ continued: false, capped: expect.stringMatching(/Round cap reached \(0 of 0/) });
    expect(events[events.length - 1]).toMatchObject({ type: 'TurnFinished', payload: { guardFollowUps: 0 } });
    // naturalstop is not a trigger: refused at save with a diagnostic naming the entry.
    const bad = await s.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/natural.yaml', content: 'description: x\nengine: ford\nguard:\n  - scriptBody: "1"\n  - scriptBody: "2"\n    trigger: natural_stop\n' });
    const diagnostic = bad.errors![0]!.extensions!.diagnostics.find((d: any) => d.field === 'guard[1].trigger');
    expect(diagnostic.message).toMatch(/guard\[1\]\.trigger: 'natural_stop' is not a trigger.*trigger: stop/);
  });

  it('several guards at one point: the first continueWith wins, the others see it fired; the follow-up names its guard', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'two-guards', name: 'pair' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'hello', 2);
    const logs = events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message);
    expect(logs).toEqual(['first null true', 'second inline guard #1 of the recipe false']);
    expect(events.filter((e) => e.type === 'TurnFinished').map((e) => e.payload.guardFollowUps)).toEqual([1, 0]);
    const inputs = events.filter((e) => e.type === 'TurnStarted').map((e) => e.payload.input);
    expect(inputs[1]).toEqual([{ sender: 'GUARD', senderName: '_guard', preview: '[inline guard #1 of the recipe] check again' }]);
  });

  it('a start guard activates a skill for the turn it starts (one-shot: cleared after it)', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'start-activates', name: 'starts-calc' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'call skill_calc__add {"a": 2, "b": 3}');
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['calc true, nowhere false']);
    expect(events.find((e) => e.type === 'SkillVerdicts')!.payload.skills, JSON.stringify(events.map((e) => [e.type, e.type === 'SkillVerdicts' || e.type === 'GuardRan' ? e.payload : null]))).toEqual([expect.objectContaining({ skill: 'calc', oneShot: true, composed: true })]);
    expect(toolResult(events, 'skill_calc__add')).toMatchObject({ isError: false });
    expect((await s.gql(`query P($id: ID!) { process(id: $id) { activeSkills { name } } }`, { id })).data!.process.activeSkills).toEqual([]);
  });

  it('a command guard sees each command before it runs and can refuse it; one that cannot run refuses (fail-closed)', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'command-guarded', name: 'commanded' } })).data!.spawnProcess.id;
    // The stored events (afterEventId 0: all of them), read until the activation's refusal.
    const storedEvents = async (process: string): Promise<any[]> => {
      const stream = collect<{ processEvents: any }>(s.ws(), `subscription P($id: ID!) { processEvents(processId: $id, afterEventId: "0") {
        type ... on GuardRanEvent { guard point continued failed judged: command denied } ... on CommandRanEvent { command } ... on SkillRefusedEvent { skill code } } }`, { id: process });
      const seen: any[] = [];
      while (!seen.some((e) => e.type === 'SKILL_REFUSED')) seen.push((await stream.next(20_000)).data!.processEvents);
      return seen;
    };
    // Allowed: `guard clear` runs, and the guard saw verb, args, skill and phase (continueWith is false here).
    expect((await s.gql(ACTIVATE, { id, name: 'tidy' })).errors).toBeUndefined();
    // Refused: the guard denies `guard script …`; the activation fails and nothing is installed.
    const refused = await s.gql(ACTIVATE, { id, name: 'installer' });
    expect(refused.errors?.[0]?.extensions?.domainCode).toBe('ACTIVATION_COMMAND_FAILED');
    expect(refused.errors![0]!.message).toContain('no guard scripts: guard|script _vance/guards/llm-judge.js|installer|activate|false');
    const process = (await s.gql(PROCESS, { id })).data!.process;
    expect(process.guards).toEqual([]);
    expect(process.pending).toEqual([]);
    const events = await storedEvents(id);
    const guardRan = events.filter((e) => e.type === 'GUARD_RAN');
    expect(guardRan).toEqual([
      { type: 'GUARD_RAN', guard: 'inline guard #1 of the recipe', point: 'command', continued: false, failed: null, judged: 'guard clear', denied: null },
      { type: 'GUARD_RAN', guard: 'inline guard #1 of the recipe', point: 'command', continued: false, failed: null, judged: 'guard script _vance/guards/llm-judge.js', denied: 'no guard scripts: guard|script _vance/guards/llm-judge.js|installer|activate|false' },
    ]);
    expect(events.filter((e) => e.type === 'COMMAND_RAN').map((e) => e.command)).toEqual(['guard clear']);
    expect(events.find((e) => e.type === 'SKILL_REFUSED')).toMatchObject({ skill: 'installer', code: 'ACTIVATION_COMMAND_FAILED' });

    // Fail-closed: a command guard whose script is missing refuses every command.
    const broken = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'command-broken', name: 'broken-commands' } })).data!.spawnProcess.id;
    const closed = await s.gql(ACTIVATE, { id: broken, name: 'tidy' });
    expect(closed.errors?.[0]?.extensions?.domainCode).toBe('ACTIVATION_COMMAND_FAILED');
    expect(closed.errors![0]!.message).toMatch(/could not run, so the command is refused: MISSING/);
    const brokenRan = (await storedEvents(broken)).filter((e) => e.type === 'GUARD_RAN');
    expect(brokenRan).toEqual([{ type: 'GUARD_RAN', guard: '_vance/guards/nowhere.js', point: 'command', continued: false, failed: { kind: 'MISSING', message: expect.any(String) }, judged: 'guard clear', denied: null }]);
  });
});
