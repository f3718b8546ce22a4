import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!, $force: Boolean) {
  putDocument(layer: $layer, project: $project, path: $path, content: $content, force: $force) { version diagnostics { severity field line } }
}`;
const SKILLS = `query S($project: String, $surface: SkillSurface) { skills(project: $project, surface: $surface) { name source shadowed status } }`;
const RESOLVE = `query R($name: String, $engine: String, $project: String, $params: JSON, $profile: String) {
  resolveRecipe(name: $name, engine: $engine, project: $project, params: $params, profile: $profile) {
    kind engine recipe { name source reason } params overriddenKeys droppedCallerKeys
    profile { profile match } tools { allowed removed } model { provider model tier } warnings { message }
  }
}`;

const skill = (fields: string, body = 'Body.') => `---\n${fields}\n---\n${body}\n`;

describe.each(testDatabases())('skills and recipes over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_DEFAULT_SETTINGS: JSON.stringify({ 'ai.default.provider': 'openai', 'ai.default.model': 'gpt-4o' }) });
    await t.gql(`mutation { createProject(name: "web") { id } }`);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('lists the bundled skills per invocation surface', async () => {
    const all = (await t.gql(SKILLS, {})).data?.skills as { name: string; source: string }[];
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(['code-guard', 'code-review', 'typescript-style']));
    expect(all.every((s) => s.source === 'RESOURCE')).toBe(true);
    const model = (await t.gql(SKILLS, { surface: 'MODEL' })).data?.skills.map((s: { name: string }) => s.name);
    const user = (await t.gql(SKILLS, { surface: 'USER' })).data?.skills.map((s: { name: string }) => s.name);
    expect(model).not.toContain('code-guard'); // disable-model-invocation: true
    expect(user).toContain('code-guard');
  });

  it('refuses an invalid SKILL.md with located diagnostics, writes it with force, and shows it as INVALID', async () => {
    const content = skill('title: Broken\ndescription: x\nversion: "1.0.0"\nlifecycle: forever');
    const refused = await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/broken/SKILL.md', content });
    expect(codeOf(refused)).toBe('BAD_USER_INPUT');
    const diagnostic = refused.errors?.[0]?.extensions?.diagnostics?.find((d: { field: string }) => d.field === 'lifecycle');
    expect(diagnostic).toMatchObject({ severity: 'ERROR', line: 5, path: '_vance/skills/broken/SKILL.md' });
    expect((await t.gql(`{ skill(name: "broken") { name } }`)).data?.skill).toBeNull();
    const forced = await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/broken/SKILL.md', content, force: true });
    expect(forced.data?.putDocument.diagnostics).toContainEqual({ severity: 'ERROR', field: 'lifecycle', line: 5 });
    const shown = await t.gql(`{ skill(name: "broken") { status source diagnostics { field } } }`);
    expect(shown.data?.skill).toMatchObject({ status: 'INVALID', source: 'VANCE' });
  });

  it('lets an inner layer override or hide a bundled skill and reports the layers', async () => {
    const style = skill('title: House style\ndescription: Our TypeScript rules\nversion: "2.0.0"');
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/skills/typescript-style/SKILL.md', content: style });
    const s = await t.gql(`{ skill(name: "typescript-style", project: "web") { source shadowed title version status } }`);
    expect(s.data?.skill).toEqual({ source: 'VANCE', shadowed: ['RESOURCE'], title: 'House style', version: '2.0.0', status: 'AVAILABLE' });
    await t.gql(PUT, { layer: 'PROJECT', project: 'web', path: '_vance/skills/typescript-style/SKILL.md', content: skill('title: Off\ndescription: off\nversion: "1.0.0"\nenabled: no') });
    const hidden = await t.gql(SKILLS, { project: 'web', surface: 'USER' });
    expect(hidden.data?.skills.map((x: { name: string }) => x.name)).not.toContain('typescript-style');
    const admin = await t.gql(`{ skill(name: "typescript-style", project: "web") { status source shadowed } }`);
    expect(admin.data?.skill).toEqual({ status: 'DISABLED', source: 'PROJECT', shadowed: ['VANCE', 'RESOURCE'] });
  });

  it('validates without saving and warns about a field swallowed by params', async () => {
    const r = await t.gql(`query V($c: String!) { validateDocument(path: "_vance/recipes/x.yaml", content: $c) { severity field line message } }`, {
      c: 'description: x\nengine: ford\nparams:\n  model: default:fast\n  promptPrefix: hello\n',
    });
    const warning = r.data?.validateDocument.find((d: { field: string }) => d.field === 'params.promptPrefix');
    expect(warning).toMatchObject({ severity: 'WARNING', line: 5 });
    expect(warning.message).toContain('promptPrefix');
  });

  it('lists recipes in the recipe_list shape and the picker with categories', async () => {
    const list = (await t.gql(`{ recipes(project: "web") { count recipes { name source engine } } }`)).data?.recipes;
    expect(list.count).toBe(list.recipes.length);
    expect(list.recipes).toContainEqual({ name: 'analyze', source: 'BUNDLED', engine: 'ford' });
    const picker = (await t.gql(`{ listedRecipes(project: "web") { categories { id } recipes { name category } } }`)).data?.listedRecipes;
    expect(picker.categories.map((c: { id: string }) => c.id)).toEqual(['chat', 'research', 'coding', 'workers']);
    expect(picker.recipes.map((r: { name: string }) => r.name)).not.toContain('default');
    expect(picker.recipes.map((r: { name: string }) => r.name)).toContain('code-read');
    // The tenant hub is a SYSTEM project: normal-kind recipes do not appear there.
    const hub = (await t.gql(`{ listedRecipes { recipes { name } } }`)).data?.listedRecipes;
    expect(hub.recipes.map((r: { name: string }) => r.name)).not.toContain('code-read');
  });

  it('treats tenants: as a load barrier that answers not found and does not search further', async () => {
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/analyze.yaml', content: 'description: only for globex\nengine: ford\ntenants: [globex]\n' });
    expect((await t.gql(`{ recipe(name: "analyze") { name } }`)).data?.recipe).toBeNull();
    const list = (await t.gql(`{ recipes { recipes { name } } }`)).data?.recipes.recipes.map((r: { name: string }) => r.name);
    expect(list).not.toContain('analyze');
    expect(codeOf(await t.gql(RESOLVE, { name: 'analyze' }))).toBe('NOT_FOUND');
    await t.gql(`mutation { deleteDocument(layer: VANCE, path: "_vance/recipes/analyze.yaml") }`);
  });

  it('resolves a recipe: defaulting, caller params, profile block, tool pool and model alias', async () => {
    const r = (await t.gql(RESOLVE, { name: 'quick-lookup', params: { maxIterations: 5 }, project: 'web', profile: 'foot' })).data?.resolveRecipe;
    expect(r).toMatchObject({ kind: 'RECIPE', engine: 'ford', recipe: { name: 'quick-lookup', source: 'RESOURCE', reason: 'EXPLICIT' } });
    expect(r.params.maxIterations).toBe(5);
    expect(r.overriddenKeys).toEqual(['maxIterations']);
    // default:fast has no alias: falls back to ai.default.* from the environment layer.
    expect(r.model).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
    await t.gql(`mutation { putSetting(key: "ai.alias.default.fast", value: "anthropic:claude-haiku-4-5") { key } }`);
    const aliased = (await t.gql(RESOLVE, { name: 'quick-lookup' })).data?.resolveRecipe;
    expect(aliased.model).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5', tier: 'small' });
    const neither = (await t.gql(RESOLVE, {})).data?.resolveRecipe;
    expect(neither.recipe).toMatchObject({ name: 'default', reason: 'DEFAULT' });
    // Issue 15: what spawnProcess refuses, resolveRecipe refuses the same way (before: an ENGINE_DIRECT preview of an engine that cannot run).
    const direct = await t.gql(RESOLVE, { engine: 'custom-x' });
    expect(codeOf(direct)).toBe('BAD_USER_INPUT');
    expect(direct.errors?.[0]?.extensions?.domainCode).toBe('UNKNOWN_ENGINE');
    const spawned = await t.gql(`mutation { spawnProcess(input: { project: "web", engine: "custom-x" }) { id } }`);
    expect(direct.errors?.[0]?.message).toBe(spawned.errors?.[0]?.message);
  });

  it('warns at save about an engine that does not run here and params a turn would not use, at their lines (issue 15)', async () => {
    const content = 'description: elsewhere\nengine: eddie\nparams:\n  maxIterations: lots\n  temperature: hot\n';
    const checked = (await t.gql(`query V($c: String!) { validateDocument(path: "_vance/recipes/elsewhere.yaml", content: $c) { severity line message } }`, { c: content })).data?.validateDocument;
    expect(checked).toEqual([
      { severity: 'WARNING', line: 2, message: expect.stringContaining("engine 'eddie' does not run here") },
      { severity: 'WARNING', line: 4, message: expect.stringContaining('maxIterations must be a whole number') },
      { severity: 'WARNING', line: 5, message: expect.stringContaining('temperature "hot" is not a number') },
    ]);
    // Warnings only: a recipe written for another deployment still saves and lists; it fails where it would run.
    expect((await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/elsewhere.yaml', content })).errors).toBeUndefined();
    const resolved = await t.gql(RESOLVE, { name: 'elsewhere' });
    expect(resolved.errors?.[0]?.extensions?.domainCode).toBe('UNKNOWN_ENGINE');
    await t.gql(`mutation { deleteDocument(layer: VANCE, path: "_vance/recipes/elsewhere.yaml") }`);
  });

  it('drops caller params of a locked recipe and rejects unknown models with UNKNOWN_MODEL', async () => {
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/strict.yaml', content: 'description: strict\nengine: ford\nlocked: true\nparams:\n  maxIterations: 2\n' });
    const r = (await t.gql(RESOLVE, { name: 'strict', params: { maxIterations: 99 } })).data?.resolveRecipe;
    expect(r.params.maxIterations).toBe(2);
    expect(r.droppedCallerKeys).toEqual(['maxIterations']);
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/odd.yaml', content: 'description: odd\nengine: ford\nparams:\n  model: nowhere:model-x\n' });
    const odd = await t.gql(RESOLVE, { name: 'odd' });
    expect(codeOf(odd)).toBe('BAD_USER_INPUT');
    expect(odd.errors?.[0]?.extensions?.domainCode).toBe('UNKNOWN_MODEL');
  });

  it('serves manuals across the cascade, first hit per name', async () => {
    const before = (await t.gql(`{ manuals { name source } }`)).data?.manuals;
    expect(before).toContainEqual({ name: 'skill-authoring', source: 'RESOURCE' });
    await t.gql(PUT, { layer: 'VANCE', path: '_vance/manuals/skill-authoring.md', content: '# Ours' });
    const after = (await t.gql(`{ manuals { name source content } }`)).data?.manuals;
    expect(after.find((m: { name: string }) => m.name === 'skill-authoring')).toMatchObject({ source: 'VANCE', content: '# Ours' });
  });
});
