import type { Database } from '../../api/src/persistence';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import type { ServerTool } from '../../api/src/domain/tools/server-tool';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { collect, eventually, startTestVance, type TestVance } from './harness';

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
export class TestProvider implements ModelProvider {
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

export const TOOLS: ServerTool[] = [
  { name: 'echo_tool', labels: ['read'], description: 'Echo.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, invoke: async (a) => ({ content: `echo: ${String(a.text ?? '')}` }) },
  { name: 'secret_tool', labels: ['read'], description: 'Secret.', parameters: { type: 'object', properties: {} }, invoke: async () => ({ content: 'the secret' }) },
];

export const SCRIPTS: Record<string, string> = {
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

export const CALC_SKILL = [
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

export type Started = TestVance & { readonly provider: TestProvider };

/**
 * Load: the limits are generous for everything that is meant to finish — a script's compute limit
 * of 400 ms failed the code-guard judge on a busy machine, and a 1.5 s client-tool deadline raced
 * the test's own answers. The caps under test get work that never ends: `while (true) {}` for the
 * compute limit (1 s), a client that never answers for the client-tool deadline (a process with its
 * own clientToolTimeoutMs, SILENT_MS).
 */
export async function start(database: Database): Promise<Started> {
  const provider = new TestProvider();
  const vance = await startTestVance(database, { VANCE_SCRIPT_TIMEOUT_MS: '1000', VANCE_CLIENT_TOOL_TIMEOUT_MS: '60000' }, { modelProvider: provider, extraTools: TOOLS });
  return Object.assign(vance, { provider });
}
export const SILENT_MS = 500;

export const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!) { putDocument(layer: $layer, project: $project, path: $path, content: $content) { version } }`;
export const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name session { id } } }`;
export const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
export const ACTIVATE = `mutation A($id: ID!, $name: String!) { activateSkill(processId: $id, name: $name) { outcome } }`;
export const CLEAR = `mutation C($id: ID!, $name: String) { clearSkills(processId: $id, name: $name) { cleared } }`;
export const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { tools allowedTools } }`;
export const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;
export const CALLS = `subscription C($sessionId: ID!) { clientToolCalls(sessionId: $sessionId) { callId sessionId processId turnId kind tool arguments script { skill name source } deadline } }`;
export const REGISTER = `mutation R($sessionId: ID!, $tools: [ClientToolInput!]!) { registerClientTools(sessionId: $sessionId, tools: $tools) { sessionId tools { name labels description parameters } registeredAt } }`;
export const SUBMIT = `mutation S($sessionId: ID!, $callId: ID!, $result: JSON, $error: String) { submitClientToolResult(sessionId: $sessionId, callId: $callId, result: $result, error: $error) }`;
export const PROCESS = `query P($id: ID!) { process(id: $id) { pending { sender senderName content } guards { kind } recipeGuards guardRounds guardScratch } }`;

export interface Ev { id: string; turnId: string; type: string; payload: any }

/** Sends a message and reads the turn events until `turns` turns have finished or failed. */
export async function runTurns(s: Started, id: string, text: string, turns = 1): Promise<Ev[]> {
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
export const lastEvent = new Map<string, string>();

/** A client listening for the session's calls, once its subscription is registered (load: no sleep). */
export async function clientOf(s: Started, sessionId: string) {
  const client = s.ws();
  const calls = await s.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: any }>(client, CALLS, { sessionId }));
  return { client, calls };
}

/**
 * Disconnects a client and waits until the server has ended its registration: that happens after
 * the socket closed, asynchronously, and must not land on the next test's registration.
 */
export async function disconnect(s: Started, client: { dispose(): void | Promise<void> }, sessionId: string): Promise<void> {
  await client.dispose();
  await eventually(async () => (await s.gql(`query Q($id: ID!) { clientTools(sessionId: $id) { sessionId } }`, { id: sessionId })).data!.clientTools === null);
}

export const toolResult = (events: Ev[], name: string): { isError: boolean; preview: string } => {
  const finished = events.find((e) => e.type === 'ToolCallFinished' && e.payload.name === name);
  if (!finished) throw new Error(`no ToolCallFinished for ${name} in ${events.map((e) => e.type).join(',')}: ${events.filter((e) => e.type === "TextDelta").map((e) => e.payload.text).join("")} ${JSON.stringify(events.find((e) => e.type === "PromptComposed")?.payload.tools)} ${JSON.stringify(events.find((e) => e.type === "SkillVerdicts")?.payload)}`);
  return finished.payload;
};

/** One Vance with the sandbox documents stored and the `calc` process spawned (shared by sandbox.test.ts and guards.test.ts). */
export async function openSandbox(db: Database): Promise<{ s: Started; calc: string; calcSession: string }> {
  const s = await start(db);
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
        '  - scriptBody: |', "      vance.log('info', 'stop-only ' + vance.guard.point);", '    trigger: stop',
        '  - scriptBody: |', "      vance.log('info', 'both ' + vance.guard.point);", '    trigger: both',
      ].join('\n'),
      '_vance/recipes/scratchy.yaml': [
        'description: A guard that keeps notes', 'engine: ford', 'params:', '  validation: false',
        'guard:',
        '  - scriptBody: |',
        "      const n = (vance.guard.loop.get('n') || 0) + 1;",
        "      vance.guard.loop.set('n', n);",
        "      const total = (vance.guard.session.get('total') || 0) + 1;",
        "      vance.guard.session.set('total', total);",
        "      vance.log('info', 'loop ' + n + ' session ' + total + ' keys ' + vance.guard.loop.keys().join(','));",
        "      if (n < 2) vance.guard.continueWith('again');",
        '    maxRounds: 2',
        '  - scriptBody: |',
        "      try { vance.guard.session.set('big', 'x'.repeat(20000)); } catch (e) { vance.log('info', 'refused ' + /cap is 16384/.test(e.message)); }",
        "      vance.guard.session.set('lost', true);",
        "      throw new Error('after a write');",
      ].join('\n'),
      '_vance/recipes/command-guarded.yaml': [
        'description: A command guard', 'engine: ford', 'params:', '  validation: false',
        'guard:', '  - scriptBody: |',
        "      const c = vance.guard.command;",
        "      vance.guard.session.set('seen', (vance.guard.session.get('seen') || 0) + 1);",
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
    return { s, calc: spawned.id, calcSession: spawned.session.id };
}
