import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { FakeLlmServer, openai, sse } from '../llm/fake-llm-server';
import { testDatabases } from '../support/databases';
import { codeOf, collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 20 over GraphQL: `skillEvals(project, skill)` against a project's effective cascade, the
 * write-time refusal of an invalid evals.yaml, a verdict equal to the turn's SkillVerdicts for the
 * same message, and `picked:` cases against an OpenAI-compatible endpoint started here.
 */
const skill = (name: string, front: string[]): string => ['---', `title: ${name}`, `description: The ${name} skill`, 'version: "1.0.0"', ...front, '---', `Body of ${name}.`].join('\n');

const VANCE_DOCS: Record<string, string> = {
  '_vance/skills/review/SKILL.md': skill('review', ['triggers:', '  - type: KEYWORDS', '    keywords: [review, diff]', '    minMatch: 1']),
  '_vance/skills/git/SKILL.md': skill('git', ['triggers:', '  - type: KEYWORDS', '    keywords: [diff, commit]', '    minMatch: 1']),
  '_vance/skills/dragons/SKILL.md': skill('dragons', ['when: picked']),
  '_vance/recipes/only-git.yaml': 'description: Whitelist\nengine: ford\nallowedSkills: [git]\nparams:\n  validation: false\n',
  '_vance/recipes/plain.yaml': 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
};

const REVIEW_EVALS = [
  'cases:',
  '  - message: please review this',
  '    fires: true',
  '  - message: show me the diff',
  '    fires: true',
  '  - message: review it',
  '    recipe: only-git',
  '    fires: false',
  '  - message: lunch?',
  '    fires: true',
].join('\n');

const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!) { putDocument(layer: $layer, project: $project, path: $path, content: $content) { version } }`;
const EVALS = `query E($project: String, $skill: String!, $models: Boolean) { skillEvals(project: $project, skill: $skill, models: $models) {
  skill path source passed failed skipped precision recall confusions { skill cases } notes
  cases { index line kind messages expected passed skipped verdict problems confusions rate } } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!) { turnEvents(processId: $id) { id type payload } }`;

describe.each(testDatabases())('skillEvals ($name)', (driver) => {
  const model = new FakeLlmServer();
  let db: Database;
  let s: TestVance;

  beforeAll(async () => {
    await model.start();
    // Opens `dragons` when a dragon is mentioned; a plain text answer otherwise (turns included).
    model.handler = (req, res) => {
      const messages = (req.body.messages ?? []) as { content?: string }[];
      const out = sse(res);
      if (messages.some((m) => String(m.content ?? '').includes('dragon'))) {
        out.data(openai.toolStart(0, 'call_1', 'open_skill'));
        out.data(openai.toolArgs(0, '{"name":"dragons"}'));
        out.data(openai.finish('tool_calls'));
      } else {
        out.data(openai.text('Done.', true));
        out.data(openai.finish('stop'));
      }
      out.data('[DONE]');
      out.end();
    };
    db = await driver.open();
    const settings = { 'ai.default.provider': 'openai', 'ai.default.model': 'judge', 'ai.openai.apiKey': 'sk-test', 'ai.openai.baseUrl': `${model.baseUrl}/v1` };
    s = await startTestVance(db, { VANCE_DEFAULT_SETTINGS: JSON.stringify(settings) });
    await s.gql(`mutation { createProject(name: "shop") { id } }`);
    for (const [path, content] of Object.entries(VANCE_DOCS)) {
      const r = await s.gql(PUT, { layer: 'VANCE', path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
  });

  afterAll(async () => {
    await s?.close();
    await db?.close();
    await model.stop();
  });

  it('refuses an invalid evals.yaml on write with line and field, and writes nothing', async () => {
    const r = await s.gql(PUT, { layer: 'PROJECT', project: 'shop', path: '_vance/skills/review/evals.yaml', content: 'cases:\n  - message: hi\n    fires: perhaps\n' });
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.extensions?.diagnostics).toEqual([expect.objectContaining({ line: 3, field: 'cases[0].fires', severity: 'ERROR' })]);
    const missing = await s.gql(EVALS, { project: 'shop', skill: 'review' });
    expect(codeOf(missing)).toBe('NOT_FOUND');
    // Force-saved anyway: running it says where it is wrong.
    const FORCE = `mutation { putDocument(layer: PROJECT, project: "shop", path: "_vance/skills/review/evals.yaml", content: "cases:\\n  - message: hi\\n    fires: perhaps\\n", force: true) { version } }`;
    expect((await s.gql(FORCE)).errors).toBeUndefined();
    const broken = await s.gql(EVALS, { project: 'shop', skill: 'review' });
    expect(codeOf(broken)).toBe('BAD_USER_INPUT');
    expect(broken.errors?.[0]?.extensions?.diagnostics).toEqual([expect.objectContaining({ line: 3, field: 'cases[0].fires' })]);
  });

  it('runs a project\'s evals for a skill of an outer layer: passed/failed, precision, recall, confusions', async () => {
    const put = await s.gql(PUT, { layer: 'PROJECT', project: 'shop', path: '_vance/skills/review/evals.yaml', content: REVIEW_EVALS });
    expect(put.errors).toBeUndefined();
    const r = await s.gql(EVALS, { project: 'shop', skill: 'review' });
    expect(r.errors).toBeUndefined();
    const report = r.data!.skillEvals;
    expect(report).toMatchObject({ skill: 'review', path: '_vance/skills/review/evals.yaml', source: 'PROJECT', passed: 3, failed: 1, skipped: 0, precision: 1, notes: [] });
    expect(report.recall).toBeCloseTo(2 / 3);
    expect(report.confusions).toEqual([{ skill: 'git', cases: [1] }]);
    expect(report.cases.map((c: any) => [c.line, c.passed, c.verdict])).toEqual([
      [2, true, 'Mentioned: review.'],
      [4, true, 'Mentioned: diff.'],
      [6, true, 'Not allowed by the recipe.'],
      [9, false, 'Not triggered.'],
    ]);
    // Another project does not see this project's evals file.
    await s.gql(`mutation { createProject(name: "other") { id } }`);
    expect(codeOf(await s.gql(EVALS, { project: 'other', skill: 'review' }))).toBe('NOT_FOUND');
  });

  it('saves a conversation as a new case in a layer (the bench\'s "save as case"), validated, and runs it', async () => {
    const ADD = `mutation A($skill: String!, $messages: [String!]!, $fires: Boolean!) { addSkillEvalCase(project: "shop", layer: PROJECT, skill: $skill, messages: $messages, fires: $fires) {
      passed failed cases { line messages passed verdict } } }`;
    const r = await s.gql(ADD, { skill: 'review', messages: ['a commit message'], fires: false });
    expect(r.errors).toBeUndefined();
    const last = r.data!.addSkillEvalCase.cases.at(-1);
    expect(last).toMatchObject({ messages: ['a commit message'], passed: true, verdict: 'Not triggered.' });
    expect(r.data!.addSkillEvalCase).toMatchObject({ passed: 4, failed: 1 });
    const stored = await s.gql(`query { document(layer: PROJECT, project: "shop", path: "_vance/skills/review/evals.yaml") { content } }`);
    expect(stored.data!.document.content).toMatch(/^ {2}- message: a commit message\n {4}fires: false\n$/m);
    const bad = await s.gql(ADD, { skill: 'review', messages: [], fires: true });
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
  });

  it('gives the verdict sentence the turn gives for the same message', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'shop', recipe: 'plain', name: 'p1' } })).data!.spawnProcess.id;
    const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(s.ws(), EVENTS, { id }));
    const sent = await s.gql(SEND, { id, text: 'show me the diff' });
    expect(sent.errors).toBeUndefined();
    let verdicts: { skill: string; on: boolean; reason: string }[] | null = null;
    while (verdicts === null) {
      const e = (await stream.next(30_000)).data!.turnEvents;
      if (e.type === 'SkillVerdicts') verdicts = e.payload.verdicts;
      if (e.type === 'TurnFailed') throw new Error(JSON.stringify(e.payload));
    }
    const turn = verdicts.find((v) => v.skill === 'review');
    const report = (await s.gql(EVALS, { project: 'shop', skill: 'review' })).data!.skillEvals;
    expect(turn).toMatchObject({ on: true, reason: report.cases[1].verdict });
  });

  it('runs picked: cases N times against the configured provider and reports the rate', async () => {
    const put = await s.gql(PUT, { layer: 'VANCE', path: '_vance/skills/dragons/evals.yaml', content: 'picked: { runs: 2, threshold: 1 }\ncases:\n  - message: a dragon attacks\n    picked: true\n  - message: the weather today\n    picked: true\n' });
    expect(put.errors).toBeUndefined();
    // A query spends no model calls unless it asks to.
    // The judge's requests: the case's message alone (a turn's request has a system prompt too).
    const judged = () => model.requests.filter((r) => JSON.stringify(r.body.messages) === JSON.stringify([{ role: 'user', content: 'a dragon attacks' }]) || JSON.stringify(r.body.messages) === JSON.stringify([{ role: 'user', content: 'the weather today' }])).length;
    const before = judged();
    const unasked = (await s.gql(EVALS, { project: 'shop', skill: 'dragons' })).data!.skillEvals;
    expect(unasked).toMatchObject({ skipped: 2, notes: ['picked: cases skipped: pass models: true to ask the configured model.'] });
    expect(judged()).toBe(before);
    const report = (await s.gql(EVALS, { project: 'shop', skill: 'dragons', models: true })).data!.skillEvals;
    expect(judged() - before).toBe(4);
    expect(report.cases.map((c: any) => [c.kind, c.passed, c.rate, c.verdict])).toEqual([
      ['picked', true, 1, 'Opened in 2 of 2 runs (100%; threshold 100%).'],
      ['picked', false, 0, 'Opened in 0 of 2 runs (0%; threshold 100%).'],
    ]);
    expect(report.source).toBe('VANCE');
  });
});
