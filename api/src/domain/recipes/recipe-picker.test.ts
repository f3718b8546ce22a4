import { describe, expect, it } from 'vitest';
import { parseRecipeCategories, RECIPE_CATEGORIES_PATH } from './recipe-categories';
import { RecipeLoader } from './recipe-loader';
import { RecipePicker } from './recipe-picker';
import { cascadeWith, recipeYaml, SCOPE } from './testing';

const recipe = (name: string, extra: string) => ({ path: `_vance/recipes/${name}.yaml`, content: recipeYaml(`listed: true\n${extra}`) });
const CATEGORIES = `categories:
  - id: research
    title: { en: Research, de: Recherche }
  - id: coding
    title: { en: Coding }
`;

function pickerWith(resources: { path: string; content: string }[]) {
  const { cascade, write } = cascadeWith(resources);
  return { picker: new RecipePicker({ loader: new RecipeLoader({ cascade }), cascade }), write };
}

describe('RecipePicker.listedRecipes (seed 004 §6e)', () => {
  const RECIPES = [
    recipe('arthur', 'title: Arthur\ncategory: chat'),
    recipe('code-read', 'category: coding'),
    recipe('coding', 'title: Coding\ncategory: Coding'),
    recipe('quick-lookup', 'title: quick Lookup\ncategory: research'),
    recipe('analyze', 'title: Analyze\ncategory: research'),
    recipe('zz-misc', ''),
    recipe('creator', 'category: workers'),
    recipe('eddie', 'projectKind: system\ncategory: chat'),
    recipe('everywhere', 'projectKind: any\ntitle: Anywhere'),
    recipe('helper', 'internal: true'),
    { path: '_vance/recipes/default.yaml', content: recipeYaml() },
  ];

  it('filters listed && !internal by project kind and sorts by category group, then title || name', async () => {
    const { picker } = pickerWith([...RECIPES, { path: RECIPE_CATEGORIES_PATH, content: CATEGORIES }]);
    const result = await picker.listedRecipes(SCOPE, 'acme', 'NORMAL');
    expect(result.categories).toEqual([{ id: 'research', title: { en: 'Research', de: 'Recherche' } }, { id: 'coding', title: { en: 'Coding' } }]);
    expect(result.recipes.map((r) => [r.name, r.category])).toEqual([
      ['analyze', 'research'], ['quick-lookup', 'research'],
      ['code-read', 'coding'], ['coding', 'coding'],
      ['arthur', 'chat'], ['creator', 'workers'],
      ['everywhere', null], ['zz-misc', null],
    ]);
    expect(result.recipes[0]).toEqual({ name: 'analyze', title: 'Analyze', description: 'A test recipe', category: 'research' });
    expect(result.warnings).toEqual([]);
  });

  it('shows system recipes only in system projects, and any-recipes in both', async () => {
    const { picker } = pickerWith(RECIPES);
    expect((await picker.listedRecipes(SCOPE, 'acme', 'SYSTEM')).recipes.map((r) => r.name)).toEqual(['eddie', 'everywhere']);
  });

  it('sorts categories alphabetically without a categories document', async () => {
    const { picker } = pickerWith(RECIPES);
    const result = await picker.listedRecipes(SCOPE, 'acme', 'NORMAL');
    expect(result.categories).toEqual([]);
    expect(result.recipes.map((r) => r.category)).toEqual(['chat', 'coding', 'coding', 'research', 'research', 'workers', null, null]);
  });

  it('takes the innermost categories document whole and ignores a malformed one with a warning (fail-open)', async () => {
    const { picker, write } = pickerWith([...RECIPES, { path: RECIPE_CATEGORIES_PATH, content: CATEGORIES }]);
    await write('PROJECT', RECIPE_CATEGORIES_PATH, 'categories:\n  - id: coding\n  - id: coding\n');
    const result = await picker.listedRecipes(SCOPE, 'acme', 'NORMAL');
    expect(result.categories).toEqual([]);
    expect(result.recipes.map((r) => r.category)[0]).toBe('chat');
    expect(result.warnings).toMatchObject([{ severity: 'WARNING', path: RECIPE_CATEGORIES_PATH, message: expect.stringContaining("'coding' appears twice") }]);
  });

  it('applies the tenants barrier', async () => {
    const { picker } = pickerWith([recipe('mine', 'tenants: [globex]')]);
    expect((await picker.listedRecipes(SCOPE, 'acme', 'NORMAL')).recipes).toEqual([]);
  });
});

describe('parseRecipeCategories fail-open rules', () => {
  it.each([
    ['a list at the top', '- id: a\n', 'categories: list'],
    ['a missing id', 'categories:\n  - title: { en: A }\n', 'has no id'],
    ['an empty id', 'categories:\n  - id: " "\n', 'has no id'],
    ['an empty title entry', 'categories:\n  - id: a\n    title: { en: "" }\n', 'title'],
    ['a title that is not a map', 'categories:\n  - id: a\n    title: A\n', 'title'],
    ['broken YAML', 'categories: [\n', 'YAML syntax'],
  ])('ignores a document with %s', (_what, content, message) => {
    const result = parseRecipeCategories(content);
    expect(result.categories).toEqual([]);
    expect(result.warnings[0]?.message).toContain(message);
  });

  it('normalises ids like recipe categories and allows a missing title', () => {
    expect(parseRecipeCategories('categories:\n  - id: " Code-Read "\n').categories).toEqual([{ id: 'code-read', title: null }]);
  });
});
