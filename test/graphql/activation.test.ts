import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { codeOf, collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 8 end to end: `when` always / mentioned / picked, trigger controls over the scan window,
 * open_skill / close_skill and their rollback (failed turn, regenerateTurn), verdicts on the turn and
 * in the preview, the budgeted catalog and the context budget, and skillTriggerTest.
 *
 * The model is the offline provider (`call <tool> {json}` calls a tool); a user message containing
 * "then fail" fails the model call that follows a tool result.
 */
class TestProvider implements ModelProvider {
  private readonly offline = new OfflineProvider();
  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const last = request.messages[request.messages.length - 1];
    const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
    if (last?.role === 'tool' && lastUser?.content.includes('then fail')) {
      throw new ModelCallError('PROVIDER_UNAVAILABLE', 'The test provider fails after the tool', request.provider);
    }
    yield* this.offline.stream(request);
  }
}

const skill = (front: string[], body: string): string => ['---', 'title: Test skill', ...front, '---', body].join('\n');

const DOCS: Record<string, string> = {
  '_vance/recipes/story.yaml': 'description: Story worker\nengine: ford\nparams:\n  validation: false\n',
  '_vance/recipes/tiny.yaml': 'description: Tiny context\nengine: ford\nparams:\n  validation: false\n  contextWindow: 3000\n  skillCatalogShare: 0.005\n',
  '_vance/recipes/only-sword.yaml': 'description: Whitelist\nengine: ford\nallowedSkills: [sword]\nparams:\n  validation: false\n',
  '_vance/skills/sword/SKILL.md': skill(['description: Sword lore', 'version: "1.0.0"', 'when: mentioned', 'triggers: [sword]'], 'Sword lore: blades are sharp.'),
  '_vance/skills/moonblade/SKILL.md': skill(
    ['description: Moon blades', 'version: "1.0.0"', 'when: mentioned', 'triggers: [blade]', 'secondaryTriggers: [moon, night]', 'selectiveLogic: AND ALL'],
    'Moonblade lore.',
  ),
  '_vance/skills/sunblade/SKILL.md': skill(
    ['description: Sun blades', 'version: "1.0.0"', 'when: mentioned', 'triggers: [blade]', 'secondaryTriggers: [moon]', 'selectiveLogic: NOT ANY'],
    'Sunblade lore.',
  ),
  '_vance/skills/rules/SKILL.md': skill(['description: House rules', 'version: "1.0.0"', 'when: always'], 'Always rule: be kind.'),
  '_vance/skills/dragon/SKILL.md': skill(['description: Dragons', 'version: "1.0.0"', 'when: mentioned', 'triggers: [dragon]', 'scanDepth: 3'], 'Dragon lore.'),
  '_vance/skills/space/SKILL.md': skill(['description: Space agency', 'version: "1.0.0"', 'when: mentioned', 'triggers: [NASA]', 'caseSensitive: true'], 'NASA facts.'),
  '_vance/skills/cats/SKILL.md': skill(['description: Cats', 'version: "1.0.0"', 'when: mentioned', 'triggers: [cat]', 'matchWholeWords: false'], 'Cat facts.'),
  '_vance/skills/alchemy/SKILL.md': skill(['description: Potions and how to brew them. Long details follow here.', 'version: "1.0.0"', 'when: picked'], 'Alchemy instructions for {{ recipe }}.'),
  '_vance/skills/herbalism/SKILL.md': skill(
    ['description: Plants and remedies', 'version: "1.0.0"', 'when: picked', 'triggers: [herb]', 'closeWhenUnmentioned: true'],
    'Herbalism instructions.',
  ),
  '_vance/skills/secretive/SKILL.md': skill(['description: Not for the model', 'version: "1.0.0"', 'when: picked', 'disable-model-invocation: true'], 'Hidden.'),
};

interface Ev { id: string; turnId: string; type: string; payload: any }

type Started = TestVance;

const start = (database: Database): Promise<Started> => startTestVance(database, {}, { modelProvider: new TestProvider() });

const PUT = `mutation Put($path: String!, $content: String!) { putDocument(layer: VANCE, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id turnId type payload } }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) {
  sections { kind text } tools verdicts { skill on reason when source } openSkills tokens budget droppedHistory catalog } }`;
const BENCH = `query B($project: String, $messages: [String!]!, $recipe: String) { skillTriggerTest(project: $project, messages: $messages, recipe: $recipe) { skill on reason when source } }`;
const OPEN = `query O($id: ID!) { process(id: $id) { openSkills } }`;
const REGENERATE = `mutation R($id: ID!) { regenerateTurn(processId: $id) { id openSkills } }`;

const lastEvent = new Map<string, string>();

async function readTurns(s: Started, id: string, act: () => Promise<unknown>, turns = 1): Promise<Ev[]> {
  // Load: act once the subscription is registered, not after a 100 ms sleep.
  const stream = await s.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Ev }>(s.ws(), EVENTS, { id, after: lastEvent.get(id) ?? null }));
  await act();
  const out: Ev[] = [];
  let ended = 0;
  while (ended < turns) {
    const e = (await stream.next(20_000)).data!.turnEvents;
    out.push(e);
    if (e.type === 'TurnFinished' || e.type === 'TurnFailed') ended++;
  }
  lastEvent.set(id, out[out.length - 1]!.id);
  return out;
}

const send = (s: Started, id: string, text: string): Promise<Ev[]> => readTurns(s, id, async () => {
  const r = await s.gql(SEND, { id, text });
  if (r.errors) throw new Error(JSON.stringify(r.errors));
});

const verdictOf = (events: Ev[], name: string): { on: boolean; reason: string } =>
  events.find((e) => e.type === 'SkillVerdicts')!.payload.verdicts.find((v: any) => v.skill === name);
const skillsText = (events: Ev[]): string => events.find((e) => e.type === 'PromptComposed')!.payload.sections.find((x: any) => x.kind === 'SKILLS')?.text ?? '';
const toolPreview = (events: Ev[], name: string): { isError: boolean; preview: string } =>
  events.find((e) => e.type === 'ToolCallFinished' && e.payload.name === name)!.payload;

describe.each(testDatabases())('lorebook-grade and model-chosen activation ($name)', (driver) => {
  let db: Database;
  let s: Started;

  beforeAll(async () => {
    db = await driver.open();
    s = await start(db);
    await s.gql(`mutation { createProject(name: "tales") { id } }`);
    for (const [path, content] of Object.entries(DOCS)) {
      const r = await s.gql(PUT, { path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
  });

  afterAll(async () => {
    await s?.close();
    await db?.close();
  });

  const bench = async (messages: string[], recipe: string | null = null): Promise<Map<string, { on: boolean; reason: string }>> => {
    const r = await s.gql(BENCH, { project: 'tales', messages, recipe });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return new Map(r.data!.skillTriggerTest.map((v: any) => [v.skill, v]));
  };

  it('skillTriggerTest: always, mentioned, picked and the four selective logics, with one plain sentence each', async () => {
    const v = await bench(['I swing my sword at the blade under the moon at night']);
    expect(v.get('rules')).toMatchObject({ on: true, reason: 'Always on.' });
    expect(v.get('sword')).toMatchObject({ on: true, reason: 'Mentioned: sword.' });
    expect(v.get('moonblade')).toMatchObject({ on: true });
    expect(v.get('sunblade')).toMatchObject({ on: false, reason: 'Excluded by secondary triggers (NOT ANY: moon).' });
    expect(v.get('alchemy')).toMatchObject({ on: false, reason: 'Not opened.' });
    expect(v.get('dragon')).toMatchObject({ on: false, reason: 'Not mentioned.' });
    expect(v.get('secretive')!.on).toBe(false);

    const onlyMoon = await bench(['a blade under the moon']);
    expect(onlyMoon.get('moonblade')).toMatchObject({ on: false, reason: 'Secondary triggers not met (AND ALL: night).' });
    expect(onlyMoon.get('sunblade')!.on).toBe(false);
    const noMoon = await bench(['a blade in the sun']);
    expect(noMoon.get('sunblade')).toMatchObject({ on: true });
    expect(noMoon.get('moonblade')!.on).toBe(false);

    const whitelisted = await bench(['my sword, always'], 'only-sword');
    expect(whitelisted.get('sword')!.on).toBe(true);
    expect(whitelisted.get('rules')).toMatchObject({ on: false, reason: 'Not allowed by the recipe.' });
  });

  it('scan depth reaches back over the newest N messages; case and whole-word switches', async () => {
    expect((await bench(['a dragon!', 'hmm', 'go on'])).get('dragon')!.on).toBe(true);
    expect((await bench(['a dragon!', 'hmm', 'go on', 'and then'])).get('dragon')!.on).toBe(false);
    expect((await bench(['what does NASA do'])).get('space')!.on).toBe(true);
    expect((await bench(['what does nasa do'])).get('space')!.on).toBe(false);
    expect((await bench(['concatenate these'])).get('cats')!.on).toBe(true);
    expect((await bench(['a sword-fight'])).get('sword')!.on).toBe(true);
    expect((await bench(['swordfish'])).get('sword')!.on).toBe(false);
  });

  it('a turn carries the verdicts and composes always + mentioned skills; the preview shows the token split', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'teller' } })).data!.spawnProcess.id;
    const events = await send(s, id, 'tell me about the sword');
    expect(verdictOf(events, 'sword')).toMatchObject({ on: true, reason: 'Mentioned: sword.' });
    expect(verdictOf(events, 'alchemy')).toMatchObject({ on: false, reason: 'Not opened.' });
    const text = skillsText(events);
    expect(text).toContain('Sword lore: blades are sharp.');
    expect(text).toContain('Always rule: be kind.');
    expect(text).not.toContain('Alchemy instructions');
    // A mentioned skill is on for the turn only: no activation is stored.
    expect((await s.gql(`query P($id: ID!) { process(id: $id) { activeSkills { name } } }`, { id })).data!.process.activeSkills).toEqual([]);
    const preview = (await s.gql(PREVIEW, { id })).data!.composeTurnPreview;
    expect(preview.tokens).toMatchObject({ skills: expect.any(Number), system: expect.any(Number), history: expect.any(Number), tools: expect.any(Number), window: 128000 });
    expect(preview.tokens.skills).toBeGreaterThan(0);
    expect(preview.tools).toEqual(expect.arrayContaining(['open_skill', 'close_skill']));
  });

  it('open_skill answers with the instructions and opens from the next reply; close_skill closes; unknown names are refused', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'picker' } })).data!.spawnProcess.id;
    const preview = (await s.gql(PREVIEW, { id })).data!.composeTurnPreview;
    expect(preview.catalog.summary).toBeTruthy();

    const opened = await send(s, id, 'call open_skill {"name": "alchemy"}');
    const result = toolPreview(opened, 'open_skill');
    expect(result.isError).toBe(false);
    expect(result.preview).toContain("Opened skill 'alchemy'.");
    expect(result.preview).toContain('Alchemy instructions for story.');
    expect(skillsText(opened)).not.toContain('Alchemy instructions'); // not in this reply's prompt
    expect(opened[opened.length - 1]!.payload.openSkills).toEqual({ open: ['alchemy'], opened: ['alchemy'], closed: [] });
    expect((await s.gql(OPEN, { id })).data!.process.openSkills).toEqual(['alchemy']);

    const next = await send(s, id, 'and now?');
    expect(verdictOf(next, 'alchemy')).toMatchObject({ on: true, reason: 'Open (picked by the model).' });
    expect(skillsText(next)).toContain('Alchemy instructions for story.');

    const unknown = await send(s, id, 'call open_skill {"name": "necromancy"}');
    expect(toolPreview(unknown, 'open_skill')).toMatchObject({ isError: true });
    expect(toolPreview(unknown, 'open_skill').preview).toMatch(/Unknown skill 'necromancy'\. Skills you can open: .*alchemy.*herbalism/);
    expect(toolPreview(unknown, 'open_skill').preview).not.toContain('secretive');

    const closed = await send(s, id, 'call close_skill {"name": "alchemy"}');
    expect(toolPreview(closed, 'close_skill')).toMatchObject({ isError: false, preview: "Closed skill 'alchemy'." });
    expect((await s.gql(OPEN, { id })).data!.process.openSkills).toEqual([]);
    const again = await send(s, id, 'call close_skill {"name": "alchemy"}');
    expect(toolPreview(again, 'close_skill')).toMatchObject({ isError: false, preview: "Skill 'alchemy' is not open; nothing changed." });
    expect(again[again.length - 1]!.payload.openSkills).toEqual({ open: [], opened: [], closed: [] });
  });

  it('a failed turn and regenerateTurn take an open back', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'undo' } })).data!.spawnProcess.id;
    const failed = await send(s, id, 'call open_skill {"name": "alchemy"}\nthen fail');
    expect(failed[failed.length - 1]!.type).toBe('TurnFailed');
    expect((await s.gql(OPEN, { id })).data!.process.openSkills).toEqual([]);
    // The failed input is still in the inbox; clear it by regenerating (it runs again and fails again).
    const rerun = await readTurns(s, id, () => s.gql(REGENERATE, { id }));
    expect(rerun[rerun.length - 1]!.type).toBe('TurnFailed');
    await s.gql(`mutation C($id: ID!) { clearSkills(processId: $id) { cleared } }`, { id });

    const other = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'redo' } })).data!.spawnProcess.id;
    await send(s, other, 'call open_skill {"name": "alchemy"}');
    expect((await s.gql(OPEN, { id: other })).data!.process.openSkills).toEqual(['alchemy']);
    // Regenerate: the open is taken back before the turn runs again (its verdict says so), then the
    // re-run opens it again; the chat log holds one copy of the turn.
    const regenerated = await readTurns(s, other, async () => {
      const r = await s.gql(REGENERATE, { id: other });
      expect(r.errors).toBeUndefined();
    });
    expect(verdictOf(regenerated, 'alchemy')).toMatchObject({ on: false, reason: 'Not opened.' });
    expect(regenerated[regenerated.length - 1]!.payload.openSkills.opened).toEqual(['alchemy']);
    const turns = (await s.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id: other })).data!.turns;
    expect(turns.map((t: any) => t.status)).toEqual(['REGENERATED', 'FINISHED']);
    const messages = (await s.gql(`query M($id: ID!) { messages(processId: $id) { role content } }`, { id: other })).data!.messages;
    expect(messages.filter((m: any) => m.role === 'user')).toHaveLength(1);

    const none = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'fresh' } })).data!.spawnProcess.id;
    expect(codeOf(await s.gql(REGENERATE, { id: none }))).toBe('NOT_FOUND');
  });

  it('closeWhenUnmentioned closes an open skill on a turn its triggers no longer match', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'story', name: 'herbs' } })).data!.spawnProcess.id;
    await send(s, id, 'call open_skill {"name": "herbalism"}');
    const still = await send(s, id, 'which herb heals?');
    expect(verdictOf(still, 'herbalism')).toMatchObject({ on: true, reason: 'Open (picked by the model).' });
    const later = await send(s, id, 'tell me about the weather');
    expect(verdictOf(later, 'herbalism')).toMatchObject({ on: false, reason: 'Closed: no longer mentioned.' });
    expect(later[later.length - 1]!.payload.openSkills).toMatchObject({ open: [], closed: ['herbalism'] });
    expect((await s.gql(OPEN, { id })).data!.process.openSkills).toEqual([]);
  });

  it('the budgets: the catalog is cut and says so; history gives way while the skills section stays', async () => {
    const id = (await s.gql(SPAWN, { input: { project: 'tales', recipe: 'tiny', name: 'small' } })).data!.spawnProcess.id;
    const preview = (await s.gql(PREVIEW, { id })).data!.composeTurnPreview;
    expect(preview.catalog.cuts.length).toBeGreaterThan(0);
    expect(preview.catalog.summary).toMatch(/\S/);
    const long = 'lorem ipsum dolor sit amet '.repeat(120);
    for (let i = 0; i < 3; i++) await send(s, id, `sword tale ${i}: ${long}`);
    const now = (await s.gql(PREVIEW, { id })).data!.composeTurnPreview;
    expect(now.droppedHistory).toBeGreaterThan(0);
    expect(now.budget).toMatch(/\S/);
    expect(now.tokens.window).toBe(3000);
    expect(now.sections.some((x: any) => x.kind === 'SKILLS' && x.text.includes('Always rule'))).toBe(true);
    expect(now.tokens.skills).toBeGreaterThan(0);
    const turn = await send(s, id, 'sword again');
    expect(turn[turn.length - 1]!.type).toBe('TurnFinished');
    expect(turn.find((e) => e.type === 'PromptComposed')!.payload.droppedHistory).toBeGreaterThan(0);
  });
});
