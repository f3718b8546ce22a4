import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ADMIN_TOKEN, codeOf, eventually, startTestVance, type TestVance } from './harness';

/**
 * Issue 17 point 6: the stored turn and process events as queries (turnEventLog, processEventLog),
 * for the dashboard's activation log — paged by event id, with the subscriptions' view: what the
 * owner's USER layer contributed (marker `zq-private`) reaches the owner only.
 */
const skill = (name: string, front: string[]) =>
  ['---', `title: ${name}`, `description: Skill ${name}`, 'version: "1.0.0"', ...front, '---', `Body of ${name}.`, ''].join('\n');
const PUT = `mutation P($l: Layer!, $p: String!, $c: String!, $pr: String) { putDocument(layer: $l, path: $p, content: $c, project: $pr) { version } }`;
const TURN_LOG = `query T($id: ID!, $after: ID, $limit: Int) { turnEventLog(processId: $id, afterEventId: $after, limit: $limit) { id turnId type payload } }`;
const PROCESS_LOG = `query L($id: ID!, $after: ID, $limit: Int) { processEventLog(processId: $id, afterEventId: $after, limit: $limit) {
  id type ... on SkillActivatedEvent { skill reason } ... on SkillRefusedEvent { skill code reason } } }`;

interface Row { id: string; type: string; skill?: string; payload?: unknown }

describe.each(testDatabases())('stored events as queries ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let owner: string;
  let pat: string;
  let outsider: string;
  let id: string;

  const log = async (query: string, field: string, token: string, vars: Record<string, unknown> = {}): Promise<Row[]> => {
    const r = await t.gql(query, { id, ...vars }, token);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data![field];
  };
  /** Every event, read `limit` at a time, paging on the last id. */
  const paged = async (query: string, field: string, token: string, limit: number): Promise<Row[]> => {
    const all: Row[] = [];
    for (;;) {
      const page = await log(query, field, token, { after: all.at(-1)?.id ?? null, limit });
      all.push(...page);
      if (page.length < limit) return all;
    }
  };

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, {}, { runTurns: true });
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    await t.gql(`mutation { createProject(name: "other") { id } }`);
    owner = (await t.gql(`mutation { createUser(login: "owen") { token } }`)).data!.createUser.token;
    pat = (await t.gql(`mutation { createUser(login: "pat") { token } }`)).data!.createUser.token;
    outsider = (await t.gql(`mutation { createUser(login: "olga") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "owen") { role } }`);
    await t.gql(`mutation { addProjectMember(project: "lab", login: "pat", role: ADMIN) { role } }`);
    await t.gql(`mutation { addProjectMember(project: "other", login: "olga") { role } }`);
    await t.gql(PUT, { l: 'VANCE', p: '_vance/recipes/worker.yaml', c: 'description: Worker\nengine: ford\nparams:\n  validation: false\n' }, ADMIN_TOKEN);
    expect((await t.gql(PUT, { l: 'PROJECT', p: '_vance/skills/deployer/SKILL.md', c: skill('deployer', ['triggers:', '  - type: KEYWORDS', '    keywords: [deploy]', '    minMatch: 1']), pr: 'lab' })).errors).toBeUndefined();
    expect((await t.gql(PUT, { l: 'PROJECT', p: '_vance/skills/public-skill/SKILL.md', c: skill('public-skill', []), pr: 'lab' })).errors).toBeUndefined();
    expect((await t.gql(PUT, { l: 'USER', p: '_vance/skills/zq-private-skill/SKILL.md', c: skill('zq-private-skill', []) }, owner)).errors).toBeUndefined();
    id = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "worker" }) { id } }`, {}, owner)).data!.spawnProcess.id;
    const command = `mutation C($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) { kind } }`;
    for (const line of ['/skill zq-private-skill', '/skill public-skill', '/skill no-such-skill']) await t.gql(command, { id, line }, owner);
    expect((await t.gql(`mutation S($id: ID!) { sendMessage(processId: $id, text: "please deploy it") { id } }`, { id }, owner)).errors).toBeUndefined();
    await eventually(async () => (await log(TURN_LOG, 'turnEventLog', owner)).some((e) => e.type === 'TurnFinished'), 50);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('reads the stored process events from the first, oldest first, and pages on the last id', async () => {
    const all = await log(PROCESS_LOG, 'processEventLog', owner);
    const steps = all.filter((e) => e.type === 'SKILL_ACTIVATED' || e.type === 'SKILL_REFUSED').map((e) => [e.type, e.skill]);
    expect(steps).toEqual(expect.arrayContaining([['SKILL_ACTIVATED', 'zq-private-skill'], ['SKILL_ACTIVATED', 'public-skill'], ['SKILL_REFUSED', 'no-such-skill']]));
    expect(all[0]!.type).toBe('PROCESS_SPAWNED');
    expect(all.map((e) => BigInt(e.id))).toEqual([...all.map((e) => BigInt(e.id))].sort((a, b) => (a < b ? -1 : 1)));
    expect(await paged(PROCESS_LOG, 'processEventLog', owner, 2)).toEqual(all);
    expect(await log(PROCESS_LOG, 'processEventLog', owner, { after: all.at(-1)!.id })).toEqual([]);
  });

  it('reads the stored turn events: the turn, its verdicts (the trigger\'s sentence) and its prompt, paged', async () => {
    const all = await log(TURN_LOG, 'turnEventLog', owner, { limit: 1000 });
    const types = all.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TurnStarted', 'SkillVerdicts', 'PromptComposed', 'TurnFinished']));
    const verdicts = all.find((e) => e.type === 'SkillVerdicts')!.payload as { verdicts: { skill: string; on: boolean; reason: string }[] };
    expect(verdicts.verdicts).toEqual(expect.arrayContaining([expect.objectContaining({ skill: 'deployer', on: true, reason: expect.stringMatching(/deploy/) })]));
    expect(await paged(TURN_LOG, 'turnEventLog', owner, 3)).toEqual(all);
  });

  it('gives others the subscriptions\' view: nothing of the owner\'s USER layer', async () => {
    const theirs = await log(PROCESS_LOG, 'processEventLog', pat);
    expect(theirs.some((e) => e.skill === 'public-skill')).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain('zq-private');
    // Withheld events do not count against the limit: one at a time reads the same visible list.
    expect(await paged(PROCESS_LOG, 'processEventLog', pat, 1)).toEqual(theirs);
    const turn = await log(TURN_LOG, 'turnEventLog', pat, { limit: 1000 });
    expect(turn.some((e) => e.type === 'SkillVerdicts')).toBe(true);
    expect(JSON.stringify(turn)).not.toContain('zq-private');
    expect(JSON.stringify(await log(TURN_LOG, 'turnEventLog', owner, { limit: 1000 }))).toContain('zq-private');
  });

  it('refuses a bad page with a typed error and hides another project\'s process', async () => {
    for (const query of [TURN_LOG, PROCESS_LOG]) {
      for (const vars of [{ limit: 0 }, { limit: 1001 }, { after: 'abc' }, { after: '-1' }]) {
        const r = await t.gql(query, { id, ...vars }, owner);
        expect(codeOf(r)).toBe('BAD_USER_INPUT');
        expect(r.errors![0]!.extensions?.domainCode).toMatch(/^INVALID_(LIMIT|EVENT_ID)$/);
      }
      expect(codeOf(await t.gql(query, { id }, outsider))).toBe('NOT_FOUND');
      expect(codeOf(await t.gql(query, { id: '00000000-0000-4000-8000-000000000000' }, owner))).toBe('NOT_FOUND');
    }
  });
});
