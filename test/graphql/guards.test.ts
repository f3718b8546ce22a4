import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { collect, eventually } from './harness';
import { PUT, SPAWN, ACTIVATE, EVENTS, PROCESS, runTurns, toolResult, openSandbox, type Started, type Ev } from './sandbox-fixture';

// Completion guards end to end over GraphQL (seed 004 §6d): recipe, runtime, start, command and terminate guards, rounds and fail-open/fail-closed, on the sandbox fixture (sandbox-fixture.ts).
describe.each(testDatabases())('completion guards over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: Started;

  beforeAll(async () => {
    db = await driver.open();
    ({ s } = await openSandbox(db));
  });

  afterAll(async () => {
    await s?.close();
    await db?.close();
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
    const guardRan = events.filter((e) => e.type === 'GuardRan' && e.payload.guard === 'inline guard #1 of the recipe').map((e) => e.payload);
    expect(guardRan.map((g) => [g.point, g.continued ?? false, g.capped ?? null])).toEqual([
      ['terminate', true, null], ['terminate', false, expect.stringMatching(/Round cap reached/)],
    ]);
    // A worker's turn end is its terminate point: the `stop` guard does not run there, `both` runs once.
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['both terminate', 'both terminate']);
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

  it('a chat process ends its turn at stop: stop and both guards run there, terminate guards do not', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'term-worker', name: 'not-a-worker' } })).data!.spawnProcess.id;
    const events = await runTurns(s, id, 'hello');
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['stop-only stop', 'both stop']);
    expect(events.filter((e) => e.type === 'GuardRan').map((e) => e.payload.point)).toEqual(['stop', 'stop']);
    expect(events[events.length - 1]).toMatchObject({ type: 'TurnFinished', payload: { guardFollowUps: 0 } });
  });

  it('guard scratch: the loop scratch lasts for one user turn, the session scratch for the process; capped; a failing guard writes nothing', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'lab', recipe: 'scratchy', name: 'notes' } })).data!.spawnProcess.id;
    const logs = (events: Ev[]) => events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message);
    const first = await runTurns(s, id, 'one', 2);
    expect(logs(first)).toEqual(['loop 1 session 1 keys n', 'refused true', 'loop 2 session 2 keys n', 'refused true']);
    expect((await s.gql(PROCESS, { id })).data!.process.guardScratch).toEqual({ 'recipe:0': { loop: { n: 2 }, session: { total: 2 } } });
    // The next user message clears the loop scratch; the session scratch goes on counting.
    const second = await runTurns(s, id, 'two', 2);
    expect(logs(second).filter((m) => m.startsWith('loop'))).toEqual(['loop 1 session 3 keys n', 'loop 2 session 4 keys n']);
    expect((await s.gql(PROCESS, { id })).data!.process.guardScratch).toEqual({ 'recipe:0': { loop: { n: 2 }, session: { total: 4 } } });
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
    // A command guard keeps scratch too: it saw two commands.
    expect(process.guardScratch).toEqual({ 'recipe:0': { loop: {}, session: { seen: 2 } } });
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

