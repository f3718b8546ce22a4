import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { ADMIN_TOKEN, collect, type GraphQLResult } from './harness';
import { ACTIVATE, EVENTS, PUT, SEND, SPAWN, openSandbox, type Ev, type Started } from './sandbox-fixture';

/**
 * The engine command family over GraphQL (issue 16; seed 000 §2a, seed 004 §6d): `guard list`,
 * `guard status`, `guard script|inline|clear` run directly with `engineCommand`, through the
 * `command` guards, each leaving a CommandRan/CommandFailed event with no skill and no phase; and
 * guard paths in another project (`//project/path`): the caller must read it to install, the owner
 * to run it.
 */
const COMMAND = `mutation C($id: ID!, $line: String!) { engineCommand(processId: $id, line: $line) { ok command verb detail process { id guards { kind path body installedBy } } } }`;
const PROCESS = `query P($id: ID!) { process(id: $id) { guards { kind path installedBy } guardRounds guardScratch pending { content } } }`;
const STORED = `subscription P($id: ID!) { processEvents(processId: $id, afterEventId: "0") {
  type
  ... on CommandRanEvent { command verb skill phase index text args detail }
  ... on CommandFailedEvent { command verb skill phase text args error code }
  ... on GuardRanEvent { guard point judged: command denied failed }
} }`;

describe.each(testDatabases())('engine commands over GraphQL ($name)', (driver) => {
  let db: Database;
  let s: Started;
  let mia: string;

  const command = (id: string, line: string, token = ADMIN_TOKEN) => s.gql(COMMAND, { id, line }, token);
  const spawn = async (recipe: string, name: string, token = ADMIN_TOKEN): Promise<string> => {
    const spawned = await s.gql(SPAWN, { input: { project: 'lab', recipe, name } }, token);
    if (spawned.errors) throw new Error(JSON.stringify(spawned.errors));
    return spawned.data!.spawnProcess.id as string;
  };
  /** The stored process events as `token` receives them, up to the first that `until` accepts. */
  const storedEvents = async (id: string, until: (e: any) => boolean, token = ADMIN_TOKEN): Promise<any[]> => {
    const stream = collect<{ processEvents: any }>(s.ws(token), STORED, { id });
    const seen: any[] = [];
    while (!seen.some(until)) seen.push((await stream.next(20_000)).data!.processEvents);
    stream.stop();
    return seen;
  };
  const lastEvent = new Map<string, string>();
  /** A user message by `token` (the owner) and its turn events, until `turns` turns ended. */
  const runTurns = async (id: string, text: string, token = ADMIN_TOKEN, turns = 1): Promise<Ev[]> => {
    const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(token), EVENTS, { id, after: lastEvent.get(id) ?? null }));
    const sent = await s.gql(SEND, { id, text }, token);
    if (sent.errors) throw new Error(JSON.stringify(sent.errors));
    const out: Ev[] = [];
    while (out.filter((e) => e.type === 'TurnFinished' || e.type === 'TurnFailed').length < turns) out.push((await stream.next(20_000)).data!.turnEvents);
    lastEvent.set(id, out[out.length - 1]!.id);
    return out;
  };
  const stateOf = async (id: string, token = ADMIN_TOKEN) => (await s.gql(PROCESS, { id }, token)).data!.process;
  const errorOf = (result: GraphQLResult) => ({ code: result.errors?.[0]?.extensions?.code, domainCode: result.errors?.[0]?.extensions?.domainCode, message: result.errors?.[0]?.message });

  beforeAll(async () => {
    db = await driver.open();
    ({ s } = await openSandbox(db));
    // Another project of the tenant with a shared guard script, and a member of `lab` who is not one of `tools`.
    await s.gql(`mutation { createProject(name: "tools") { id } }`);
    const put = await s.gql(PUT, { layer: 'PROJECT', project: 'tools', path: '_vance/guards/shared.js', content: "vance.log('info', 'shared guard at ' + vance.guard.point);" });
    if (put.errors) throw new Error(JSON.stringify(put.errors));
    mia = (await s.gql(`mutation { createUser(login: "mia") { token } }`)).data!.createUser.token;
    await s.gql(`mutation { addProjectMember(project: "lab", login: "mia", role: MEMBER) { role } }`);
  });

  afterAll(async () => {
    await s?.close();
    await db?.close();
  });

  it('guard list and guard status report the recipe guards, their rounds and scratch keys, and change nothing', async () => {
    const id = await spawn('scratchy', 'status-notes');
    // The first guard continues once (round 1 of 2) and keeps `n` in its loop scratch, `total` in its session scratch.
    await runTurns(id, 'one', ADMIN_TOKEN, 2);
    const before = await stateOf(id);
    expect(before.guardRounds).toEqual({ 'recipe:0': 1 });

    const listed = await command(id, '//guard list');
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.engineCommand).toMatchObject({ ok: true, command: '//guard list', verb: 'guard', process: { id, guards: [] } });
    expect(listed.data!.engineCommand.detail.split('\n')).toEqual([
      '2 guards (2 from the recipe, 0 runtime):',
      '- inline guard #1 of the recipe [recipe:0]: recipe guard, trigger stop, maxRounds 2',
      '- inline guard #2 of the recipe [recipe:1]: recipe guard, trigger stop, maxRounds 3',
    ]);
    // The leading // is optional.
    const status = await command(id, 'guard status');
    expect(status.data!.engineCommand.detail.split('\n')).toEqual([
      'Guard status (rounds since the last user message):',
      '- inline guard #1 of the recipe [recipe:0]: round 1 of 2; loop scratch: n; session scratch: total',
      '- inline guard #2 of the recipe [recipe:1]: round 0 of 3; loop scratch: (empty); session scratch: (empty)',
    ]);
    expect(await stateOf(id)).toEqual(before);
    // What the COMMAND_RAN events show: the same text, no skill, no phase.
    const events = (await storedEvents(id, (e) => e.type === 'COMMAND_RAN' && e.text === 'guard status')).filter((e) => e.type === 'COMMAND_RAN');
    expect(events).toEqual([
      { type: 'COMMAND_RAN', command: '//guard list', verb: 'guard', skill: null, phase: null, index: null, text: '//guard list', args: 'list', detail: listed.data!.engineCommand.detail },
      { type: 'COMMAND_RAN', command: 'guard status', verb: 'guard', skill: null, phase: null, index: null, text: 'guard status', args: 'status', detail: status.data!.engineCommand.detail },
    ]);
  });

  it('installs runtime guards that guard list then shows with who installed them; guard clear removes them', async () => {
    const id = await spawn('scripted', 'runtime-guards');
    const installed = await command(id, '//guard script _vance/guards/llm-judge.js');
    expect(installed.data!.engineCommand).toMatchObject({
      ok: true, detail: "Installed the runtime guard script '_vance/guards/llm-judge.js'.",
      process: { guards: [{ kind: 'SCRIPT', path: '_vance/guards/llm-judge.js', body: null, installedBy: 'admin' }] },
    });
    // Idempotent: the same path again changes nothing.
    expect((await command(id, '//guard script ./_vance/guards/llm-judge.js')).data!.engineCommand.detail).toBe("The runtime guard script '_vance/guards/llm-judge.js' is already installed.");
    await command(id, "//guard inline\nvance.log('info', 'inline');");
    expect((await stateOf(id)).guards).toEqual([
      { kind: 'SCRIPT', path: '_vance/guards/llm-judge.js', installedBy: 'admin' },
      { kind: 'INLINE', path: null, installedBy: 'admin' },
    ]);
    const listed = (await command(id, '//guard list')).data!.engineCommand.detail.split('\n');
    expect(listed).toEqual([
      '2 guards (0 from the recipe, 2 runtime):',
      '- _vance/guards/llm-judge.js [runtime:_vance/guards/llm-judge.js]: runtime guard, trigger stop, maxRounds 3, installed by admin',
      expect.stringMatching(/^- inline runtime guard \[runtime:inline:[0-9a-f]{8}\]: runtime guard, trigger stop, maxRounds 3, installed by admin$/),
    ]);
    const cleared = await command(id, '//guard clear');
    expect(cleared.data!.engineCommand).toMatchObject({ ok: true, detail: 'Removed 2 runtime guards.', process: { guards: [] } });
    expect((await command(id, '//guard list')).data!.engineCommand.detail).toBe('No guards: the recipe has none and no runtime guard is installed.');
  });

  it('a malformed, unknown or wrong command is a typed error, is recorded as CommandFailed and changes nothing', async () => {
    const id = await spawn('scripted', 'bad-commands');
    await command(id, '//guard script _vance/guards/llm-judge.js');
    const before = await stateOf(id);
    const unknown = await command(id, '//foo bar');
    expect(errorOf(unknown)).toEqual({ code: 'BAD_USER_INPUT', domainCode: 'UNKNOWN_COMMAND', message: "Unknown command 'foo'; known: guard" });
    expect(unknown.errors![0]!.extensions!.diagnostics).toEqual([expect.objectContaining({ field: 'command' })]);
    const sub = await command(id, '//guard enable x');
    expect(errorOf(sub)).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'INVALID_COMMAND', message: expect.stringMatching(/^Unknown subcommand 'enable' of 'guard'; known: script, inline, clear, list, status/) });
    expect(errorOf(await command(id, '// guard clear'))).toMatchObject({ domainCode: 'INVALID_COMMAND', message: expect.stringContaining("right after '//'") });
    expect(errorOf(await command(id, '//guard script _vance/guards/x.ts'))).toMatchObject({ domainCode: 'INVALID_COMMAND', message: expect.stringContaining('needs a .js document') });
    expect(errorOf(await command(id, '//guard list everything'))).toMatchObject({ domainCode: 'INVALID_COMMAND', message: "'guard list' takes no arguments, got 'everything'" });
    expect(errorOf(await command(id, '   '))).toMatchObject({ domainCode: 'INVALID_COMMAND' });
    // Too long to read at all: refused before anything is recorded.
    expect(errorOf(await command(id, `//guard inline ${'x'.repeat(80_000)}`))).toMatchObject({ domainCode: 'INVALID_COMMAND', message: expect.stringMatching(/^A command may hold at most \d+ characters/) });
    expect(await stateOf(id)).toEqual(before);
    const failed = (await storedEvents(id, (e) => e.type === 'COMMAND_FAILED' && e.text === '')).filter((e) => e.type === 'COMMAND_FAILED');
    expect(failed.map((e) => [e.verb, e.code, e.skill, e.phase])).toEqual([
      ['foo', 'UNKNOWN_COMMAND', null, null], ['guard', 'INVALID_COMMAND', null, null], ['', 'INVALID_COMMAND', null, null],
      ['guard', 'INVALID_COMMAND', null, null], ['guard', 'INVALID_COMMAND', null, null], ['', 'INVALID_COMMAND', null, null],
    ]);
    expect(failed[0]).toMatchObject({ command: '//foo bar', args: 'bar', error: "Unknown command 'foo'; known: guard" });
    // A process the caller may not see is NOT_FOUND before the command is read.
    expect(errorOf(await command(id, '//guard clear', mia)).code).toBe('NOT_FOUND');
    expect(await stateOf(id)).toEqual(before);
  });

  it('the command guards see a direct command (no skill, no phase) before it runs and can refuse it', async () => {
    const id = await spawn('command-guarded', 'gated');
    // The recipe's command guard refuses `guard script …` and lets the rest through.
    const refused = await command(id, '//guard script _vance/guards/llm-judge.js');
    expect(errorOf(refused)).toEqual({ code: 'FORBIDDEN', domainCode: 'COMMAND_DENIED', message: "The command guard 'inline guard #1 of the recipe' refused it: no guard scripts: guard|script _vance/guards/llm-judge.js|||false" });
    expect((await stateOf(id)).guards).toEqual([]);
    const listed = await command(id, '//guard list');
    expect(listed.data!.engineCommand.detail).toBe('1 guard (1 from the recipe, 0 runtime):\n- inline guard #1 of the recipe [recipe:0]: recipe guard, trigger command, no rounds');
    // The guard's own scratch: it saw both commands.
    expect((await stateOf(id)).guardScratch).toEqual({ 'recipe:0': { loop: {}, session: { seen: 2 } } });
    const events = await storedEvents(id, (e) => e.type === 'COMMAND_RAN');
    expect(events.filter((e) => e.type !== 'PROCESS_SPAWNED')).toEqual([
      { type: 'GUARD_RAN', guard: 'inline guard #1 of the recipe', point: 'command', judged: '//guard script _vance/guards/llm-judge.js', denied: 'no guard scripts: guard|script _vance/guards/llm-judge.js|||false', failed: null },
      expect.objectContaining({ type: 'COMMAND_FAILED', verb: 'guard', code: 'COMMAND_DENIED', skill: null, phase: null }),
      { type: 'GUARD_RAN', guard: 'inline guard #1 of the recipe', point: 'command', judged: '//guard list', denied: null, failed: null },
      expect.objectContaining({ type: 'COMMAND_RAN', text: '//guard list' }),
    ]);
    // Fail-closed: a command guard that cannot run refuses every direct command too.
    const broken = await spawn('command-broken', 'gated-broken');
    expect(errorOf(await command(broken, '//guard list'))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'COMMAND_DENIED', message: expect.stringMatching(/could not run, so the command is refused: MISSING/) });
  });

  it('a guard path in another project the caller may read is installed and runs from there at the next turn', async () => {
    const id = await spawn('scripted', 'cross-project');
    const installed = await command(id, '//guard script //tools/_vance\\guards//shared.js');
    expect(installed.data!.engineCommand).toMatchObject({ ok: true, process: { guards: [{ kind: 'SCRIPT', path: '//tools/_vance/guards/shared.js', installedBy: 'admin' }] } });
    expect((await command(id, '//guard list')).data!.engineCommand.detail).toContain(
      '- //tools/_vance/guards/shared.js [runtime://tools/_vance/guards/shared.js]: runtime guard, trigger stop, maxRounds 3, installed by admin',
    );
    const events = await runTurns(id, 'hello');
    expect(events.filter((e) => e.type === 'ScriptLog').map((e) => e.payload)).toEqual([
      expect.objectContaining({ source: 'guard //tools/_vance/guards/shared.js', level: 'info', message: 'shared guard at stop' }),
    ]);
    expect(events.find((e) => e.type === 'GuardRan')!.payload).toMatchObject({ guard: '//tools/_vance/guards/shared.js', point: 'stop' });
    expect(events.find((e) => e.type === 'GuardRan')!.payload.failed).toBeUndefined();
  });

  it('a project the caller may not read is refused at install exactly as an unknown one, and nothing changes', async () => {
    const id = await spawn('scripted', 'mia-cross', mia);
    const unreadable = await command(id, '//guard script //tools/_vance/guards/shared.js', mia);
    const unknown = await command(id, '//guard script //nowhere/_vance/guards/shared.js', mia);
    expect(errorOf(unreadable)).toEqual({ code: 'NOT_FOUND', domainCode: 'NOT_FOUND', message: "Project 'tools' not found" });
    expect(errorOf(unknown)).toEqual({ code: 'NOT_FOUND', domainCode: 'NOT_FOUND', message: "Project 'nowhere' not found" });
    expect((await stateOf(id, mia)).guards).toEqual([]);
    // A malformed project name is bad input, not a lookup.
    expect(errorOf(await command(id, '//guard script //_tenant/_vance/guards/x.js', mia))).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'INVALID_COMMAND' });
  });

  it("a skill's activate: step with another project's path: saved as written, checked against the one who activates it", async () => {
    const skill = '---\ntitle: shared-guard\ndescription: Installs the shared guard\nversion: "1.0.0"\nactivate:\n  - guard script //tools/_vance/guards/shared.js\n---\nShared.\n';
    const saved = await s.gql(PUT, { layer: 'VANCE', path: '_vance/skills/shared-guard/SKILL.md', content: skill });
    expect(saved.errors).toBeUndefined();
    const mine = await spawn('scripted', 'mia-skill', mia);
    const refused = await s.gql(ACTIVATE, { id: mine, name: 'shared-guard' }, mia);
    expect(errorOf(refused)).toMatchObject({ domainCode: 'ACTIVATION_COMMAND_FAILED', message: expect.stringContaining("Project 'tools' not found") });
    expect((await stateOf(mine, mia)).guards).toEqual([]);
    const admins = await spawn('scripted', 'admin-skill');
    expect((await s.gql(ACTIVATE, { id: admins, name: 'shared-guard' })).errors).toBeUndefined();
    expect((await stateOf(admins)).guards).toEqual([{ kind: 'SCRIPT', path: '//tools/_vance/guards/shared.js', installedBy: 'admin' }]);
  });

  it('a project that becomes unreadable to the owner later: its guard fails as MISSING (fail-open), like a missing script', async () => {
    await s.gql(`mutation { addProjectMember(project: "tools", login: "mia", role: MEMBER) { role } }`);
    const id = await spawn('scripted', 'mia-later', mia);
    expect((await command(id, '//guard script //tools/_vance/guards/shared.js', mia)).data!.engineCommand.ok).toBe(true);
    expect((await command(id, '//guard script //tools/_vance/guards/gone.js', mia)).data!.engineCommand.ok).toBe(true);
    const first = await runTurns(id, 'hello', mia);
    expect(first.filter((e) => e.type === 'ScriptLog').map((e) => e.payload.message)).toEqual(['shared guard at stop']);
    const missing = "the guard script '_vance/guards/gone.js' does not exist in project 'tools' (or the process's owner may not read it)";
    expect(first.filter((e) => e.type === 'GuardRan').map((e) => e.payload.failed ?? null)).toEqual([null, { kind: 'MISSING', message: missing }]);
    // No mutation removes a member yet: the row goes, as an administrator's tool would remove it.
    await db.dataSource.query(
      `DELETE FROM project_members WHERE project_id = (SELECT id FROM projects WHERE name = 'tools') AND user_id = (SELECT id FROM users WHERE login = 'mia')`,
    );
    const later = await runTurns(id, 'again', mia);
    expect(later.filter((e) => e.type === 'ScriptLog')).toEqual([]);
    const ran = later.filter((e) => e.type === 'GuardRan').map((e) => e.payload);
    expect(ran.map((r) => [r.guard, r.failed, r.failOpen])).toEqual([
      ['//tools/_vance/guards/shared.js', { kind: 'MISSING', message: "the guard script '_vance/guards/shared.js' does not exist in project 'tools' (or the process's owner may not read it)" }, true],
      ['//tools/_vance/guards/gone.js', { kind: 'MISSING', message: missing }, true],
    ]);
    expect(later[later.length - 1]).toMatchObject({ type: 'TurnFinished' });
  });

  it('a non-owner acts within its view: the owner\'s USER-layer recipe guards are not listed to it, and the owner\'s listing of them is private', async () => {
    const recipe = ['description: Mine', 'engine: ford', 'params:', '  validation: false', 'guard:', '  - scriptBody: "vance.log(\'info\', \'mine\')"', '    trigger: stop'].join('\n');
    const put = await s.gql(PUT, { layer: 'USER', path: '_vance/recipes/mine.yaml', content: recipe }, mia);
    expect(put.errors).toBeUndefined();
    const id = await spawn('mine', 'mia-private', mia);
    // The owner sees the recipe guard; the listing's event is the owner's only.
    expect((await command(id, '//guard list', mia)).data!.engineCommand.detail).toBe('1 guard (1 from the recipe, 0 runtime):\n- inline guard #1 of the recipe [recipe:0]: recipe guard, trigger stop, maxRounds 3');
    // A tenant admin may steer the process, within its view: no recipe guards.
    expect((await command(id, '//guard list')).data!.engineCommand.detail).toBe('No guards: the recipe has none and no runtime guard is installed.');
    const installed = await command(id, '//guard inline vance.log("admin")');
    expect(installed.data!.engineCommand.process.guards).toEqual([{ kind: 'INLINE', path: null, body: 'vance.log("admin")', installedBy: 'admin' }]);
    // The admin's stream has its own commands, not the owner's private listing.
    const seen = (await storedEvents(id, (e) => e.type === 'COMMAND_RAN' && e.verb === 'guard' && e.args?.startsWith('inline'))).filter((e) => e.type === 'COMMAND_RAN');
    expect(seen.map((e) => [e.text, e.detail])).toEqual([
      ['//guard list', 'No guards: the recipe has none and no runtime guard is installed.'],
      ['//guard inline vance.log("admin")', expect.stringMatching(/^Installed the inline runtime guard/)],
    ]);
    const owners = (await storedEvents(id, (e) => e.type === 'COMMAND_RAN' && e.args?.startsWith('inline'), mia)).filter((e) => e.type === 'COMMAND_RAN');
    expect(owners.map((e) => e.text)).toEqual(['//guard list', '//guard list', '//guard inline vance.log("admin")']);
  });
});
