import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import pino from 'pino';
import { testDatabases } from '../support/databases';
import { TypeOrmProcessStore, TypeOrmTurnStore, type Database } from '../../api/src/persistence';
import { startVance, type RunningVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import type { ServerTool } from '../../api/src/domain/tools/server-tool';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { NO_TIME_CAP } from '../../api/src/templates/testing';
import { ADMIN_TOKEN, codeOf, collect, eventually, watchBus, type BusWatch, type GraphQLResult } from './harness';

/**
 * Turns end to end over GraphQL: the offline provider (wrapped: `fail now` fails the call,
 * `force <tool>` calls a tool the turn does not offer, a big_tool result gets a short reply), fake
 * server tools, persisted messages, turns and turn events, replay, faults, two instances.
 */
class TestProvider implements ModelProvider {
  private readonly offline = new OfflineProvider();
  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'user' && last.content.trim() === 'fail now') throw new ModelCallError('PROVIDER_UNAVAILABLE', 'The test provider is down', request.provider);
    const forced = last?.role === 'user' ? /^force (\w+)$/.exec(last.content.trim()) : null;
    if (forced) {
      yield { type: 'tool-call', call: { id: 'forced-1', name: forced[1]!, arguments: {} } };
      yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    if (last?.role === 'user' && last.content.trim() === 'hang') {
      await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve()));
      return;
    }
    if (last?.role === 'tool' && last.toolName === 'big_tool') {
      yield { type: 'text-delta', text: 'Done.' };
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    yield* this.offline.stream(request);
  }
}

const tool = (name: string, invoke: ServerTool['invoke']): ServerTool => ({
  name, labels: ['read'], description: `The ${name} tool.`, parameters: { type: 'object', properties: { text: { type: 'string' } } }, invoke,
});

const TOOLS: ServerTool[] = [
  tool('echo_tool', async (args) => ({ content: `echo: ${String(args.text ?? '')}` })),
  tool('secret_tool', async () => ({ content: 'the secret' })),
  tool('big_tool', async () => ({ content: 'x'.repeat(600) })),
];

interface Started {
  vance: RunningVance;
  bus: BusWatch;
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult<T>>;
  ws(): Client;
  close(): Promise<void>;
}

async function start(database: Database): Promise<Started> {
  // A failed turn's retry (issue 14, tested in its own files) waits an hour here: under load the 1 s
  // default began a retry while a test was still reading what the failure left.
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', VANCE_TURN_RETRY_MS: '3600000' });
  // Load: the template time cap lifted (not under test here), as in harness.ts.
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, identityCacheTtlMs: 0, modelProvider: new TestProvider(), extraTools: TOOLS, templateLimits: NO_TIME_CAP });
  const clients: Client[] = [];
  return {
    vance,
    bus: watchBus(vance.services.bus),
    gql: async (query, variables = {}) => {
      const res = await fetch(vance.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ query, variables }) });
      return (await res.json()) as GraphQLResult<any>;
    },
    ws: () => {
      const client = createClient({ url: vance.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` }, retryAttempts: 0, lazy: true });
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.dispose()));
      await vance.close();
    },
  };
}

const PUT = `mutation Put($layer: Layer!, $path: String!, $content: String!) { putDocument(layer: $layer, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;
const MESSAGES = `query M($id: ID!) { messages(processId: $id) { role senderName content toolCall turnId } }`;
const TURNS = `query T($id: ID!) { turns(processId: $id) { id status engine finishReason usage errorCode } }`;
const PROCESS = `query P($id: ID!) { process(id: $id) { activeSkills { name oneShot } pending { sender content } turnRequestedAt } }`;

interface Ev { id: string; turnId: string; type: string; payload: any }
type Stream = ReturnType<typeof collect<{ turnEvents: Ev }>>;


/** Load: every subscription here is opened with `listening`, so the test acts once it is registered, never after a sleep. */
async function turnOf(s: Started, id: string, text: string): Promise<Ev[]> {
  const after = await lastEventId(s, id);
  const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id, after }));
  const sent = await s.gql(SEND, { id, text });
  if (sent.errors) throw new Error(JSON.stringify(sent.errors));
  return readUntilEither(stream);
}

async function readUntilEither(stream: Stream): Promise<Ev[]> {
  const out: Ev[] = [];
  for (;;) {
    const e = (await stream.next(15_000)).data!.turnEvents;
    out.push(e);
    if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return out;
  }
}

const eventIds = new Map<string, string | null>();
async function lastEventId(_s: Started, id: string): Promise<string | null> {
  return eventIds.get(id) ?? null;
}
function remember(id: string, events: Ev[]): Ev[] {
  if (events.length > 0) eventIds.set(id, events[events.length - 1]!.id);
  return events;
}

describe.each(testDatabases())('turns over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: Started;
  let worker: string;
  beforeAll(async () => {
    db = await driver.open();
    s = await start(db);
    await s.gql(`mutation { createProject(name: "ops") { id } }`);
    const docs: Record<string, string> = {
      '_vance/recipes/worker.yaml': 'description: Test worker\nengine: ford\nparams:\n  validation: false\nallowedToolsRemove: [secret_tool]\n',
      // Offers no respond tool, so the offline model answers in plain text (what the No-Tool-Call correction is for).
      '_vance/recipes/unconventional.yaml': 'description: Worker without respond\nengine: ford\nparams:\n  validation: false\nallowedToolsRemove: [respond]\n',
      '_vance/recipes/checked.yaml': 'description: Validated worker\nengine: ford\nparams:\n  validation: true\n  maxIterations: 4\ndataRelayCorrection: "RELAY %d chars, reply %d"\n',
      '_vance/recipes/verbose.yaml': `description: Long prompt\nengine: ford\nparams:\n  validation: false\npromptPrefix: "${'Be thorough — '.repeat(600)}"\n`,
      '_vance/skills/helper/SKILL.md': '---\ntitle: helper\ndescription: Skill helper\nversion: "1.0.0"\n---\nHelp with care.\n',
      '_vance/skills/delegate/SKILL.md': '---\ntitle: delegate\ndescription: Skill delegate\nversion: "1.0.0"\narguments: true\nrun:\n  target: spawn\n  recipe: worker\naction: "Work on {{ args.text }}"\n---\nDelegated.\n',
    };
    for (const [path, content] of Object.entries(docs)) {
      const r = await s.gql(PUT, { layer: 'VANCE', path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
    worker = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'worker', name: 'w1' } })).data!.spawnProcess.id;
  });
  afterAll(async () => {
    await s?.close();
    await db?.close();
  });

  it('sendMessage runs a turn on the lane: TurnStarted … TextDelta … TurnFinished, messages and turns persisted', async () => {
    const events = remember(worker, await turnOf(s, worker, 'hello there'));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('TurnStarted');
    expect(types).toContain('SkillVerdicts');
    expect(types).toContain('PromptComposed');
    expect(types).toContain('TextDelta');
    expect(types[types.length - 1]).toBe('TurnFinished');
    expect(new Set(events.map((e) => e.turnId)).size).toBe(1);
    const ids = events.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    const text = events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('');
    expect(text).toContain('You said: hello there');
    const composed = events.find((e) => e.type === 'PromptComposed')!.payload;
    expect(composed).toMatchObject({ provider: 'offline', model: 'offline-echo' });
    expect(composed.tools).toContain('echo_tool');
    expect(composed.tools).not.toContain('secret_tool');
    expect(events[events.length - 1]!.payload).toMatchObject({ finishReason: 'stop', iterations: 1 });

    const messages = (await s.gql(MESSAGES, { id: worker })).data!.messages;
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]).toMatchObject({ content: 'hello there', senderName: 'admin' });
    expect(messages[1].content).toContain('You said: hello there');
    const turns = (await s.gql(TURNS, { id: worker })).data!.turns;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ status: 'FINISHED', engine: 'ford', finishReason: 'stop' });
    expect(turns[0].usage.outputTokens).toBeGreaterThan(0);
    expect((await s.gql(PROCESS, { id: worker })).data!.process).toMatchObject({ pending: [], turnRequestedAt: null });
  });

  it('runs a tool call through the offline protocol and refuses a tool outside the pool', async () => {
    const events = remember(worker, await turnOf(s, worker, 'call echo_tool {"text": "ping"}'));
    expect(events.filter((e) => e.type.startsWith('ToolCall')).map((e) => [e.type, e.payload.name, e.payload.isError])).toEqual([
      ['ToolCallStarted', 'echo_tool', undefined], ['ToolCallFinished', 'echo_tool', false],
    ]);
    expect(events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('')).toContain('Tool echo_tool returned: echo: ping');

    const builtin = remember(worker, await turnOf(s, worker, 'call workspace_list {}'));
    expect(builtin.find((e) => e.type === 'ToolCallFinished')!.payload).toMatchObject({ name: 'workspace_list', isError: false });

    const refused = remember(worker, await turnOf(s, worker, 'force secret_tool'));
    const finished = refused.find((e) => e.type === 'ToolCallFinished')!;
    expect(finished.payload).toMatchObject({ name: 'secret_tool', isError: true });
    const messages = (await s.gql(MESSAGES, { id: worker })).data!.messages;
    const tools = messages.filter((m: any) => m.role === 'tool');
    expect(tools.map((m: any) => m.content)).toEqual(['echo: ping', expect.any(String), "Tool 'secret_tool' is not allowed in this turn."]);
    expect(tools[2].toolCall).toMatchObject({ kind: 'result', toolName: 'secret_tool', isError: true });
  });

  it('replays after afterEventId exactly the missed events, then streams live ones', async () => {
    const all = await readUntilCount(collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id: worker }), eventIds.get(worker)!);
    expect(all.length).toBeGreaterThan(10);
    const cut = all[4]!;
    const late = collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id: worker, after: cut.id });
    const replayed = await readUntilCount(late, eventIds.get(worker)!);
    expect(replayed.map((e) => e.id)).toEqual(all.slice(5).map((e) => e.id));
    await s.gql(SEND, { id: worker, text: 'live one' });
    const live = await readUntilEither(late);
    expect(live[0]!.type).toBe('TurnStarted');
    expect(BigInt(live[0]!.id)).toBeGreaterThan(BigInt(eventIds.get(worker)!));
    remember(worker, live);
    expect(codeOf(await s.gql(MESSAGES, { id: '00000000-0000-4000-8000-000000000000' }))).toBe('NOT_FOUND');
  });

  it('a provider failure ends the turn with TurnFailed and keeps the inbox; the next turn takes it', async () => {
    const failed = remember(worker, await turnOf(s, worker, 'fail now'));
    expect(failed[failed.length - 1]).toMatchObject({ type: 'TurnFailed', payload: { code: 'PROVIDER_UNAVAILABLE' } });
    const p = (await s.gql(PROCESS, { id: worker })).data!.process;
    expect(p.pending).toEqual([{ sender: 'USER', content: 'fail now' }]);
    const turns = (await s.gql(TURNS, { id: worker })).data!.turns;
    expect(turns[turns.length - 1]).toMatchObject({ status: 'FAILED', errorCode: 'PROVIDER_UNAVAILABLE' });
    const before = (await s.gql(MESSAGES, { id: worker })).data!.messages;
    expect(before.map((m: any) => m.content)).not.toContain('fail now');

    const next = remember(worker, await turnOf(s, worker, 'and again'));
    expect(next[0]!.payload.input.map((i: any) => i.preview)).toEqual(['fail now', 'and again']);
    expect(next[next.length - 1]!.type).toBe('TurnFinished');
    const after = (await s.gql(MESSAGES, { id: worker })).data!.messages.map((m: any) => m.content);
    expect(after).toContain('fail now');
    expect(after).toContain('and again');
  });

  // Load-proof: 'hang' never answers until aborted, so only the 300 ms deadline can end the call.
  it('a model call past its deadline fails the turn with PROVIDER_TIMEOUT and keeps the inbox', async () => {
    const slow = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'worker', name: 'slow', params: { modelTimeoutMs: 300 } } })).data!.spawnProcess.id;
    const events = remember(slow, await turnOf(s, slow, 'hang'));
    expect(events[events.length - 1]).toMatchObject({ type: 'TurnFailed', payload: { code: 'PROVIDER_TIMEOUT' } });
    expect((await s.gql(PROCESS, { id: slow })).data!.process.pending).toEqual([{ sender: 'USER', content: 'hang' }]);
  });

  it('clears a one-shot skill after the turn and reports it in SkillVerdicts and the skills section', async () => {
    const act = await s.gql(`mutation { activateSkill(processId: "${worker}", name: "helper", once: true) { outcome } }`);
    expect(act.errors).toBeUndefined();
    const preview = (await s.gql(`query { composeTurnPreview(processId: "${worker}") { provider model sections { kind text } tools } }`)).data!.composeTurnPreview;
    expect(preview.sections.map((x: any) => x.kind)).toEqual(['SYSTEM_PROMPT', 'SKILLS']);
    expect(preview.sections[1].text).toContain('--- Skill: helper ---');
    expect(preview.tools).toContain('echo_tool');
    const events = remember(worker, await turnOf(s, worker, 'with help'));
    expect(events.find((e) => e.type === 'SkillVerdicts')!.payload.skills).toEqual([expect.objectContaining({ skill: 'helper', oneShot: true, composed: true })]);
    expect((await s.gql(PROCESS, { id: worker })).data!.process.activeSkills).toEqual([]);
  });

  // The no-tool-call correction of a plain-text reply is tested in tool-pool.test.ts (the offline model answers through respond).
  it('validator corrections: none for a reply through respond; data-relay-gap with the recipe wording', async () => {
    const checked = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'checked', name: 'c1' } })).data!.spawnProcess.id;
    const plain = remember(checked, await turnOf(s, checked, 'hi'));
    expect(plain[plain.length - 1]!.payload).toMatchObject({ corrections: [], iterations: 1 });
    const relay = remember(checked, await turnOf(s, checked, 'call big_tool {}'));
    expect(relay[relay.length - 1]!.payload.corrections).toEqual(['data-relay-gap']);
    const system = (await s.gql(MESSAGES, { id: checked })).data!.messages.filter((m: any) => m.role === 'system');
    expect(system.map((m: any) => m.content)).toEqual(['RELAY 600 chars, reply 5']);
  });

  // Issue 15: the turn took params.validation as on only for true or 'true'; `validation: yes` stayed off without a word.
  it('reads params.validation like every boolean: yes turns the validator corrections on', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'unconventional', name: 'yes1', params: { validation: 'yes' } } })).data!.spawnProcess.id;
    const events = remember(id, await turnOf(s, id, 'hi'));
    expect(events[events.length - 1]!.payload.corrections).toEqual(['no-tool-call']);
  });

  it('arthur: the recipe catalog in its prompt; a child\'s result arrives in the parent\'s inbox and runs its turn', async () => {
    const arthur = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'arthur', name: 'chat', params: { validation: false } } })).data!.spawnProcess.id;
    const preview = (await s.gql(`query { composeTurnPreview(processId: "${arthur}") { sections { kind text } tools } }`)).data!.composeTurnPreview;
    const catalog = preview.sections.find((x: any) => x.kind === 'RECIPE_CATALOG');
    expect(catalog.text).toContain('## Available worker recipes');
    expect(catalog.text).toContain('- `analyze` — ');
    expect(catalog.text).not.toContain('`worker`');
    const parentEvents = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id: arthur }));
    const spawned = await s.gql(`mutation { activateSkill(processId: "${arthur}", name: "delegate", args: "the report") { outcome child { id name } } }`);
    expect(spawned.data?.activateSkill.outcome).toBe('SPAWNED');
    const child = spawned.data!.activateSkill.child;
    const events = await readUntilEither(parentEvents);
    expect(events[0]!.payload.input).toEqual([{ sender: 'PROCESS', senderName: child.name, preview: expect.stringContaining(`Result of ${child.name} (delegate): Offline model`) }]);
    const childMessages = (await s.gql(MESSAGES, { id: child.id })).data!.messages;
    expect(childMessages[0].content).toBe('Work on the report');
  });

  it('arthur delegates with process_spawn; the worker\'s result is the input of arthur\'s next turn', async () => {
    const arthur = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'arthur', name: 'chat2', params: { validation: false } } })).data!.spawnProcess.id;
    const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id: arthur }));
    await s.gql(SEND, { id: arthur, text: 'call process_spawn {"recipe": "worker", "goal": "count the files", "name": "counter", "title": "File count"}' });
    const first = await readUntilEither(stream);
    expect(first.find((e) => e.type === 'ToolCallFinished')!.payload).toMatchObject({ name: 'process_spawn', isError: false });
    const second = await readUntilEither(stream);
    // Issue 16: the worker keeps the title and goal it was given, and its report names the title.
    expect(second[0]!.payload.input).toEqual([{ sender: 'PROCESS', senderName: 'counter', preview: expect.stringContaining('Result of counter (File count): Offline model') }]);
    const workers = (await s.gql(`query { processes(project: "ops") { name parentId title goal } }`)).data!.processes as { name: string; parentId: string | null }[];
    expect(workers.find((w) => w.name === 'counter')).toEqual({ name: 'counter', parentId: arthur, title: 'File count', goal: 'count the files' });
    expect(second[second.length - 1]!.type).toBe('TurnFinished');
  });

  it('two instances: a subscriber on B sees A\'s turn live', async () => {
    if (!driver.reopen) return;
    const other = await driver.reopen(db);
    const b = await start(other);
    try {
      const stream = await b.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(b.ws(), EVENTS, { id: worker, after: eventIds.get(worker) }));
      await s.gql(SEND, { id: worker, text: 'across instances' });
      const events = remember(worker, await readUntilEither(stream));
      expect(events[0]!.type).toBe('TurnStarted');
      expect(events[events.length - 1]!.type).toBe('TurnFinished');
      expect(events.filter((e) => e.type === 'TextDelta').map((e) => e.payload.text).join('')).toContain('across instances');
      // A PromptComposed too large for NOTIFY crosses as an id; B loads the payload from the database.
      const verbose = (await s.gql(SPAWN, { input: { project: 'ops', recipe: 'verbose', name: 'v1' } })).data!.spawnProcess.id;
      const big = await b.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(b.ws(), EVENTS, { id: verbose }));
      await s.gql(SEND, { id: verbose, text: 'long one' });
      const bigEvents = await readUntilEither(big);
      const composed = bigEvents.find((e) => e.type === 'PromptComposed')!;
      expect(composed.payload.sections[0].text).toContain('Be thorough — Be thorough');
      expect(composed.payload.sections[0].chars).toBeGreaterThan(8_000);
      await b.vance.services.turnRunner.idle();
      await s.vance.services.turnRunner.idle();
    } finally {
      await b.close();
      await other.close();
    }
  });

  // Load: the recovered turn is waited for until it is there (bounded by the test timeout), not for a fixed 15 s.
  it('a turn left RUNNING by a killed server is marked INTERRUPTED on restart, its input restored and run again', async () => {
    await s.vance.services.turnRunner.idle();
    await s.close();
    const processes = new TypeOrmProcessStore(db.dataSource);
    const turns = new TypeOrmTurnStore(db.dataSource);
    const [{ tenant_id: tenantId }] = await db.dataSource.query('SELECT tenant_id FROM processes WHERE id = $1', [worker]);
    const p = (await processes.findProcess(tenantId, worker))!;
    await processes.appendPending(p.tenantId, p.id, { sender: 'USER', senderName: 'admin', content: 'mid-turn message' });
    const begun = await turns.beginTurn(p.tenantId, p.id);
    expect(begun?.taken.map((m) => m.content)).toEqual(['mid-turn message']);
    s = await start(db);
    let list: any[] = [];
    await eventually(async () => {
      list = (await s.gql(TURNS, { id: worker })).data!.turns;
      return list[list.length - 1]?.status === 'FINISHED' && list.some((t) => t.id === begun!.turn.id && t.status === 'INTERRUPTED');
    }, 100);
    expect(list.find((t) => t.id === begun!.turn.id)).toMatchObject({ status: 'INTERRUPTED', errorCode: 'INTERRUPTED' });
    expect(list[list.length - 1]).toMatchObject({ status: 'FINISHED' });
    const messages = (await s.gql(MESSAGES, { id: worker })).data!.messages;
    expect(messages.filter((m: any) => m.content === 'mid-turn message')).toHaveLength(1);
    expect(messages[messages.length - 1].content).toContain('You said: mid-turn message');
  });
});

async function readUntilCount(stream: Stream, lastId: string): Promise<Ev[]> {
  const out: Ev[] = [];
  for (;;) {
    const e = (await stream.next(15_000)).data!.turnEvents;
    out.push(e);
    if (e.id === lastId) return out;
  }
}
