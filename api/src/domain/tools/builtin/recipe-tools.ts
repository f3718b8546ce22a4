/**
 * `recipe_list` / `recipe_describe` (seed 004 §8): the effective recipe catalog of the process's
 * tenant/project view, and one recipe in full. Both go through RecipeLoader, so the `tenants:` load
 * barrier (seed 004 §2a) and `enabled: false` apply: such a recipe is "not found", never "forbidden".
 * The list leaves out `protected` and `internal` recipes (not for spawning by the model).
 */
import type { DocumentCascade } from '../../cascade/document-cascade';
import type { RecipeLoader } from '../../recipes/recipe-loader';
import { recipeListSource, toRecipeList } from '../../recipes/recipe-list';
import type { Recipe } from '../../recipes/recipe';
import { objectSchema } from './json-schema';
import { json, refuse, str, type BuiltinTool } from './tool-support';

export interface RecipeToolDeps {
  readonly recipes: RecipeLoader;
  readonly cascade: DocumentCascade;
}

export const RECIPE_NAME_SCHEMA = { type: 'string', minLength: 1, maxLength: 128, description: 'A recipe name as listed by recipe_list' } as const;

function summary(recipe: Recipe): Record<string, unknown> {
  return {
    name: recipe.name,
    title: recipe.title,
    description: recipe.description,
    engine: recipe.engine,
    tags: recipe.tags,
    category: recipe.category,
    locked: recipe.locked,
    params: recipe.params,
    promptMode: recipe.promptMode,
    promptPrefix: recipe.promptPrefix,
    allowedToolsAdd: recipe.allowedToolsAdd,
    allowedToolsRemove: recipe.allowedToolsRemove,
    allowedToolsDefer: recipe.allowedToolsDefer,
    defaultActiveSkills: recipe.defaultActiveSkills,
    allowedSkills: recipe.allowedSkills,
    profiles: [...recipe.profiles.keys()],
  };
}

export function recipeTools(deps: RecipeToolDeps): BuiltinTool[] {
  const recipeList: BuiltinTool = {
    name: 'recipe_list',
    labels: ['read', 'recipes'],
    description:
      'List the worker recipes you can spawn in this project: bundled, tenant and project recipes with overrides applied. ' +
      'Returns JSON { recipes: [{ name, description, engine, tags, locked, source: BUNDLED|TENANT|PROJECT|USER }], count }. ' +
      'Use it when the recipes named in your instructions do not fit the task; spawn one with process_spawn.',
    parameters: objectSchema({}),
    async invoke(_args, ctx) {
      const listings = await deps.recipes.listAvailable(ctx.scope, ctx.principal.tenant.name);
      return json(toRecipeList(listings, { spawnableOnly: true }));
    },
  };

  const recipeDescribe: BuiltinTool = {
    name: 'recipe_describe',
    labels: ['read', 'recipes'],
    description:
      'Describe one recipe in full: its engine, default parameters, prompt, tool adjustments and skills, plus the ' +
      'complete YAML document. Use it to decide whether a recipe fits before spawning it, or to see its defaults. ' +
      'An unknown recipe is an error; recipe_list shows the names.',
    parameters: objectSchema({ name: RECIPE_NAME_SCHEMA }, ['name']),
    async invoke(args, ctx) {
      const name = str(args, 'name').trim();
      const loaded = await deps.recipes.find(ctx.scope, ctx.principal.tenant.name, name);
      if (!loaded) return refuse(`Recipe '${name}' not found. Call recipe_list for the available recipes.`);
      const doc = await deps.cascade.lookupCascade(ctx.scope, loaded.recipe.path);
      return json({
        ...summary(loaded.recipe),
        source: recipeListSource(loaded.source),
        document: doc?.document.content ?? null,
      });
    },
  };

  return [recipeList, recipeDescribe];
}
