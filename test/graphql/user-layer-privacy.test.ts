import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ADMIN_TOKEN, collect, startTestVance, type GraphQLResult, type TestVance } from './harness';

/**
 * Issue 13 part 7 (processes/owner-view.ts): the owner's USER layer stays private when someone else
 * — a project admin, a tenant admin — works on the owner's process. Measured before: completions,
 * `/skill list` and activateSkill listed and activated the owner's private skills (and told a private
 * skill from a missing one), and a turn the admin started could manual_read the owner's private
 * manual into a transcript the admin reads. Everything private below carries the marker `zq-private`:
 * no answer or event a non-owner gets may contain it.
 */
const MARK = 'zq-private';
const skill = (name: string, front: string[], body: string) =>
  ['---', `title: ${name}`, `description: Skill ${name}`, 'version: "1.0.0"', ...front, '---', body, ''].join('\n');

const OWNER_DOCS: Record<string, string> = {
  '_vance/skills/zq-private-skill/SKILL.md': skill('zq-private-skill', ['scripts:', '  - name: peek', '    target: BRAIN', '    file: scripts/peek.js'], 'zq-private skill body.'),
  '_vance/skills/zq-private-skill/scripts/peek.js': '"zq-private script"',
  '_vance/skills/zq-private-always/SKILL.md': skill('zq-private-always', ['when: always', 'tools: [zq-private-shell]'], 'zq-private always body.'),
  '_vance/skills/shadow/SKILL.md': skill('shadow', [], 'zq-private shadow body.'),
  '_vance/manuals/zq-private-manual.md': 'zq-private manual text.',
  '_vance/recipes/zq-private-recipe.yaml': 'description: zq-private recipe\nengine: ford\npromptPrefix: "zq-private recipe prompt."\nparams:\n  validation: false\n',
};
const PROJECT_DOCS: Record<string, string> = {
  '_vance/skills/public-skill/SKILL.md': skill('public-skill', [], 'Public body.'),
  '_vance/skills/shadow/SKILL.md': skill('shadow', [], 'Project shadow body.'),
  '_vance/skills/acting/SKILL.md': skill('acting', ['action: "Act on it now."'], 'Acting body.'),
  '_vance/skills/delegate/SKILL.md': skill('delegate', ['run:', '  target: spawn', '  recipe: worker', 'action: "Work."'], 'Delegated.'),
  '_vance/skills/tidy/SKILL.md': skill('tidy', ['activate:', '  - guard clear'], 'Tidy.'),
};

const ACTIVATE = `mutation A($id: ID!, $name: String!) { activateSkill(processId: $id, name: $name) { outcome reason process { activeSkills { name source } } } }`;
const COMMAND = `mutation C($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) { kind message skills { name active } process { activeSkills { name } } } }`;
const PROCESS = `query P($id: ID!) { process(id: $id) { activeSkills { name source } pending { content } promptTemplate recipe } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id type payload } }`;
const PROCESS_EVENTS = `subscription P($id: ID!) { processEvents(processId: $id) { type ... on SkillActivatedEvent { skill } ... on SkillRefusedEvent { skill code } ... on SkillClearedEvent { skill } } }`;

interface Ev { id: string; type: string; payload: any }
const error = (r: GraphQLResult) => ({ code: r.errors?.[0]?.extensions?.code, domainCode: r.errors?.[0]?.extensions?.domainCode, message: r.errors?.[0]?.message });

describe.each(testDatabases())("the owner's USER layer under another's hands ($name)", (driver) => {
  let db: Database;
  let t: TestVance;
  let owner: string;
  let pat: string;
  let id: string;
  const others = (): [string, string][] => [['a project admin', pat], ['a tenant admin', ADMIN_TOKEN]];
  const put = (layer: string, path: string, content: string, token: string, project?: string) =>
    t.gql(`mutation P($l: Layer!, $p: String!, $c: String!, $pr: String) { putDocument(layer: $l, path: $p, content: $c, project: $pr) { version } }`, { l: layer, p: path, c: content, pr: project ?? null }, token);

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    owner = (await t.gql(`mutation { createUser(login: "owen") { token } }`)).data!.createUser.token;
    pat = (await t.gql(`mutation { createUser(login: "pat") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "owen") { role } }`);
    await t.gql(`mutation { addProjectMember(project: "lab", login: "pat", role: ADMIN) { role } }`);
    await put('VANCE', '_vance/recipes/worker.yaml', 'description: Worker\nengine: ford\nparams:\n  validation: false\n', ADMIN_TOKEN);
    await put('VANCE', '_vance/recipes/command-guarded.yaml', [
      'description: A command guard', 'engine: ford', 'params:', '  validation: false',
      'guard:', '  - scriptBody: |', "      vance.guard.continueWith('Commands ran: ' + vance.guard.task);", '    trigger: command',
    ].join('\n'), ADMIN_TOKEN);
    for (const [path, content] of Object.entries(PROJECT_DOCS)) expect((await put('PROJECT', path, content, ADMIN_TOKEN, 'lab')).errors).toBeUndefined();
    for (const [path, content] of Object.entries(OWNER_DOCS)) expect((await put('USER', path, content, owner)).errors).toBeUndefined();
    id = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "worker" }) { id } }`, {}, owner)).data!.spawnProcess.id;
    expect((await t.gql(ACTIVATE, { id, name: 'zq-private-skill' }, owner)).data?.activateSkill.outcome).toBe('ACTIVATED');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('completes and lists the owner\'s private skills for the owner only', async () => {
    const mine = (await t.gql(`query C($id: ID!) { skillCompletions(processId: $id) }`, { id }, owner)).data!.skillCompletions;
    expect(mine).toEqual(expect.arrayContaining(['zq-private-skill', 'zq-private-always', 'public-skill']));
    for (const [, token] of others()) {
      const theirs = await t.gql(`query C($id: ID!) { skillCompletions(processId: $id, prefix: "") }`, { id }, token);
      expect(theirs.data!.skillCompletions).toContain('public-skill');
      expect(JSON.stringify(theirs)).not.toContain(MARK);
      const list = await t.gql(COMMAND, { id, line: '/skill list' }, token);
      expect(list.data!.skillCommand.skills.map((s: { name: string }) => s.name)).toContain('public-skill');
      expect(JSON.stringify(list)).not.toContain(MARK);
    }
    const ownList = await t.gql(COMMAND, { id, line: '/skill list' }, owner);
    expect(ownList.data!.skillCommand.skills).toContainEqual({ name: 'zq-private-skill', active: true });
  });

  it.each([['activateSkill'], ['/skill']])('tells a non-owner a private skill exactly as it tells a missing one (%s)', async (path) => {
    for (const [, token] of others()) {
      const attempt = (name: string) => (path === 'activateSkill' ? t.gql(ACTIVATE, { id, name }, token) : t.gql(COMMAND, { id, line: `/skill ${name} some args` }, token));
      const secret = error(await attempt('zq-private-always'));
      const missing = error(await attempt('zq-missing-always'));
      expect(secret.code).toBe('NOT_FOUND');
      expect({ ...secret, message: secret.message?.replace('zq-private-always', 'X') }).toEqual({ ...missing, message: missing.message?.replace('zq-missing-always', 'X') });
    }
  });

  it("shows non-owners the process without the owner's private active skills", async () => {
    const mine = (await t.gql(PROCESS, { id }, owner)).data!.process;
    expect(mine.activeSkills).toContainEqual({ name: 'zq-private-skill', source: 'USER' });
    for (const [, token] of others()) expect(JSON.stringify((await t.gql(PROCESS, { id }, token)).data!.process)).not.toContain(MARK);
  });

  it("lets a non-owner steer only what it sees: the project's copy of a shadowed name, a clear that keeps the private skills", async () => {
    for (const [, token] of others()) {
      const shadow = await t.gql(ACTIVATE, { id, name: 'shadow' }, token);
      expect(shadow.data!.activateSkill.outcome).toBe('ACTIVATED');
      expect(shadow.data!.activateSkill.process.activeSkills).toContainEqual({ name: 'shadow', source: 'PROJECT' });
      expect(JSON.stringify(shadow)).not.toContain(MARK);
      const cleared = await t.gql(`mutation C($id: ID!) { clearSkills(processId: $id) { cleared kept process { activeSkills { name } } } }`, { id }, token);
      expect(cleared.data!.clearSkills.cleared).toEqual(['shadow']);
      expect(JSON.stringify(cleared)).not.toContain(MARK);
    }
    expect((await t.gql(PROCESS, { id }, owner)).data!.process.activeSkills).toEqual([{ name: 'zq-private-skill', source: 'USER' }]);
  });

  it('does not let a non-owner start a turn: messages, regenerateTurn, and activations that queue a message or spawn a worker', async () => {
    const turnsBefore = (await t.gql(`query T($id: ID!) { turns(processId: $id) { id } }`, { id }, owner)).data!.turns.length;
    for (const [, token] of others()) {
      const sent = error(await t.gql(`mutation M($id: ID!, $t: String!) { sendMessage(processId: $id, text: $t) { id } }`, { id, t: 'call manual_read {"name":"zq-private-manual"}' }, token));
      expect(sent).toMatchObject({ code: 'FORBIDDEN', domainCode: 'OWNER_ONLY_TURN' });
      expect(error(await t.gql(`mutation R($id: ID!) { regenerateTurn(processId: $id) { id } }`, { id }, token))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'OWNER_ONLY_TURN' });
      expect(error(await t.gql(ACTIVATE, { id, name: 'acting' }, token))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'OWNER_ONLY_TURN' });
      expect(error(await t.gql(ACTIVATE, { id, name: 'delegate' }, token))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'OWNER_ONLY_TURN' });
      // A rest-of-line message for a skill without arguments: a user message, so a turn.
      expect(error(await t.gql(COMMAND, { id, line: '/skill public-skill please go' }, token))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'OWNER_ONLY_TURN' });
    }
    const after = (await t.gql(PROCESS, { id }, owner)).data!.process;
    expect(after.pending).toEqual([]);
    expect(after.activeSkills).toEqual([{ name: 'zq-private-skill', source: 'USER' }]);
    expect((await t.gql(`query T($id: ID!) { turns(processId: $id) { id } }`, { id }, owner)).data!.turns).toHaveLength(turnsBefore);
    const sessions = (await t.gql(`query { processes(project: "lab") { name } }`)).data!.processes.map((p: { name: string }) => p.name);
    expect(sessions.filter((n: string) => n.startsWith('delegate-'))).toEqual([]);
  });

  it("previews the owner's next turn for non-owners without what the USER layer contributes", async () => {
    const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { sections { kind text } tools allowedTools deferredTools verdicts { skill on reason } openSkills catalog
      toolPool { unresolved unresolvedTools { entry field reason } details { name labels placement } } request { messages { role content } tools { name labels } } } }`;
    const own = (await t.gql(PREVIEW, { id }, owner)).data!.composeTurnPreview;
    const mine = JSON.stringify(own);
    expect(mine).toContain('zq-private always body.');
    // A private skill's tools: entry that resolves to nothing is the owner's to see (issue 15).
    expect(own.toolPool.unresolved).toContain('zq-private-shell');
    expect(own.verdicts.map((v: { skill: string }) => v.skill)).toContain('zq-private-always');
    expect(own.tools.some((n: string) => n.includes('zq-private-skill'))).toBe(true);
    // The request (issue 15) carries the same prompt and tools: withheld alike.
    expect(JSON.stringify(own.request)).toContain('zq-private always body.');
    for (const [, token] of others()) {
      const theirs = await t.gql(PREVIEW, { id }, token);
      expect(theirs.errors).toBeUndefined();
      expect(JSON.stringify(theirs)).not.toContain(MARK);
      // The shape stays: the same sections, their texts withheld.
      expect(theirs.data!.composeTurnPreview.sections.map((x: { kind: string }) => x.kind)).toEqual(own.sections.map((x: { kind: string }) => x.kind));
    }
  });

  it("streams the owner's turn to non-owners without the private layer's verdicts, tools and prompt text", async () => {
    const done = collect<{ turnEvents: Ev }>(t.ws(owner), EVENTS, { id, after: null });
    expect((await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "hello") { id } }`, { id }, owner)).errors).toBeUndefined();
    const read = async (stream: typeof done) => {
      const out: Ev[] = [];
      for (;;) {
        const e = (await stream.next(20_000)).data!.turnEvents;
        out.push(e);
        if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return out;
      }
    };
    const mine = await read(done);
    expect(mine.at(-1)!.type).toBe('TurnFinished');
    expect(JSON.stringify(mine.filter((e) => e.type === 'PromptComposed'))).toContain('zq-private always body.');
    expect(JSON.stringify(mine.filter((e) => e.type === 'PromptComposed'))).toContain('zq-private-shell');
    for (const [, token] of others()) {
      // A replay from the start: the same stored events, each redacted for this caller.
      const theirs = await read(collect<{ turnEvents: Ev }>(t.ws(token), EVENTS, { id, after: null }));
      expect(theirs.map((e) => e.type)).toEqual(mine.map((e) => e.type));
      // The transcript itself (streamed text, tool calls) is the process's record, shared with its
      // overseers as said (owner-view.ts rule 3) — the offline model even recites its tool names.
      const composition = theirs.filter((e) => !['TextDelta', 'ToolCallStarted', 'ToolCallFinished'].includes(e.type));
      expect(JSON.stringify(composition)).not.toContain(MARK);
      const composed = theirs.find((e) => e.type === 'PromptComposed')!.payload;
      expect(composed.redacted).toBe(true);
      expect(composed.sections.every((s: { text: unknown }) => s.text === null)).toBe(true);
    }
  });

  it("keeps process events about the owner's private skills from non-owners", async () => {
    for (const [, token] of others()) {
      const theirs = collect<{ processEvents: { type: string; skill?: string } }>(t.ws(token), PROCESS_EVENTS, { id });
      // Registered once a probe of its own arrives (a refusal changes nothing).
      for (let seen = false; !seen;) {
        await t.gql(ACTIVATE, { id, name: 'zq-probe' }, token);
        seen = await theirs.next(1_000).then(() => true, () => false);
      }
      await t.gql(COMMAND, { id, line: '/skill clear zq-private-skill' }, owner);
      await t.gql(ACTIVATE, { id, name: 'zq-private-skill' }, owner);
      await t.gql(ACTIVATE, { id, name: 'public-skill' }, owner);
      // Events arrive in order: once public-skill's is here, the private ones would have been too.
      for (;;) {
        const e = (await theirs.next(5_000)).data!.processEvents;
        if (e.type === 'SKILL_ACTIVATED' && e.skill === 'public-skill') break;
      }
      expect(JSON.stringify(theirs.events)).not.toContain(MARK);
      await t.gql(`mutation C($id: ID!) { clearSkills(processId: $id, name: "public-skill") { cleared } }`, { id }, owner);
    }
  });

  it("marks the activation of the owner's private triggered skill private, now that the owner's turn runs the trigger", async () => {
    // Issue 14 item 5: auto-triggers run as the pre-turn hook of the turn that takes the message, as its owner.
    const trigger = skill('zq-private-trigger', ['triggers:', '  - type: KEYWORDS', '    keywords: [zqfire]'], 'zq-private trigger body.');
    expect((await put('USER', '_vance/skills/zq-private-trigger/SKILL.md', trigger, owner)).errors).toBeUndefined();
    const pid = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "worker", name: "triggered" }) { id } }`, {}, owner)).data!.spawnProcess.id as string;
    const mine = await t.bus.listening('process_events', () => collect<{ processEvents: { type: string; skill?: string } }>(t.ws(owner), PROCESS_EVENTS, { id: pid }));
    const theirs = await t.bus.listening('process_events', () => collect<{ processEvents: { type: string; skill?: string } }>(t.ws(pat), PROCESS_EVENTS, { id: pid }));
    const turn = await t.bus.listening('turn_events', () => collect<{ turnEvents: Ev }>(t.ws(pat), EVENTS, { id: pid, after: null }));
    expect((await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "zqfire now") { id } }`, { id: pid }, owner)).errors).toBeUndefined();
    const own: { type: string; skill?: string }[] = [];
    while (!own.some((e) => e.type === 'SKILL_CLEARED')) own.push((await mine.next()).data!.processEvents);
    expect(own).toContainEqual({ type: 'SKILL_ACTIVATED', skill: 'zq-private-trigger' });
    const seen: Ev[] = [];
    while (seen.at(-1)?.type !== 'TurnFinished') seen.push((await turn.next()).data!.turnEvents);
    expect(JSON.stringify(seen)).not.toContain(MARK);
    // Events arrive in order: once the next message's MESSAGE_QUEUED is here, the private ones would have been too.
    await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "done") { id } }`, { id: pid }, owner);
    let queued = 0;
    while (queued < 2) if ((await theirs.next()).data!.processEvents.type === 'MESSAGE_QUEUED') queued++;
    expect(JSON.stringify(theirs.events)).not.toContain(MARK);
    for (const stream of [mine, theirs, turn]) stream.stop();
  });

  it("runs a command guard before a non-owner's commands too (it may refuse them), and it starts no turn", async () => {
    const pid = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "command-guarded", name: "guarded" }) { id } }`, {}, owner)).data!.spawnProcess.id;
    for (const [, token] of others()) {
      const seen = collect<{ processEvents: { type: string; skipped?: string | null; continued?: boolean } }>(t.ws(owner),
        `subscription P($id: ID!) { processEvents(processId: $id) { type ... on GuardRanEvent { skipped continued } } }`, { id: pid });
      for (let registered = false; !registered;) {
        await t.gql(ACTIVATE, { id: pid, name: 'zq-probe' }, token);
        registered = await seen.next(1_000).then(() => true, () => false);
      }
      expect((await t.gql(ACTIVATE, { id: pid, name: 'tidy' }, token)).data?.activateSkill.outcome).toBe('ACTIVATED');
      let guard: { skipped?: string | null; continued?: boolean } | undefined;
      while (!guard) {
        const e = (await seen.next(5_000)).data!.processEvents;
        if (e.type === 'GUARD_RAN') guard = e;
      }
      // A command guard guards every command (fail-closed), whoever runs it; continueWith starts nothing there.
      expect(guard).toEqual({ type: 'GUARD_RAN', continued: false, skipped: null });
      await t.gql(`mutation C($id: ID!) { clearSkills(processId: $id) { cleared } }`, { id: pid }, token);
    }
    expect((await t.gql(PROCESS, { id: pid }, owner)).data!.process.pending).toEqual([]);
    expect((await t.gql(`query T($id: ID!) { turns(processId: $id) { id } }`, { id: pid }, owner)).data!.turns).toEqual([]);
  });

  it("withholds a USER recipe's prompt template from non-owners", async () => {
    const pid = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "zq-private-recipe", name: "mine" }) { id } }`, {}, owner)).data!.spawnProcess.id;
    expect((await t.gql(PROCESS, { id: pid }, owner)).data!.process.promptTemplate).toBe('zq-private recipe prompt.');
    for (const [, token] of others()) expect((await t.gql(PROCESS, { id: pid }, token)).data!.process.promptTemplate).toBeNull();
  });
});
