import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, collect } from './harness';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { SILENT_MS, SPAWN, ACTIVATE, CLEAR, PREVIEW, CALLS, REGISTER, SUBMIT, runTurns, clientOf, disconnect, toolResult, openSandbox, type Started } from './sandbox-fixture';

// Issue 6 end to end over GraphQL: skill scripts as tools, client tools and the abuse cases (sandbox-fixture.ts says how the model behaves).
describe.each(testDatabases())('the sandbox over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: Started;
  let calc: string;
  let calcSession: string;

  beforeAll(async () => {
    db = await driver.open();
    ({ s, calc, calcSession } = await openSandbox(db));
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
});
