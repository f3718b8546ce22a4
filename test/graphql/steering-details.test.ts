import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 16, steering details (seed 000 §2a, §2c, §9) through the GraphQL API: what a command step's
 * event says, how spawn-skill workers are named, when `action:` fires, a worker's title and goal.
 */
const PUT = `mutation Put($path: String!, $content: String!, $force: Boolean) { putDocument(layer: VANCE, path: $path, content: $content, force: $force) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id name } }`;
const COMMAND = `mutation C($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) {
  message activation { outcome child { id name parentId } } process { activeSkills { name } guards { kind } pending { sender content } }
} }`;
const STEP = 'skill phase index text verb args command';
// Aliases where the event types disagree on a field's nullability.
const EVENTS = `subscription E($id: ID!, $after: ID) { processEvents(processId: $id, afterEventId: $after) { type
  ... on CommandRanEvent { ${STEP} detail } ... on CommandFailedEvent { ${STEP} error code } ... on SkillRefusedEvent { refused: skill refusal: code reason }
  ... on SkillClearedEvent { cleared: skill } } }`;

const skill = (name: string, extra = '', body = `The ${name} method.`) =>
  `---\ntitle: ${name}\ndescription: Skill ${name}\nversion: "1.0.0"\n${extra}---\n${body}\n`;

const INLINE = 'guard inline\n  if (vance.guard.output === "") {\n    vance.guard.continueWith("Go on.");\n  }';

type Ev = Record<string, unknown> & { type: string };

describe.each(testDatabases())('steering details ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    // The inbox is inspected here; turns that take it are not the point.
    t = await startTestVance(db, {}, { runTurns: false });
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    const docs: Record<string, string> = {
      '_vance/recipes/open.yaml': 'description: Open worker\nengine: ford\n',
      '_vance/skills/guardy/SKILL.md': skill('guardy', `activate:\n  - guard script _vance/guards/a.js\n  - |\n${INLINE.split('\n').map((l) => `    ${l}`).join('\n')}\ndeactivate:\n  - guard clear\n`),
      '_vance/skills/announcer/SKILL.md': skill('announcer', 'triggers:\n  - type: KEYWORDS\n    keywords: [release]\naction: "Announce the release."\n'),
      '_vance/skills/spawny/SKILL.md': skill('spawny', 'arguments: true\nrun:\n  target: spawn\n  recipe: open\naction: "Review {{ args.text }} now."\n').replace('title: spawny', 'title: Spawny Review'),
    };
    for (const [path, content] of Object.entries(docs)) {
      const r = await t.gql(PUT, { path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
    // Saved over its error (force): its second step fails when it runs.
    const broken = await t.gql(PUT, { path: '_vance/skills/broken/SKILL.md', force: true, content: skill('broken', 'activate:\n  - guard script _vance/guards/a.js\n  - guard bogus thing\n  - guard clear\n') });
    if (broken.errors) throw new Error(JSON.stringify(broken.errors));
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const spawn = async (input: Record<string, unknown> = {}): Promise<string> => {
    const r = await t.gql(SPAWN, { input: { project: 'ops', recipe: 'open', ...input } });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data!.spawnProcess.id;
  };
  /** Every stored event of the process up to and including the first `last` accepts. */
  async function eventsUntil(id: string, last: (e: Ev) => boolean): Promise<Ev[]> {
    const stream = collect<{ processEvents: Ev }>(t.ws(), EVENTS, { id, after: '0' });
    const seen: Ev[] = [];
    try {
      while (!seen.some(last)) seen.push((await stream.next()).data!.processEvents);
    } finally {
      stream.stop();
    }
    return seen;
  }

  // Before: { command, verb, detail } only — no skill, no phase, the step cut to its first line.
  it('a CommandRan event names its skill and phase and carries the step in full (verb, args)', async () => {
    const id = await spawn();
    expect((await t.gql(COMMAND, { id, line: '/skill guardy' })).errors).toBeUndefined();
    expect((await t.gql(COMMAND, { id, line: '/skill clear guardy' })).errors).toBeUndefined();
    const steps = (await eventsUntil(id, (e) => e.type === 'SKILL_CLEARED')).filter((e) => e.type.startsWith('COMMAND_'));
    expect(steps).toEqual([
      {
        type: 'COMMAND_RAN', skill: 'guardy', phase: 'ACTIVATE', index: 0, verb: 'guard', args: 'script _vance/guards/a.js',
        text: 'guard script _vance/guards/a.js', command: 'guard script _vance/guards/a.js', detail: expect.stringContaining('a.js'),
      },
      {
        type: 'COMMAND_RAN', skill: 'guardy', phase: 'ACTIVATE', index: 1, verb: 'guard', args: INLINE.slice('guard '.length),
        text: INLINE, command: 'guard inline …', detail: expect.any(String),
      },
      { type: 'COMMAND_RAN', skill: 'guardy', phase: 'DEACTIVATE', index: 0, verb: 'guard', args: 'clear', text: 'guard clear', command: 'guard clear', detail: 'Removed 2 runtime guards.' },
    ]);
  });

  // Before: the refusal said "activate command 'guard bogus thing' failed" — not which step — and no COMMAND_FAILED event was sent.
  it('a failing activate: step is reported with its index and text, as the error and as a CommandFailed event; nothing is activated', async () => {
    const id = await spawn();
    const r = await t.gql(COMMAND, { id, line: '/skill broken' });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.extensions!.domainCode).toBe('ACTIVATION_COMMAND_FAILED');
    expect(r.errors![0]!.message).toContain("activate command 'guard bogus thing' failed at activate[1] (step 2 of 3)");
    expect(r.errors![0]!.extensions!.diagnostics).toMatchObject([{ severity: 'ERROR', field: 'activate[1]' }]);
    const events = await eventsUntil(id, (e) => e.type === 'SKILL_REFUSED');
    expect(events.filter((e) => e.type.startsWith('COMMAND_') || e.type === 'SKILL_REFUSED')).toEqual([
      {
        type: 'COMMAND_FAILED', skill: 'broken', phase: 'ACTIVATE', index: 1, verb: 'guard', args: 'bogus thing', text: 'guard bogus thing',
        command: 'guard bogus thing', error: expect.stringContaining('bogus'), code: expect.any(String),
      },
      { type: 'SKILL_REFUSED', refused: 'broken', refusal: 'ACTIVATION_COMMAND_FAILED', reason: r.errors![0]!.message },
    ]);
    const p = (await t.gql(`query P($id: ID!) { process(id: $id) { activeSkills { name } guards { kind } } }`, { id })).data!.process;
    expect(p).toEqual({ activeSkills: [], guards: [] });
  });

  // Before: the first free index — 'spawny-1' here, filling the gap below an existing 'spawny-2'.
  it('names spawn-skill workers <skill>-<n>, n one above the highest suffix in the session, gaps and all', async () => {
    const session = 'naming';
    const caller = await spawn({ session });
    await spawn({ session, name: 'spawny-2' });
    await spawn({ session, name: 'spawny-x' });
    const first = (await t.gql(COMMAND, { id: caller, line: '/skill spawny a.ts' })).data!.skillCommand.activation;
    expect(first).toMatchObject({ outcome: 'SPAWNED', child: { name: 'spawny-3', parentId: caller } });
    const second = (await t.gql(COMMAND, { id: caller, line: '/skill spawny b.ts' })).data!.skillCommand.activation;
    expect(second.child.name).toBe('spawny-4');
    // Another session counts its own.
    const elsewhere = await spawn({ session: 'other' });
    expect((await t.gql(COMMAND, { id: elsewhere, line: '/skill spawny' })).data!.skillCommand.activation.child.name).toBe('spawny-1');
  });

  // Before: a process had neither; a spawn skill's worker was known by its name alone.
  it("a spawn skill's worker carries the skill's title and its rendered action as goal, readable on Process", async () => {
    const caller = await spawn({ session: 'titled' });
    const child = (await t.gql(COMMAND, { id: caller, line: '/skill spawny src/parser.ts' })).data!.skillCommand.activation.child;
    const p = (await t.gql(`query P($id: ID!) { process(id: $id) { title goal parentId pending { content } } }`, { id: child.id })).data!.process;
    expect(p).toEqual({ title: 'Spawny Review', goal: 'Review src/parser.ts now.', parentId: caller, pending: [{ content: 'Review src/parser.ts now.' }] });
    const own = (await t.gql(`query P($id: ID!) { process(id: $id) { title goal } }`, { id: caller })).data!.process;
    expect(own).toEqual({ title: null, goal: null });
  });

  it('spawnProcess records a title and a goal (trimmed, blank is none); an over-long one is refused and nothing is created', async () => {
    const r = await t.gql(`mutation { spawnProcess(input: { project: "ops", recipe: "open", session: "given", name: "given-1", title: "  Parser audit ", goal: "Audit the parser." }) { title goal pending { content } } }`);
    expect(r.data?.spawnProcess).toEqual({ title: 'Parser audit', goal: 'Audit the parser.', pending: [] });
    const blank = await t.gql(`mutation { spawnProcess(input: { project: "ops", recipe: "open", session: "given", title: "  " }) { title goal } }`);
    expect(blank.data?.spawnProcess).toEqual({ title: null, goal: null });
    const long = await t.gql(SPAWN, { input: { project: 'ops', recipe: 'open', session: 'given', name: 'given-2', title: 'x'.repeat(201) } });
    expect(codeOf(long)).toBe('BAD_USER_INPUT');
    expect(long.errors![0]!.extensions!.diagnostics).toMatchObject([{ field: 'title' }]);
    const names = ((await t.gql(`query { processes(project: "ops") { name } }`)).data!.processes as { name: string }[]).map((x) => x.name);
    expect(names).not.toContain('given-2');
  });

  it('a fresh /skill fires the action: as one SKILL message', async () => {
    const id = await spawn();
    const r = (await t.gql(COMMAND, { id, line: '/skill announcer' })).data!.skillCommand;
    expect(r.process.pending).toEqual([{ sender: 'SKILL', content: 'Announce the release.' }]);
  });
});
