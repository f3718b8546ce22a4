import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { PROCESS_EVENTS_TOPIC } from '../../api/src/domain/processes/process-event';
import { ADMIN_TOKEN, codeOf, collect, startTestVance, type TestVance } from './harness';

const PUT = `mutation Put($layer: Layer!, $path: String!, $content: String!) { putDocument(layer: $layer, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name recipe locked allowedSkills activeSkills { name fromRecipe oneShot source reason } } }`;
const ACTIVATE = `mutation A($id: ID!, $name: String!, $args: String, $once: Boolean) {
  activateSkill(processId: $id, name: $name, args: $args, once: $once) {
    outcome reason child { id name parentId activeSkills { name args } pending { sender content } }
    process { activeSkills { name oneShot args } guards { kind path } turnRequestedAt pending { sender senderName content } }
  }
}`;
const COMMAND = `mutation C($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) { kind message process { activeSkills { name } } skills { name active } } }`;
const PROCESS = `query P($id: ID!) { process(id: $id) { name activeSkills { name } guards { kind } pending { sender content } allowedSkills } }`;

const skill = (name: string, extra = '', body = `The ${name} method.`) =>
  `---\ntitle: ${name}\ndescription: Skill ${name}\nversion: "1.0.0"\n${extra}---\n${body}\n`;

async function seed(t: TestVance): Promise<void> {
  const docs: Record<string, string> = {
    '_vance/recipes/guarded.yaml': 'description: Guarded worker\nengine: ford\nlocked: true\ndefaultActiveSkills: [alpha]\nallowedSkills: [alpha, beta, argy, shotty, spawny, hidden]\n',
    '_vance/recipes/open.yaml': 'description: Open worker\nengine: ford\n',
    '_vance/skills/alpha/SKILL.md': skill('alpha', 'activate:\n  - guard script _vance/guards/alpha.js\ndeactivate:\n  - guard clear\naction: "Start alpha."\n'),
    '_vance/skills/beta/SKILL.md': skill('beta'),
    '_vance/skills/argy/SKILL.md': skill('argy', 'arguments:\n  - name: count\n    type: integer\n    required: true\n  - name: topic\n    type: string\naction: "Count {{ args.count }} about {{ args.topic }}"\n'),
    '_vance/skills/shotty/SKILL.md': skill('shotty', 'lifecycle: shot\narguments: true\n', 'Do the macro thing: {{ args.text }}'),
    '_vance/skills/spawny/SKILL.md': skill('spawny', 'arguments: true\nrun:\n  target: spawn\n  recipe: open\naction: "Review {{ args.text }} now."\n'),
    '_vance/skills/hidden/SKILL.md': skill('hidden', 'user-invocable: false\n'),
  };
  for (let i = 0; i < 50; i++) docs[`_vance/skills/c${i}/SKILL.md`] = skill(`c${i}`);
  for (const [path, content] of Object.entries(docs)) {
    const r = await t.gql(PUT, { layer: 'VANCE', path, content });
    if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
  }
}

describe.each(testDatabases())('processes and skill activation over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let guarded: string;
  let open: string;
  beforeAll(async () => {
    db = await driver.open();
    // These tests inspect the inbox; turns (which take it) are tested in turns.test.ts.
    t = await startTestVance(db, {}, { runTurns: false });
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    await seed(t);
    guarded = (await t.gql(SPAWN, { input: { project: 'ops', recipe: 'guarded', name: 'g1' } })).data!.spawnProcess.id;
    open = (await t.gql(SPAWN, { input: { project: 'ops', recipe: 'open' } })).data!.spawnProcess.id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('spawns from a recipe with its snapshot: recipe skills sticky, whitelist, lock; names unique per session', async () => {
    const p = (await t.gql(PROCESS, { id: guarded })).data?.process;
    expect(p).toMatchObject({ name: 'g1', activeSkills: [{ name: 'alpha' }], allowedSkills: ['alpha', 'beta', 'argy', 'shotty', 'spawny', 'hidden'] });
    expect(codeOf(await t.gql(SPAWN, { input: { project: 'ops', recipe: 'guarded', name: 'g1' } }))).toBe('CONFLICT');
    const second = await t.gql(SPAWN, { input: { project: 'ops', recipe: 'open' } });
    expect(second.data?.spawnProcess.name).toBe('open-2');
    const neither = await t.gql(SPAWN, { input: { project: 'ops' } });
    expect(neither.data?.spawnProcess.recipe).toBe('default');
    expect(codeOf(await t.gql(SPAWN, { input: { project: 'ops', engine: 'warp-drive' } }))).toBe('BAD_USER_INPUT');
    // Later recipe edits do not reach the running process.
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/guarded.yaml', content: 'description: changed\nengine: ford\nallowedSkills: []\n' });
    expect((await t.gql(PROCESS, { id: guarded })).data?.process.allowedSkills).toContain('beta');
  });

  it('refuses skills outside the whitelist with the seed wording, and reports it as an event', async () => {
    // Load: wait until the subscription is registered, not 200 ms that a busy machine can outlast.
    const events = await t.bus.listening(PROCESS_EVENTS_TOPIC, () =>
      collect<{ processEvents: { type: string; skill?: string; reason?: string } }>(t.ws(), `subscription E($id: ID!) { processEvents(processId: $id) { type ... on SkillRefusedEvent { skill reason } } }`, { id: guarded }));
    const r = await t.gql(ACTIVATE, { id: guarded, name: 'c1' });
    expect(codeOf(r)).toBe('FORBIDDEN');
    expect(r.errors?.[0]?.message).toBe("Skill 'c1' is not allowed by recipe 'guarded'");
    expect((await events.next()).data?.processEvents).toEqual({ type: 'SKILL_REFUSED', skill: 'c1', reason: "Skill 'c1' is not allowed by recipe 'guarded'" });
  });

  it('stores process events: a subscriber resumes after an event id with the ones after it, then live ones (issue 14)', async () => {
    const all = await t.bus.listening(PROCESS_EVENTS_TOPIC, () =>
      collect<{ processEvents: { id: string; type: string } }>(t.ws(), `subscription E($id: ID!) { processEvents(processId: $id) { id type } }`, { id: guarded }));
    await t.gql(ACTIVATE, { id: guarded, name: 'c1' });
    await t.gql(ACTIVATE, { id: guarded, name: 'c2' });
    const first = (await all.next()).data!.processEvents;
    const second = (await all.next()).data!.processEvents;
    expect([first.type, second.type]).toEqual(['SKILL_REFUSED', 'SKILL_REFUSED']);
    expect(BigInt(second.id)).toBeGreaterThan(BigInt(first.id));
    const resumed = await t.bus.listening(PROCESS_EVENTS_TOPIC, () =>
      collect<{ processEvents: { id: string; type: string } }>(t.ws(), `subscription E($id: ID!, $after: ID) { processEvents(processId: $id, afterEventId: $after) { id type } }`, { id: guarded, after: first.id }));
    expect((await resumed.next()).data!.processEvents).toEqual(second);
    await t.gql(ACTIVATE, { id: guarded, name: 'c3' });
    const live = (await resumed.next()).data!.processEvents;
    expect(live.type).toBe('SKILL_REFUSED');
    expect(BigInt(live.id)).toBeGreaterThan(BigInt(second.id));
    expect((await all.next()).data!.processEvents).toEqual(live);
    all.stop();
    resumed.stop();
  });

  it('binds positional arguments, refuses a missing required one before anything runs, fires action once', async () => {
    const missing = await t.gql(ACTIVATE, { id: guarded, name: 'argy' });
    expect(codeOf(missing)).toBe('BAD_USER_INPUT');
    expect(missing.errors?.[0]?.message).toBe("Skill 'argy' requires argument 'count'");
    const r = (await t.gql(ACTIVATE, { id: guarded, name: 'argy', args: '3 the big  picture' })).data?.activateSkill;
    expect(r.outcome).toBe('ACTIVATED');
    expect(r.process.turnRequestedAt).toBeTruthy();
    expect(r.process.pending).toContainEqual({ sender: 'SKILL', senderName: 'admin', content: 'Count 3 about the big  picture' });
    const again = (await t.gql(ACTIVATE, { id: guarded, name: 'argy', args: '4 more' })).data?.activateSkill;
    expect(again.outcome).toBe('UPDATED');
    expect(again.process.pending.filter((m: { content: string }) => m.content.startsWith('Count'))).toHaveLength(1);
    expect(again.process.activeSkills.find((s: { name: string }) => s.name === 'argy').args).toBe('4 more');
  });

  it('injects the rest of the line as a user message for skills without arguments, fires shot skills without registering', async () => {
    const beta = (await t.gql(ACTIVATE, { id: guarded, name: 'beta', args: 'please look at the logs' })).data?.activateSkill;
    expect(beta.process.pending).toContainEqual({ sender: 'USER', senderName: 'admin', content: 'please look at the logs' });
    const shot = (await t.gql(ACTIVATE, { id: guarded, name: 'shotty', args: 'tidy up' })).data?.activateSkill;
    expect(shot.outcome).toBe('FIRED');
    expect(shot.process.activeSkills.map((s: { name: string }) => s.name)).not.toContain('shotty');
    expect(shot.process.pending).toContainEqual({ sender: 'SKILL', senderName: 'admin', content: 'Do the macro thing: tidy up' });
  });

  it('runs /skill lines: a locked recipe keeps its skills, list and bad lines', async () => {
    expect(codeOf(await t.gql(COMMAND, { id: guarded, line: '/skill clear alpha' }))).toBe('FORBIDDEN');
    const cleared = (await t.gql(COMMAND, { id: guarded, line: '/skill clear' })).data?.skillCommand;
    expect(cleared.kind).toBe('CLEAR');
    expect(cleared.process.activeSkills).toEqual([{ name: 'alpha' }]);
    expect(cleared.message).toContain('Kept (locked recipe): alpha');
    const list = (await t.gql(COMMAND, { id: guarded, line: '/skill list' })).data?.skillCommand;
    expect(list.skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expect(list.skills.find((s: { name: string }) => s.name === 'alpha').active).toBe(true);
    expect(codeOf(await t.gql(COMMAND, { id: guarded, line: 'hello there' }))).toBe('BAD_USER_INPUT');
    const once = (await t.gql(COMMAND, { id: guarded, line: '/skill beta --once' })).data?.skillCommand;
    expect(once.process.activeSkills.map((s: { name: string }) => s.name)).toContain('beta');
  });

  it('keeps non-user-invocable skills off /skill and out of completions', async () => {
    expect(codeOf(await t.gql(ACTIVATE, { id: guarded, name: 'hidden' }))).toBe('FORBIDDEN');
    const names = (await t.gql(`query { skillCompletions(processId: "${guarded}", prefix: "") }`)).data?.skillCompletions;
    expect(names).toEqual(['alpha', 'argy', 'beta', 'shotty', 'spawny']);
  });

  it('runs activate:/deactivate: commands as stored guard state', async () => {
    const on = (await t.gql(ACTIVATE, { id: open, name: 'alpha' })).data?.activateSkill;
    expect(on.process.guards).toEqual([{ kind: 'SCRIPT', path: '_vance/guards/alpha.js' }]);
    const off = await t.gql(`mutation { clearSkills(processId: "${open}", name: "alpha") { cleared process { guards { kind } activeSkills { name } } } }`);
    expect(off.data?.clearSkills).toEqual({ cleared: ['alpha'], process: { guards: [], activeSkills: [] } });
  });

  it('spawns a fresh worker for a spawn skill; the caller keeps nothing', async () => {
    const before = (await t.gql(PROCESS, { id: open })).data?.process;
    const r = (await t.gql(ACTIVATE, { id: open, name: 'spawny', args: 'src/app.ts' })).data?.activateSkill;
    expect(r.outcome).toBe('SPAWNED');
    expect(r.child).toMatchObject({ name: 'spawny-1', parentId: open, activeSkills: [{ name: 'spawny', args: 'src/app.ts' }] });
    expect(r.child.pending).toEqual([{ sender: 'SKILL', content: 'Review src/app.ts now.' }]);
    const after = (await t.gql(PROCESS, { id: open })).data?.process;
    expect(after.activeSkills).toEqual(before.activeSkills);
    expect(after.pending).toEqual(before.pending);
    const second = (await t.gql(ACTIVATE, { id: open, name: 'spawny' })).data?.activateSkill;
    expect(second.child.name).toBe('spawny-2');
  });

  it('ends 50 concurrent activations and clears in the state a serial order gives', async () => {
    const p = (await t.gql(SPAWN, { input: { project: 'ops', recipe: 'open', name: 'busy' } })).data!.spawnProcess.id;
    const names = Array.from({ length: 50 }, (_, i) => `c${i}`);
    const first = await Promise.all(names.map((name) => t.gql(ACTIVATE, { id: p, name })));
    expect(first.filter((r) => r.errors)).toEqual([]);
    expect((await t.gql(PROCESS, { id: p })).data?.process.activeSkills).toHaveLength(50);
    // Half cleared, half re-activated (an update), all at once: 25 remain, whatever the order.
    await Promise.all(names.map((name, i) => (i % 2 === 0
      ? t.gql(`mutation { clearSkills(processId: "${p}", name: "${name}") { cleared } }`)
      : t.gql(ACTIVATE, { id: p, name }))));
    const after = (await t.gql(PROCESS, { id: p })).data?.process.activeSkills.map((s: { name: string }) => s.name).sort();
    expect(after).toEqual(names.filter((_, i) => i % 2 === 1).sort());
  });

  it('hides processes from other users: NOT_FOUND, also for their events', async () => {
    const other = (await t.gql(`mutation { createUser(login: "eve") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "ops", login: "eve") { role } }`);
    expect(codeOf(await t.gql(PROCESS, { id: guarded }, other))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(ACTIVATE, { id: guarded, name: 'beta' }, other))).toBe('NOT_FOUND');
    const sub = collect(t.ws(other), `subscription { processEvents(processId: "${guarded}") { type } }`);
    await sub.done;
    const errors = (sub.error ?? sub.events[0]?.errors) as { extensions?: { code?: string } }[];
    expect(errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe.each(testDatabases())('one-shot skills after a turn ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/alpha/SKILL.md', content: skill('alpha', 'activate:\n  - guard script _vance/guards/alpha.js\ndeactivate:\n  - guard clear\n') });
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/beta/SKILL.md', content: skill('beta') });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('clears --once skills after the turn, running deactivate:, and keeps sticky ones', async () => {
    const id = (await t.gql(SPAWN, { input: { project: 'ops', recipe: 'default' } })).data!.spawnProcess.id;
    await t.gql(`mutation { skillCommand(processId: "${id}", line: "/skill alpha --once") { kind } }`);
    await t.gql(ACTIVATE, { id, name: 'beta' });
    const before = (await t.gql(PROCESS, { id })).data?.process;
    expect(before.activeSkills.map((s: { name: string }) => s.name)).toEqual(['alpha', 'beta']);
    expect(before.guards).toEqual([{ kind: 'SCRIPT' }]);
    const { services } = t.vance;
    const tenantId = (await services.identity.authenticate(ADMIN_TOKEN)).tenant.id;
    const process = (await services.processes.deps.store.findProcess(tenantId, id))!;
    const result = await services.activation.afterTurn(process);
    expect(result.cleared).toEqual(['alpha']);
    const after = (await t.gql(PROCESS, { id })).data?.process;
    expect(after.activeSkills).toEqual([{ name: 'beta' }]);
    expect(after.guards).toEqual([]);
  });
});

// Issue 14, item 5: the auto-triggers of a message run as the pre-turn hook of the turn that takes it
// (seed 000 §4a), no longer inside sendMessage — before, this test read the activation off the process
// right after sendMessage, with no turn running; now it is seen where it takes effect: in that turn.
describe.each(testDatabases())('auto-triggers of a message, in the turn that answers it ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let id: string;
  type Steer = { type: string; skill?: string; oneShot?: boolean; reason?: string };
  let steering: ReturnType<typeof collect<{ processEvents: Steer }>>;
  let turnEvents: ReturnType<typeof collect<{ turnEvents: { type: string; turnId: string; payload: any } }>>;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/deployer/SKILL.md', content: skill('deployer', 'triggers:\n  - type: KEYWORDS\n    keywords: [deploy, rollout]\n    minMatch: 1\n') });
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/reviewer/SKILL.md', content: skill('reviewer', 'triggers:\n  - type: PATTERN\n    pattern: "(?i)schau.*(diff|pr)"\ndisable-model-invocation: true\n') });
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/announcer/SKILL.md', content: skill('announcer', 'triggers:\n  - type: KEYWORDS\n    keywords: [release]\naction: "Announce the release."\n') });
    id = (await t.gql(SPAWN, { input: { project: 'ops', recipe: 'default' } })).data!.spawnProcess.id;
    steering = await t.bus.listening(PROCESS_EVENTS_TOPIC, () => collect<{ processEvents: Steer }>(t.ws(), `subscription P($id: ID!) { processEvents(processId: $id) { type
      ... on SkillActivatedEvent { skill oneShot reason } ... on SkillClearedEvent { skill reason } ... on SkillRefusedEvent { skill reason } } }`, { id }));
    turnEvents = await t.bus.listening('turn_events', () => collect<{ turnEvents: { type: string; turnId: string; payload: any } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type turnId payload } }`, { id }));
  });
  afterAll(async () => {
    steering?.stop();
    turnEvents?.stop();
    await t?.close();
    await db?.close();
  });

  /** Sends `text` and resolves with its turn's events. */
  async function send(text: string): Promise<{ sent: unknown; turn: { type: string; turnId: string; payload: any }[] }> {
    const sent = (await t.gql(`mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { sender content } }`, { id, text })).data?.sendMessage;
    const turn: { type: string; turnId: string; payload: any }[] = [];
    while (turn.at(-1)?.type !== 'TurnFinished') turn.push((await turnEvents.next()).data!.turnEvents);
    return { sent, turn };
  }

  /** The SKILL_* process events from the last read up to and including the first one `last` accepts. */
  async function skillEventsUntil(last: (e: Steer) => boolean): Promise<Steer[]> {
    const seen: Steer[] = [];
    while (!seen.some(last)) {
      const e = (await steering.next()).data!.processEvents;
      if (e.type.startsWith('SKILL_')) seen.push(e);
    }
    return seen;
  }

  it('activates a matching skill one-shot with its reason for the turn, never a model-disabled one, never inside a longer word', async () => {
    const quiet = await send('Please redeploy nothing; Schau dir den Diff an');
    expect(quiet.turn.find((e) => e.type === 'SkillVerdicts')!.payload.skills).toEqual([]);

    const fired = await send('Time to deploy the build');
    expect(fired.sent).toEqual({ sender: 'USER', content: 'Time to deploy the build' });
    expect(fired.turn.find((e) => e.type === 'SkillVerdicts')!.payload.skills).toEqual([
      expect.objectContaining({ skill: 'deployer', oneShot: true, composed: true, reason: expect.stringContaining('deploy') }),
    ]);
    // Everything since the process was spawned: the first message's turn activated nothing.
    expect(await skillEventsUntil((e) => e.type === 'SKILL_CLEARED')).toEqual([
      { type: 'SKILL_ACTIVATED', skill: 'deployer', oneShot: true, reason: expect.stringContaining('deploy') },
      { type: 'SKILL_CLEARED', skill: 'deployer', reason: 'One-shot: cleared after the turn.' },
    ]);
    expect((await t.gql(PROCESS, { id })).data?.process.activeSkills).toEqual([]);
  });

  // Issue 16 (seed 000 §2a: a turn prompt only "upon fresh explicit activation"): before, the
  // triggered skill's action joined the turn as a second user message; `/skill announcer` still fires it.
  it("a triggered skill colours the turn of the message without firing its action:", async () => {
    const fired = await send('Cut the release today');
    expect(await skillEventsUntil((e) => e.type === 'SKILL_CLEARED')).toEqual([
      { type: 'SKILL_ACTIVATED', skill: 'announcer', oneShot: true, reason: expect.stringContaining('release') },
      { type: 'SKILL_CLEARED', skill: 'announcer', reason: 'One-shot: cleared after the turn.' },
    ]);
    const turnId = fired.turn[0]!.turnId;
    expect(fired.turn.find((e) => e.type === 'SkillVerdicts')!.payload.skills).toEqual([expect.objectContaining({ skill: 'announcer', composed: true })]);
    const log = ((await t.gql(`query M($id: ID!) { messages(processId: $id) { role content turnId } }`, { id })).data!.messages as { role: string; content: string; turnId: string }[]).filter((m) => m.turnId === turnId);
    expect(log.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Cut the release today']);
    expect((await t.gql(`query P($id: ID!) { process(id: $id) { pending { content } } }`, { id })).data?.process.pending).toEqual([]);
  });
});
