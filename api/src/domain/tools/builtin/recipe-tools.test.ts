import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture } from './builtin-fixture';

async function setup() {
  const fx = await createBuiltinFixture();
  const registry = new ToolRegistry(fx.tools);
  return { fx, call: (name: string, args: unknown, ctx: Parameters<ToolRegistry['dispatch']>[3]) => registry.dispatch(name, args, 'ALL', ctx) };
}

describe('recipe_list / recipe_describe', () => {
  it('lists the spawnable recipes in the seed 004 §8 shape, without protected ones and other tenants\' ones', async () => {
    const { fx, call } = await setup();
    const result = await call('recipe_list', {}, await fx.ctx());
    expect(JSON.parse(result.content)).toEqual({
      recipes: [{ name: 'analyze', description: 'Analyse material at hand', engine: 'ford', tags: ['analysis'], locked: false, source: 'BUNDLED' }],
      count: 1,
    });
  });

  it('shows a project recipe with source PROJECT, and the globex recipe only to globex', async () => {
    const { fx, call } = await setup();
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/recipes/local.yaml', 'engine: ford\ndescription: Local one\n');
    const alpha = JSON.parse((await call('recipe_list', {}, await fx.ctx())).content) as { recipes: { name: string; source: string }[] };
    expect(alpha.recipes.map((r) => `${r.name}:${r.source}`)).toEqual(['analyze:BUNDLED', 'local:PROJECT']);
    const globex = JSON.parse((await call('recipe_list', {}, await fx.ctx({}, fx.docs.users.eve, 'secret'))).content) as { recipes: { name: string }[] };
    expect(globex.recipes.map((r) => r.name)).toEqual(['analyze', 'globex-agent']);
  });

  it('describes a recipe with its defaults and the complete YAML document', async () => {
    const { fx, call } = await setup();
    const result = await call('recipe_describe', { name: 'analyze' }, await fx.ctx());
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content)).toMatchObject({
      name: 'analyze', engine: 'ford', source: 'BUNDLED', params: { maxIterations: 5 }, document: expect.stringContaining('maxIterations: 5'),
    });
  });

  it('answers "not found" for an unknown recipe and for another tenant\'s recipe behind the tenants: barrier', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    expect(await call('recipe_describe', { name: 'nope' }, ctx)).toEqual({ content: "Recipe 'nope' not found. Call recipe_list for the available recipes.", isError: true });
    const barred = await call('recipe_describe', { name: 'globex-agent' }, ctx);
    expect(barred).toEqual({ content: "Recipe 'globex-agent' not found. Call recipe_list for the available recipes.", isError: true });
    const forGlobex = await call('recipe_describe', { name: 'globex-agent' }, await fx.ctx({}, fx.docs.users.eve, 'secret'));
    expect(forGlobex.isError).toBeUndefined();
  });

  it('turns an invalid recipe name into an error result', async () => {
    const { fx, call } = await setup();
    const result = await call('recipe_describe', { name: '../skills/x' }, await fx.ctx());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Tool 'recipe_describe' failed: /);
  });
});
