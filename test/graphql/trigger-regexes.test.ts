import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 13, part 1, end to end, as the measured attack ran: an ordinary account (a tenant member who
 * administers its own project) saves a PROJECT skill whose PATTERN trigger `(a{1,5})+b` took 4 min 38 s
 * on 34 × `a` and froze /healthz. It saves with a backtracking WARNING; each message completes its
 * turn, and the server answers other requests while they are matched. No timing is asserted: on the
 * old engine these turns would not end within the test's timeout, and the queries sent meanwhile
 * would not be answered before them.
 *
 * The analysis gets a generous limit (VANCE_REGEX_CHECK_TIMEOUT_MS) so that a loaded machine still
 * reaches its verdict; the default limit is tested in regex-analysis/.
 */
const ATTACK = '(a{1,5})+b';
const SKILL_PATH = '_vance/skills/attack/SKILL.md';
const SKILL = ['---', 'title: Attack', 'description: Fires on a run of a ending in b', 'version: 1.0.0', 'triggers:', '  - type: PATTERN', `    pattern: '${ATTACK}'`, '---', 'The attack skill is on.'].join('\n');

const PUT = `mutation Put($path: String!, $content: String!) {
  putDocument(layer: PROJECT, project: "lab", path: $path, content: $content) { version diagnostics { severity message line column field } } }`;
const VALIDATE = `query V($path: String!, $content: String!) { validateDocument(path: $path, content: $content) { severity message field } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;

interface Ev { id: string; type: string; payload: any }

describe.each(testDatabases())('trigger regexes that cannot run away ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let eve: string;
  let processId: string;
  let lastEvent: string | null = null;

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_REGEX_CHECK_TIMEOUT_MS: '30000', VANCE_REGEX_CHECK_BUDGET_MS: '60000' });
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    eve = (await t.gql(`mutation { createUser(login: "eve") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "eve", role: ADMIN) { role } }`);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  /** Sends `text`, and while its turn runs asks the server two trivial things; resolves with the turn's events and those answers. */
  async function sendWhileAsking(text: string): Promise<{ events: Ev[]; typename: unknown; health: number }> {
    const stream = collect<{ turnEvents: Ev }>(t.ws(eve), EVENTS, { id: processId, after: lastEvent });
    await new Promise((r) => setTimeout(r, 100));
    const sent = t.gql(SEND, { id: processId, text }, eve);
    const [typename, health] = await Promise.all([
      t.gql('{ __typename }', {}, eve).then((r) => r.data?.__typename),
      fetch(t.url.replace('/graphql', '/healthz')).then((r) => r.status),
    ]);
    const reply = await sent;
    if (reply.errors) throw new Error(JSON.stringify(reply.errors));
    const events: Ev[] = [];
    for (;;) {
      const e = (await stream.next(20_000)).data!.turnEvents;
      events.push(e);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') break;
    }
    lastEvent = events[events.length - 1]!.id;
    return { events, typename, health };
  }

  const verdict = (events: Ev[]): { on: boolean; reason: string } | undefined =>
    events.find((e) => e.type === 'SkillVerdicts')?.payload.verdicts.find((v: any) => v.skill === 'attack');

  it('saves the PROJECT skill with a located exponential-backtracking WARNING, and validateDocument says the same', async () => {
    const put = await t.gql(PUT, { path: SKILL_PATH, content: SKILL }, eve);
    expect(put.errors).toBeUndefined();
    const warning = {
      severity: 'WARNING',
      line: 7,
      column: 14,
      field: 'triggers[0].pattern',
      message: expect.stringMatching(/^`triggers\[0\]\.pattern` has exponential backtracking \(at `a`\): harmless here, where trigger patterns run on a linear-time engine \(RE2\)/),
    };
    expect(put.data!.putDocument.diagnostics).toEqual([warning]);
    const validated = await t.gql(VALIDATE, { path: SKILL_PATH, content: SKILL }, eve);
    expect(validated.data!.validateDocument).toEqual([{ severity: warning.severity, field: warning.field, message: warning.message }]);
    processId = (await t.gql(SPAWN, { input: { project: 'lab', recipe: 'default' } }, eve)).data!.spawnProcess.id;
    expect(processId).toBeTruthy();
  });

  it('refuses a lookahead or a backreference at save, naming the construct', async () => {
    const lookahead = await t.gql(PUT, { path: '_vance/skills/look/SKILL.md', content: SKILL.replace(ATTACK, '(?=.*secret)token') }, eve);
    expect(lookahead.errors?.[0]?.extensions?.diagnostics).toEqual([expect.objectContaining({
      severity: 'ERROR', line: 7, column: 14, field: 'triggers[0].pattern',
      message: expect.stringContaining('lookahead `(?=` is not supported: trigger patterns run on a linear-time engine (RE2)'),
    })]);
    const backreference = await t.gql(PUT, { path: '_vance/skills/back/SKILL.md', content: SKILL.replace(ATTACK, '(\\w+) \\1') }, eve);
    expect(backreference.errors?.[0]?.extensions?.diagnostics).toMatchObject([{ severity: 'ERROR', message: expect.stringContaining('backreference `\\1` is not supported') }]);
  });

  it('completes the turn of 34 × a, the measured 4 min 38 s, and answers a query and /healthz meanwhile', async () => {
    const { events, typename, health } = await sendWhileAsking('a'.repeat(34));
    expect(events.at(-1)!.type).toBe('TurnFinished');
    expect(verdict(events)?.on).toBe(false);
    expect(typename).toBe('Query');
    expect(health).toBe(200);
  });

  it('completes the turn of a 10,000-character message, and answers meanwhile', async () => {
    const { events, typename, health } = await sendWhileAsking('a'.repeat(10_000));
    expect(events.at(-1)!.type).toBe('TurnFinished');
    expect(verdict(events)?.on).toBe(false);
    expect(typename).toBe('Query');
    expect(health).toBe(200);
  });

  it('still fires where the pattern matches: 33 × a then b turns the skill on', async () => {
    const { events } = await sendWhileAsking(`${'a'.repeat(33)}b`);
    expect(events.at(-1)!.type).toBe('TurnFinished');
    expect(verdict(events)).toMatchObject({ on: true, reason: expect.stringContaining(`/${ATTACK}/`) });
  });

  it('refuses a message over the length limit, and activates nothing', async () => {
    // Before: the 5 MB text was matched against every trigger (2.2 s on the event loop) and a matching
    // skill was activated — and only then was the message refused as too long.
    const fresh = (await t.gql(SPAWN, { input: { project: 'lab', recipe: 'default' } }, eve)).data!.spawnProcess.id as string;
    const seen = await t.bus.listening('process_events', () => collect<{ processEvents: { type: string } }>(t.ws(eve), 'subscription P($id: ID!) { processEvents(processId: $id) { type } }', { id: fresh }));
    const r = await t.gql(SEND, { id: fresh, text: `${'a'.repeat(200_000)}b` }, eve);
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'MESSAGE_TOO_LARGE' });
    // A message that fits comes after it, and its MESSAGE_QUEUED closes the window: no activation in between.
    expect((await t.gql(SEND, { id: fresh, text: 'hello' }, eve)).errors).toBeUndefined();
    const types: string[] = [];
    while (!types.includes('MESSAGE_QUEUED')) types.push((await seen.next()).data!.processEvents.type);
    expect(types).toEqual(['MESSAGE_QUEUED']);
    seen.stop();
  });
});
