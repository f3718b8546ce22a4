import { describe, expect, it } from 'vitest';
import { RecipeLoader } from './recipe-loader';
import { recipeListSource, toRecipeList } from './recipe-list';
import { cascadeWith, recipeYaml, SCOPE } from './testing';

describe('recipe_list shape (seed 004 §8)', () => {
  it('lists name, description, engine, tags, locked and the source as BUNDLED | TENANT | PROJECT', async () => {
    const { cascade, write } = cascadeWith([
      { path: '_vance/recipes/analyze.yaml', content: recipeYaml('tags: [research]\nlocked: true') },
      { path: '_vance/recipes/ford.yaml', content: recipeYaml() },
      { path: '_vance/recipes/arthur.yaml', content: recipeYaml('protected: true', 'arthur') },
    ]);
    await write('VANCE', '_vance/recipes/ford.yaml', recipeYaml());
    await write('PROJECT', '_vance/recipes/mine.yaml', recipeYaml());
    await write('PROJECT', '_vance/recipes/broken.yaml', 'engine: x\n');
    const listings = await new RecipeLoader({ cascade }).listAvailable(SCOPE, 'acme', { includeInvalid: true });
    expect(toRecipeList(listings)).toEqual({
      recipes: [
        { name: 'analyze', description: 'A test recipe', engine: 'ford', tags: ['research'], locked: true, source: 'BUNDLED' },
        { name: 'arthur', description: 'A test recipe', engine: 'arthur', tags: [], locked: false, source: 'BUNDLED' },
        { name: 'ford', description: 'A test recipe', engine: 'ford', tags: [], locked: false, source: 'TENANT' },
        { name: 'mine', description: 'A test recipe', engine: 'ford', tags: [], locked: false, source: 'PROJECT' },
      ],
      count: 4,
    });
    expect(toRecipeList(listings, { spawnableOnly: true }).recipes.map((r) => r.name)).toEqual(['analyze', 'ford', 'mine']);
  });

  it('maps the USER layer to USER', () => {
    expect(recipeListSource('USER')).toBe('USER');
  });
});
