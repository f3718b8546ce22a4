import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { PROCESS_EVENTS_TOPIC } from '../../api/src/domain/processes/process-event';
import { codeOf, collect, startTestVance, type TestVance } from './harness';

/**
 * Issue 15, item 5 over GraphQL: renderTemplate (the turns' renderer and caps, a context of the
 * author's choosing), validateDocument against the project's other documents, the process's plan
 * mode (setProcessMode, seen by composeTurnPreview), the render context's `lang` and `profile`, and
 * the engine default prompts as documents a project can shadow.
 */
const RENDER = `query R($p: String!, $s: String!, $c: JSON, $k: TemplateKind, $r: String) {
  renderTemplate(project: $p, source: $s, context: $c, kind: $k, recipe: $r) { output error { code message line column } context }
}`;
const VALIDATE = `query V($path: String!, $c: String!, $p: String, $l: Layer) { validateDocument(path: $path, content: $c, project: $p, layer: $l) { severity message line field } }`;
const PUT = `mutation P($l: Layer!, $p: String, $path: String!, $c: String!) { putDocument(layer: $l, project: $p, path: $path, content: $c) { version } }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { mode renderContext sections { kind text } } }`;
const SET_MODE = `mutation M($id: ID!, $m: ProcessMode!) { setProcessMode(processId: $id, mode: $m) { id mode } }`;

const BRANCHY = [
  "{% if tier == 'small' %}Keep it short.{% else %}Be thorough.{% endif %}",
  "{% if mode == 'PLANNING' %}Plan only; do not act.{% endif %}",
  'profile={{ profile }} lang={{ "set" if lang is defined else "absent" }}',
].join('\n');

const SKILL_WITH_REFERENCE = [
  '---',
  'title: Guided',
  'description: A skill with a reference file',
  'version: "1.0.0"',
  'referenceDocs:',
  '  - title: Guide',
  '    file: references/guide.md',
  '---',
  'Follow the guide.',
].join('\n');

describe.each(testDatabases())('authoring API ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let outsider: string;
  let member: string;
  beforeAll(async () => {
    db = await driver.open();
    // No turn runs: these tests look at what the next turn would render, and at the inbox.
    t = await startTestVance(db, {}, { runTurns: false });
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    await t.gql(`mutation { createProject(name: "closed") { id } }`);
    outsider = (await t.gql(`mutation { createUser(login: "otto") { token } }`)).data!.createUser.token;
    member = (await t.gql(`mutation { createUser(login: "mia") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "mia") { role } }`);
    await t.gql(PUT, { l: 'PROJECT', p: 'lab', path: '_vance/recipes/branchy.yaml', c: `description: branches\nengine: ford\npromptPrefix: |\n${BRANCHY.split('\n').map((l) => `  ${l}`).join('\n')}\n` });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  describe('renderTemplate', () => {
    it('renders the tier: small and mode: PLANNING branches with the caller context over a turn\'s default', async () => {
      const small = await t.gql(RENDER, { p: 'lab', s: BRANCHY, c: { tier: 'small', mode: 'PLANNING' } }, member);
      expect(small.errors).toBeUndefined();
      expect(small.data!.renderTemplate.error).toBeNull();
      expect(small.data!.renderTemplate.output).toBe('Keep it short.\nPlan only; do not act.\nprofile=web lang=absent');
      const large = await t.gql(RENDER, { p: 'lab', s: BRANCHY, c: { tier: 'large' } }, member);
      expect(large.data!.renderTemplate.output).toBe('Be thorough.\n\nprofile=web lang=absent');
    });

    it('defaults to what a new process of the recipe renders with, params overridden key by key', async () => {
      const r = await t.gql(RENDER, { p: 'lab', s: '{{ recipe }}/{{ engine }}/{{ mode }}/{{ params.maxIterations }}/{{ params.extra }}', c: { params: { extra: 'x' } }, r: 'branchy' }, member);
      expect(r.errors).toBeUndefined();
      const context = r.data!.renderTemplate.context;
      expect(context).toMatchObject({ recipe: 'branchy', engine: 'ford', mode: 'NORMAL', profile: 'web', params: { extra: 'x' } });
      expect(context).not.toHaveProperty('lang');
      expect(typeof context.tier).toBe('string');
      expect(r.data!.renderTemplate.output).toBe('branchy/ford/NORMAL//x');
    });

    it('renders a skill body with args and an action with only what an activation gives it', async () => {
      const body = await t.gql(RENDER, { p: 'lab', s: 'Review {{ args.text }} as {{ tier }}', c: { args: { text: 'src/a.ts', words: ['src/a.ts'] }, tier: 'small' }, k: 'SKILL_BODY' });
      expect(body.data!.renderTemplate.output).toBe('Review src/a.ts as small');
      const action = await t.gql(RENDER, { p: 'lab', s: '[{{ args.text }}|{{ mode }}|{{ tier }}|{{ model }}]', c: { mode: 'EXECUTING' }, k: 'ACTION' });
      expect(action.data!.renderTemplate.output).toBe('[|EXECUTING||]');
      expect(Object.keys(action.data!.renderTemplate.context).sort()).toEqual(['args', 'engine', 'mode', 'params', 'profile', 'recipe']);
    });

    it('answers a template error with its code, line and column', async () => {
      const r = await t.gql(RENDER, { p: 'lab', s: 'line one\nline two {{ tier }}\n{% if tier %}\nnever closed' });
      expect(r.errors).toBeUndefined();
      expect(r.data!.renderTemplate.output).toBeNull();
      expect(r.data!.renderTemplate.error).toMatchObject({ code: 'SYNTAX', line: 3, column: expect.any(Number) });
      const forbidden = await t.gql(RENDER, { p: 'lab', s: 'ok\n  {{ params.constructor("return process")() }}' });
      expect(forbidden.data!.renderTemplate.error).toMatchObject({ code: expect.stringMatching(/^(FORBIDDEN|RUNTIME)$/), line: 2 });
    });

    it('refuses a template over the output cap with OUTPUT_LIMIT, and one over the work budget with TIMEOUT', async () => {
      const big = await t.gql(RENDER, { p: 'lab', s: '{% for i in range(0, 3) %}{{ params.chunk }}{% endfor %}', c: { params: { chunk: 'x'.repeat(400_000) } } });
      expect(big.data!.renderTemplate.output).toBeNull();
      expect(big.data!.renderTemplate.error.code).toBe('OUTPUT_LIMIT');
      const busy = await t.gql(RENDER, { p: 'lab', s: '{% for i in range(0, 10000) %}{% for j in range(0, 10000) %}{% endfor %}{% endfor %}' });
      expect(busy.data!.renderTemplate.error.code).toBe('TIMEOUT');
    });

    it('is NOT_FOUND for a project the caller cannot read, as elsewhere', async () => {
      const r = await t.gql(RENDER, { p: 'lab', s: 'hi' }, outsider);
      expect(codeOf(r)).toBe('NOT_FOUND');
      expect(codeOf(await t.gql(RENDER, { p: 'nowhere', s: 'hi' }))).toBe('NOT_FOUND');
      expect(codeOf(await t.gql(RENDER, { p: 'lab', s: 'hi', c: [1, 2] }))).toBe('BAD_USER_INPUT');
    });
  });

  describe('validateDocument with a project', () => {
    const path = '_vance/skills/guided/SKILL.md';
    it('reports a reference file missing among the project documents, as the saved skill would', async () => {
      const alone = await t.gql(VALIDATE, { path, c: SKILL_WITH_REFERENCE });
      expect(alone.errors).toBeUndefined();
      expect(alone.data!.validateDocument).toEqual([]); // without a project: as before
      const missing = await t.gql(VALIDATE, { path, c: SKILL_WITH_REFERENCE, p: 'lab' }, member);
      expect(missing.data!.validateDocument).toEqual([
        expect.objectContaining({ severity: 'WARNING', field: 'referenceDocs[0].file', line: 7, message: expect.stringContaining("'references/guide.md' does not exist") }),
      ]);
      // The same warning the skill carries once saved.
      await t.gql(PUT, { l: 'PROJECT', p: 'lab', path, c: SKILL_WITH_REFERENCE });
      const saved = await t.gql(`{ skill(name: "guided", project: "lab") { diagnostics { severity message line field } } }`);
      expect(saved.data!.skill.diagnostics).toEqual(missing.data!.validateDocument);

      await t.gql(PUT, { l: 'PROJECT', p: 'lab', path: '_vance/skills/guided/references/guide.md', c: '# Guide' });
      expect((await t.gql(VALIDATE, { path, c: SKILL_WITH_REFERENCE, p: 'lab' })).data!.validateDocument).toEqual([]);
      // In the caller's USER layer the file is not there.
      expect((await t.gql(VALIDATE, { path, c: SKILL_WITH_REFERENCE, p: 'lab', l: 'USER' })).data!.validateDocument).toHaveLength(1);
    });

    it('is NOT_FOUND for a project the caller cannot read', async () => {
      expect(codeOf(await t.gql(VALIDATE, { path, c: SKILL_WITH_REFERENCE, p: 'lab' }, outsider))).toBe('NOT_FOUND');
    });
  });

  describe('the render context of a process', () => {
    let id: string;
    beforeAll(async () => {
      id = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "branchy" }) { id mode connectionProfile } }`, {}, member)).data!.spawnProcess.id;
    });

    it('starts NORMAL, with the applied profile and no lang', async () => {
      const r = await t.gql(PREVIEW, { id }, member);
      expect(r.errors).toBeUndefined();
      const preview = r.data!.composeTurnPreview;
      expect(preview.mode).toBe('NORMAL');
      expect(preview.renderContext).toMatchObject({ mode: 'NORMAL', profile: 'web', recipe: 'branchy', engine: 'ford' });
      expect(preview.renderContext).not.toHaveProperty('lang');
      const prompt = preview.sections.find((s: { kind: string }) => s.kind === 'SYSTEM_PROMPT').text;
      expect(prompt).toContain('profile=web lang=absent');
      expect(prompt).not.toContain('Plan only');
    });

    it('setProcessMode changes the mode the next turn renders with', async () => {
      const set = await t.gql(SET_MODE, { id, m: 'PLANNING' }, member);
      expect(set.errors).toBeUndefined();
      expect(set.data!.setProcessMode.mode).toBe('PLANNING');
      expect((await t.gql(`{ process(id: "${id}") { mode } }`, {}, member)).data!.process.mode).toBe('PLANNING');
      const preview = (await t.gql(PREVIEW, { id }, member)).data!.composeTurnPreview;
      expect(preview.mode).toBe('PLANNING');
      expect(preview.sections.find((s: { kind: string }) => s.kind === 'SYSTEM_PROMPT').text).toContain('Plan only; do not act.');
      await t.gql(SET_MODE, { id, m: 'NORMAL' }, member);
      expect((await t.gql(PREVIEW, { id }, member)).data!.composeTurnPreview.mode).toBe('NORMAL');
    });

    it('announces a mode change as a MODE_SET process event, and none when the mode stays', async () => {
      const events = await t.bus.listening(PROCESS_EVENTS_TOPIC, () =>
        collect<{ processEvents: Record<string, unknown> }>(t.ws(member), `subscription E($id: ID!) { processEvents(processId: $id) { type ... on ModeSetEvent { mode previous by } } }`, { id }));
      await t.gql(SET_MODE, { id, m: 'EXPLORING' }, member);
      await t.gql(SET_MODE, { id, m: 'EXPLORING' }, member);
      await t.gql(SET_MODE, { id, m: 'NORMAL' }, member);
      expect((await events.next()).data!.processEvents).toEqual({ type: 'MODE_SET', mode: 'EXPLORING', previous: 'NORMAL', by: 'mia' });
      expect((await events.next()).data!.processEvents).toEqual({ type: 'MODE_SET', mode: 'NORMAL', previous: 'EXPLORING', by: 'mia' });
      events.stop();
    });

    it("renders a skill's action with the process's mode and applied profile, as the turn does", async () => {
      await t.gql(PUT, { l: 'PROJECT', p: 'lab', path: '_vance/skills/announce/SKILL.md', c: '---\ntitle: Announce\ndescription: d\nversion: "1.0.0"\naction: "mode={{ mode }} profile={{ profile }}"\n---\nBody.\n' });
      await t.gql(SET_MODE, { id, m: 'EXECUTING' }, member);
      const r = await t.gql(`mutation { activateSkill(processId: "${id}", name: "announce") { process { pending { sender content } } } }`, {}, member);
      expect(r.errors).toBeUndefined();
      expect(r.data!.activateSkill.process.pending).toContainEqual({ sender: 'SKILL', content: 'mode=EXECUTING profile=web' });
      await t.gql(SET_MODE, { id, m: 'NORMAL' }, member);
    });

    it('refuses an unknown mode and a caller who cannot steer the process', async () => {
      expect(codeOf(await t.gql(SET_MODE, { id, m: 'DREAMING' }, member))).toBe('BAD_USER_INPUT');
      expect(codeOf(await t.gql(SET_MODE, { id, m: 'PLANNING' }, outsider))).toBe('NOT_FOUND');
      expect((await t.gql(`{ process(id: "${id}") { mode } }`, {}, member)).data!.process.mode).toBe('NORMAL');
    });
  });

  describe('engine default prompts as documents', () => {
    it('are bundled RESOURCE documents', async () => {
      for (const engine of ['ford', 'arthur']) {
        const r = await t.gql(`query E($path: String!) { effectiveDocument(path: $path) { source document { content } } }`, { path: `_vance/prompts/${engine}-prompt.md` });
        expect(r.data!.effectiveDocument.source).toBe('RESOURCE');
        expect(r.data!.effectiveDocument.document.content).toMatch(engine === 'ford' ? /^You are Ford/ : /^You are Arthur/);
      }
    });

    it('a project shadows the ford prompt and the next turn\'s system prompt shows it, and resolveRecipe too', async () => {
      await t.gql(`mutation { createProject(name: "shadow") { id } }`);
      const spawn = `mutation { spawnProcess(input: { project: "shadow", engine: "ford", recipe: "branchy" }) { id } }`;
      await t.gql(PUT, { l: 'PROJECT', p: 'shadow', path: '_vance/recipes/branchy.yaml', c: 'description: d\nengine: ford\npromptPrefix: "Recipe part."\n' });
      const id = (await t.gql(spawn)).data!.spawnProcess.id;
      const before = (await t.gql(PREVIEW, { id })).data!.composeTurnPreview.sections[0].text;
      expect(before).toMatch(/^You are Ford, a Vance worker\./);

      await t.gql(PUT, { l: 'PROJECT', p: 'shadow', path: '_vance/prompts/ford-prompt.md', c: 'You are the shadow project\'s Ford ({{ mode }}).\n' });
      const after = (await t.gql(PREVIEW, { id })).data!.composeTurnPreview.sections[0].text;
      expect(after).toBe("You are the shadow project's Ford (NORMAL).\n\n--- recipe extension ---\n\nRecipe part.");
      const resolved = await t.gql(`{ resolveRecipe(name: "branchy", project: "shadow") { systemPromptPreview } }`);
      expect(resolved.data!.resolveRecipe.systemPromptPreview).toBe("You are the shadow project's Ford (NORMAL).\n\n--- recipe extension ---\n\nRecipe part.");
      // Other projects keep the bundled prompt.
      const lab = (await t.gql(`mutation { spawnProcess(input: { project: "lab", engine: "ford" }) { id } }`)).data!.spawnProcess.id;
      expect((await t.gql(PREVIEW, { id: lab })).data!.composeTurnPreview.sections[0].text).toMatch(/^You are Ford, a Vance worker\./);
    });

    it('refuses to save an engine prompt that does not compile, with its line, and warns about an unknown engine', async () => {
      const bad = await t.gql(PUT, { l: 'PROJECT', p: 'lab', path: '_vance/prompts/ford-prompt.md', c: 'You are Ford.\n{% if mode %}\nno end' });
      expect(codeOf(bad)).toBe('BAD_USER_INPUT');
      expect(bad.errors![0]!.extensions!.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', line: 2 })]);
      const checked = await t.gql(VALIDATE, { path: '_vance/prompts/eddie-prompt.md', c: 'Hi {{ mode }}' });
      expect(checked.data!.validateDocument).toEqual([expect.objectContaining({ severity: 'WARNING', message: expect.stringContaining("No engine 'eddie'") })]);
    });

    it("an owner's USER-layer engine prompt is the owner's turn's, and hidden from an admin like a private recipe", async () => {
      await t.gql(PUT, { l: 'USER', path: '_vance/prompts/ford-prompt.md', c: 'Private persona of mia.' }, member);
      const id = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "branchy" }) { id } }`, {}, member)).data!.spawnProcess.id;
      const mine = (await t.gql(PREVIEW, { id }, member)).data!.composeTurnPreview;
      expect(mine.sections[0].text).toMatch(/^Private persona of mia\./);
      const admin = (await t.gql(PREVIEW, { id })).data!.composeTurnPreview;
      expect(JSON.stringify(admin)).not.toContain('Private persona');
    });
  });
});
