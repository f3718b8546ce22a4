import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors';
import { RecipeInvalidError } from './errors';
import { RecipeLoader } from './recipe-loader';
import { applyDefaulting } from './spawn-defaulting';
import { cascadeWith, recipeYaml, SCOPE } from './testing';

const BUNDLED = [
  { path: '_vance/recipes/default.yaml', content: recipeYaml('title: default') },
  { path: '_vance/recipes/ford.yaml', content: recipeYaml('title: ford') },
  { path: '_vance/recipes/arthur.yaml', content: recipeYaml('', 'arthur') },
  { path: '_vance/recipes/analyze.yaml', content: recipeYaml() },
];

function loaderWith(resources = BUNDLED) {
  const { cascade, write } = cascadeWith(resources);
  return { loader: new RecipeLoader({ cascade }), write };
}

const pick = async (target: { recipe?: string | null; engine?: string | null }, loader = loaderWith().loader) => {
  const outcome = await applyDefaulting(loader, SCOPE, 'acme', target);
  return outcome.kind === 'RECIPE'
    ? { kind: outcome.kind, recipe: outcome.loaded.recipe.name, reason: outcome.reason, ignoredEngine: outcome.ignoredEngine }
    : outcome;
};

// The six rows of the spawn examples table, seed 004 §9.
describe('applyDefaulting (seed 004 §9)', () => {
  it('process_spawn(recipe="analyze") applies analyze', async () => {
    expect(await pick({ recipe: 'analyze' })).toEqual({ kind: 'RECIPE', recipe: 'analyze', reason: 'EXPLICIT', ignoredEngine: null });
  });

  it('process_spawn(engine="ford") applies the bundled recipe ford', async () => {
    expect(await pick({ engine: 'ford' })).toEqual({ kind: 'RECIPE', recipe: 'ford', reason: 'ENGINE_NAMED', ignoredEngine: null });
  });

  it('process_spawn(engine="arthur") applies the recipe arthur', async () => {
    expect(await pick({ engine: 'arthur' })).toMatchObject({ recipe: 'arthur', reason: 'ENGINE_NAMED' });
  });

  it('process_spawn(name="foo") with neither engine nor recipe applies default', async () => {
    expect(await pick({})).toEqual({ kind: 'RECIPE', recipe: 'default', reason: 'DEFAULT', ignoredEngine: null });
    expect(await pick({ recipe: '  ', engine: '' })).toMatchObject({ recipe: 'default' });
  });

  it('process_spawn(engine="custom-x") without such a recipe falls back to engine-direct', async () => {
    expect(await pick({ engine: 'custom-x' })).toEqual({ kind: 'ENGINE_DIRECT', engine: 'custom-x' });
    expect(await pick({ engine: 'not/a-file' })).toEqual({ kind: 'ENGINE_DIRECT', engine: 'not/a-file' });
  });

  it('process_spawn(engine="ford", recipe="analyze") lets the recipe win and reports the ignored engine', async () => {
    expect(await pick({ engine: 'ford', recipe: 'analyze' })).toEqual({ kind: 'RECIPE', recipe: 'analyze', reason: 'EXPLICIT', ignoredEngine: 'ford' });
  });
});

describe('applyDefaulting errors', () => {
  it('fails for an unknown named recipe and for a missing default, never falling back', async () => {
    await expect(pick({ recipe: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(pick({}, loaderWith([]).loader)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('does not fall back to engine-direct when the engine-named recipe is broken', async () => {
    const { loader, write } = loaderWith();
    await write('PROJECT', '_vance/recipes/ford.yaml', 'engine: ford\n');
    await expect(pick({ engine: 'ford' }, loader)).rejects.toBeInstanceOf(RecipeInvalidError);
  });

  it('goes engine-direct when the engine-named recipe is not for this tenant', async () => {
    const { loader } = loaderWith([{ path: '_vance/recipes/ford.yaml', content: recipeYaml('tenants: [globex]') }]);
    expect(await pick({ engine: 'ford' }, loader)).toEqual({ kind: 'ENGINE_DIRECT', engine: 'ford' });
  });
});
