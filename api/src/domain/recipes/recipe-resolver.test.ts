import { describe, expect, it } from 'vitest';
import { StaticSettings } from '../settings/settings-reader';
import { StaticToolCatalog } from '../tools/tool-descriptor';
import { UnknownModelError } from './errors';
import { RECIPE_EXTENSION_SEPARATOR } from './prompt-composition';
import { RecipeLoader } from './recipe-loader';
import { RecipeResolver } from './recipe-resolver';
import type { ResolveRecipeRequest } from './recipe-resolution';
import { cascadeWith, FakeTemplateEngine, recipeYaml, SCOPE } from './testing';

const ANALYZE = recipeYaml(`params:
  model: default:analyze
  maxIterations: 10
  temperature: "0.3"
  topP: 7
promptPrefix: |
  Analyse on {{ tier }} as {{ recipe }}.
allowedToolsRemove: ["@destructive"]
allowedSkills: [naming]
defaultActiveSkills: [naming]
profiles:
  foot:
    params: { maxIterations: 6 }
    promptPrefixAppend: "Foot client."
  default:
    allowedToolsRemove: [web_fetch]
`);
const LOCKED = recipeYaml('locked: true\nparams: { model: "anthropic:claude-sonnet-4-6" }\n');
const SETTINGS = new StaticSettings({ 'ai.default.provider': 'anthropic', 'ai.default.model': 'claude-sonnet-4-6', 'ai.alias.default.analyze': 'gemini:gemini-2.5-flash' });
const CATALOG = new StaticToolCatalog([
  { name: 'doc_read', labels: ['read'] },
  { name: 'doc_purge', labels: ['write', 'destructive'] },
  { name: 'web_fetch', labels: ['read', 'side-effect'] },
]);

function resolverWith() {
  const { cascade, write } = cascadeWith([
    { path: '_vance/recipes/analyze.yaml', content: ANALYZE },
    { path: '_vance/recipes/locked.yaml', content: LOCKED },
    { path: '_vance/recipes/default.yaml', content: recipeYaml('promptPrefix: Generalist.') },
  ]);
  const templates = new FakeTemplateEngine();
  const resolver = new RecipeResolver({ loader: new RecipeLoader({ cascade, templates }), templates, tools: CATALOG });
  const resolve = (request: Partial<ResolveRecipeRequest>) => resolver.resolve({ scope: SCOPE, tenantName: 'acme', settings: SETTINGS, ...request });
  return { resolve, write };
}

describe('RecipeResolver.resolve', () => {
  it('returns what resolveRecipe shows: params, engine, source, templates, tools, skills, model and audit data', async () => {
    const { resolve } = resolverWith();
    const result = await resolve({ recipe: 'analyze', profile: 'foot', params: { maxIterations: 20 }, engineDefaultPrompt: 'Ford.' });
    expect(result).toMatchObject({
      kind: 'RECIPE',
      recipe: { name: 'analyze', source: 'RESOURCE', shadowed: [], reason: 'EXPLICIT' },
      engine: 'ford',
      params: { model: 'default:analyze', maxIterations: 20, temperature: '0.3' },
      overriddenKeys: ['maxIterations'],
      droppedCallerKeys: [],
      profile: { profile: 'foot', match: 'EXACT', block: 'foot' },
      promptMode: 'APPEND',
      promptOverride: 'Analyse on {{ tier }} as {{ recipe }}.\n',
      profileAppendTemplate: 'Foot client.',
      systemPromptPreview: `Ford.${RECIPE_EXTENSION_SEPARATOR}Analyse on small as analyze.\n\nFoot client.`,
      profileAppendPlacement: 'APPENDED',
      tools: { allowed: ['doc_read', 'web_fetch'], removed: ['doc_purge'] },
      allowedSkills: ['naming'],
      defaultActiveSkills: ['naming'],
      model: { provider: 'gemini', model: 'gemini-2.5-flash', tier: 'small' },
      sampling: { temperature: 0.3, topP: null },
    });
    // The recipe's own warning at save (issue 15, with its line), once: the resolution dropping the
    // same value again is not a second warning (it was shown twice).
    expect(result.warnings).toEqual([
      expect.objectContaining({ severity: 'WARNING', line: 7, field: 'params.topP', message: expect.stringContaining('topP 7 is outside 0..1'), path: '_vance/recipes/analyze.yaml' }),
    ]);
  });

  it('reports a bad value the caller or a profile block brings once, and the recipe\'s own bad modelSize and model once (issue 15)', async () => {
    const { resolve, write } = resolverWith();
    await write('PROJECT', '_vance/recipes/odd.yaml', recipeYaml('params:\n  modelSize: huge\n  model: 7\nprofiles:\n  mobile:\n    params: { temperature: 5 }\n'));
    const own = await resolve({ recipe: 'odd', profile: 'mobile' });
    expect(own.warnings.map((w) => w.field)).toEqual(['params.model', 'params.modelSize', 'profiles.mobile.params.temperature']);
    const caller = await resolve({ recipe: 'odd', params: { topK: 'many' } });
    expect(caller.warnings.map((w) => w.field)).toEqual(['params.model', 'params.modelSize', 'profiles.mobile.params.temperature', 'params.topK']);
  });

  it('drops the caller params of a locked recipe and reports them', async () => {
    const { resolve } = resolverWith();
    const result = await resolve({ recipe: 'locked', params: { model: 'openai:gpt-5', maxIterations: 2 } });
    expect(result).toMatchObject({ params: { model: 'anthropic:claude-sonnet-4-6' }, overriddenKeys: [], droppedCallerKeys: ['maxIterations', 'model'], locked: true });
    expect(result.warnings).toMatchObject([{ field: 'params', message: expect.stringContaining('locked') }]);
  });

  it('uses the default profile block for an unknown profile and without a profile (wire default web)', async () => {
    const { resolve } = resolverWith();
    expect(await resolve({ recipe: 'analyze', profile: 'kiosk' })).toMatchObject({ profile: { profile: 'kiosk', match: 'DEFAULT' }, tools: { allowed: ['doc_read'] } });
    expect((await resolve({ recipe: 'analyze' })).profile).toEqual({ profile: 'web', match: 'DEFAULT', block: 'default' });
  });

  it('reports an engine argument ignored because a recipe was named', async () => {
    const { resolve } = resolverWith();
    const result = await resolve({ recipe: 'analyze', engine: 'arthur' });
    expect(result).toMatchObject({ engine: 'ford', ignoredEngine: 'arthur' });
    expect(result.warnings.map((w) => w.field)).toContain('engine');
  });

  it('resolves engine-direct with the engine default prompt alone and the caller params', async () => {
    const { resolve } = resolverWith();
    const result = await resolve({ engine: 'custom-x', params: { model: 'openai:gpt-5' }, engineDefaultPrompt: 'Custom {{ engine }}.', engineAllowedTools: ['doc_read'] });
    expect(result).toMatchObject({
      kind: 'ENGINE_DIRECT', recipe: null, engine: 'custom-x', params: { model: 'openai:gpt-5' }, overriddenKeys: ['model'],
      systemPromptPreview: 'Custom custom-x.', tools: { allowed: ['doc_read'], unrestricted: false }, model: { provider: 'openai', tier: 'large' },
    });
  });

  it('applies the default recipe when neither recipe nor engine is given', async () => {
    const { resolve } = resolverWith();
    expect(await resolve({})).toMatchObject({ recipe: { name: 'default', reason: 'DEFAULT' }, model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } });
  });

  it('fails with UNKNOWN_MODEL for an explicit model nothing resolves', async () => {
    const { resolve } = resolverWith();
    await expect(resolve({ recipe: 'analyze', params: { model: 'acme:x' } })).rejects.toBeInstanceOf(UnknownModelError);
  });

  it('warns instead of failing when no model is configured at all', async () => {
    const { resolve } = resolverWith();
    const result = await resolve({ settings: new StaticSettings({}) });
    expect(result.model).toBeNull();
    expect(result.warnings).toMatchObject([{ field: 'params.model', message: expect.stringContaining('no model configured') }]);
  });

  it('adds the tools of active skills even when the recipe removed them', async () => {
    const { resolve } = resolverWith();
    expect((await resolve({ recipe: 'analyze', profile: 'foot', skillTools: ['doc_purge'] })).tools.allowed).toEqual(['doc_purge', 'doc_read', 'web_fetch']);
  });

  it('reports a preview that cannot be rendered as a warning, keeping the rest', async () => {
    const { resolve, write } = resolverWith();
    await write('PROJECT', '_vance/recipes/broken-render.yaml', recipeYaml('promptPrefix: "{{ explode }}"'));
    const result = await resolve({ recipe: 'broken-render', engineDefaultPrompt: 'Ford.', settings: SETTINGS });
    expect(result.systemPromptPreview).toBeNull();
    expect(result.warnings).toMatchObject([{ field: 'promptPrefix', message: expect.stringContaining('fake failure') }]);
  });
});
