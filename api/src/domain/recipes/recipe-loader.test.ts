import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../errors';
import { recipeDocumentKind } from './recipe-document-kind';
import { InvalidRecipeNameError, RecipeInvalidError } from './errors';
import { RecipeLoader, recipeNameOf, recipePath } from './recipe-loader';
import { cascadeWith, FakeTemplateEngine, recipeYaml, SCOPE } from './testing';

const PATH = '_vance/recipes/analyze.yaml';

function loaderWith(resources: { path: string; content: string }[] = []) {
  const { cascade, write, store } = cascadeWith(resources);
  const templates = new FakeTemplateEngine();
  const loader = new RecipeLoader({ cascade, templates });
  return { loader, write, store, templates };
}

describe('RecipeLoader.load', () => {
  it('prefers the project recipe over the tenant and bundled ones and reports source and shadowed layers', async () => {
    const { loader, write } = loaderWith([{ path: PATH, content: recipeYaml('title: bundled') }]);
    await write('VANCE', PATH, recipeYaml('title: tenant'));
    await write('PROJECT', PATH, recipeYaml('title: project'));
    const loaded = await loader.load(SCOPE, 'acme', 'analyze');
    expect(loaded).toMatchObject({ source: 'PROJECT', shadowed: ['VANCE', 'RESOURCE'], version: 1, recipe: { title: 'project', name: 'analyze' } });
  });

  it('answers NotFoundError for a recipe no layer has', async () => {
    const { loader } = loaderWith();
    await expect(loader.load(SCOPE, 'acme', 'nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(await loader.find(SCOPE, 'acme', 'nope')).toBeNull();
  });

  it('rejects a name that is not a file name', async () => {
    const { loader } = loaderWith();
    await expect(loader.load(SCOPE, 'acme', '../x')).rejects.toBeInstanceOf(InvalidRecipeNameError);
    expect(() => recipePath('a/b')).toThrow(InvalidRecipeNameError);
  });

  it('refuses a recipe that does not validate with its diagnostics (BAD_INPUT)', async () => {
    const { loader, write } = loaderWith();
    await write('PROJECT', PATH, 'engine: ford\nprojectKind: hub\n');
    const error = await loader.load(SCOPE, 'acme', 'analyze').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipeInvalidError);
    expect(error).toMatchObject({ code: 'RECIPE_INVALID', category: 'BAD_INPUT', source: 'PROJECT' });
    expect((error as RecipeInvalidError).diagnostics.map((d) => d.field)).toEqual(['description', 'projectKind']);
  });

  it('returns the warnings of a loadable recipe', async () => {
    const { loader, write } = loaderWith();
    await write('PROJECT', PATH, recipeYaml('params:\n  promptPrefix: x\n'));
    expect((await loader.load(SCOPE, 'acme', 'analyze')).diagnostics).toMatchObject([{ severity: 'WARNING', field: 'params.promptPrefix' }]);
  });

  it('does not re-parse an unchanged recipe, and re-parses after a write', async () => {
    const { loader, write, templates } = loaderWith();
    await write('PROJECT', PATH, recipeYaml('promptPrefix: one'));
    const check = vi.spyOn(templates, 'check');
    await loader.load(SCOPE, 'acme', 'analyze');
    await loader.load(SCOPE, 'acme', 'analyze');
    expect(check).toHaveBeenCalledTimes(1);
    await write('PROJECT', PATH, recipeYaml('promptPrefix: two'));
    expect((await loader.load(SCOPE, 'acme', 'analyze')).recipe.promptPrefix).toBe('two');
    expect(check).toHaveBeenCalledTimes(2);
  });
});

describe('RecipeLoader — the tenants barrier (seed 004 §2a)', () => {
  const FOR_ACME = recipeYaml('tenants: [acme]\n');

  it('loads a recipe for the listed tenant, case-insensitively, and for everyone when tenants is empty', async () => {
    const { loader } = loaderWith([{ path: PATH, content: FOR_ACME }, { path: '_vance/recipes/open.yaml', content: recipeYaml('tenants: []\n') }]);
    expect((await loader.load(SCOPE, 'ACME', 'analyze')).recipe.tenants).toEqual(['acme']);
    expect(await loader.find(SCOPE, 'globex', 'open')).not.toBeNull();
  });

  it("answers 'not found' — never 'forbidden' — for another tenant", async () => {
    const { loader } = loaderWith([{ path: PATH, content: FOR_ACME }]);
    const error = await loader.load(SCOPE, 'globex', 'analyze').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe("Recipe 'analyze' not found");
  });

  it('does not search further outward when the first hit is not for this tenant', async () => {
    const { loader, write } = loaderWith([{ path: PATH, content: recipeYaml('title: bundled for all') }]);
    await write('VANCE', PATH, FOR_ACME);
    expect(await loader.find(SCOPE, 'globex', 'analyze')).toBeNull();
    expect((await loader.listAvailable(SCOPE, 'globex')).map((l) => l.name)).toEqual([]);
  });

  it('applies to a broken recipe too, so its diagnostics are no oracle', async () => {
    const { loader, write } = loaderWith();
    await write('PROJECT', PATH, 'tenants: [acme]\nengine: ford\n');
    expect(await loader.find(SCOPE, 'globex', 'analyze')).toBeNull();
    expect(await loader.listAvailable(SCOPE, 'globex', { includeInvalid: true })).toEqual([]);
    await expect(loader.load(SCOPE, 'acme', 'analyze')).rejects.toBeInstanceOf(RecipeInvalidError);
  });

  it('filters the listing the same way as load', async () => {
    const { loader } = loaderWith([
      { path: PATH, content: FOR_ACME },
      { path: '_vance/recipes/ford.yaml', content: recipeYaml() },
    ]);
    expect((await loader.listAvailable(SCOPE, 'acme')).map((l) => l.name)).toEqual(['analyze', 'ford']);
    expect((await loader.listAvailable(SCOPE, 'globex')).map((l) => l.name)).toEqual(['ford']);
  });
});

describe('RecipeLoader.listAvailable', () => {
  it('merges the layers by name, inner over outer, and skips files that are not recipes', async () => {
    const { loader, write } = loaderWith([
      { path: PATH, content: recipeYaml('title: bundled') },
      { path: '_vance/recipes/ford.yaml', content: recipeYaml() },
      { path: '_vance/recipes/notes.md', content: 'not a recipe' },
      { path: '_vance/recipes/nested/x.yaml', content: recipeYaml() },
    ]);
    await write('VANCE', PATH, recipeYaml('title: tenant'));
    const listings = await loader.listAvailable(SCOPE, 'acme');
    expect(listings.map((l) => [l.name, l.source, l.shadowed, l.recipe?.title ?? null])).toEqual([
      ['analyze', 'VANCE', ['RESOURCE'], 'tenant'],
      ['ford', 'RESOURCE', [], null],
    ]);
  });

  it('lists a broken recipe only for admins (includeInvalid), with its diagnostics', async () => {
    const { loader, write } = loaderWith();
    await write('PROJECT', PATH, 'description: d\n');
    expect(await loader.listAvailable(SCOPE, 'acme')).toEqual([]);
    const [broken] = await loader.listAvailable(SCOPE, 'acme', { includeInvalid: true });
    expect(broken).toMatchObject({ name: 'analyze', recipe: null, diagnostics: [{ severity: 'ERROR', field: 'engine' }] });
  });

  it('hides a recipe disabled in an inner layer together with the outer copies', async () => {
    const { loader, write } = loaderWith([{ path: PATH, content: recipeYaml() }]);
    await write('PROJECT', PATH, 'enabled: false\n');
    expect(await loader.find(SCOPE, 'acme', 'analyze')).toBeNull();
    expect(await loader.listAvailable(SCOPE, 'acme', { includeInvalid: true })).toEqual([]);
  });
});

describe('recipe paths and validation by path', () => {
  it('maps names to paths and back', () => {
    expect(recipePath('code-read')).toBe('_vance/recipes/code-read.yaml');
    expect(recipeNameOf('_vance/recipes/_prak.yaml')).toBe('_prak');
    expect(recipeNameOf('_vance/recipes/a/b.yaml')).toBeNull();
    expect(recipeNameOf('_vance/skills/x.yaml')).toBeNull();
  });

  it('validates a recipe document by its path for putDocument and lint', () => {
    const kind = recipeDocumentKind(new FakeTemplateEngine());
    const match = kind.pattern.exec('_vance/recipes/x.yaml')!;
    expect(kind.validate('_vance/recipes/x.yaml', match, 'engine: ford\n')).toMatchObject([{ severity: 'ERROR', field: 'description', path: '_vance/recipes/x.yaml' }]);
    expect(kind.pattern.test('_vance/recipes/a/b.yaml')).toBe(false);
  });
});
