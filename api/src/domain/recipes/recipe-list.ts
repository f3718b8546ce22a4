/**
 * The `recipe_list` shape (seed 004 §8): the effective catalog for the tenant/project view with
 * correct override accounting, each entry with the layer it came from as BUNDLED | TENANT | PROJECT
 * (USER for a user's own layer). Recipes that do not validate are left out. With `spawnableOnly`
 * (the recipe_list tool for the model) `protected` and `internal` recipes are left out too (seed 004
 * §2, §6a "not visible in the search/spawn list").
 */
import type { Layer } from '../cascade/layer';
import type { RecipeListing } from './recipe-loader';

export type RecipeListSource = 'BUNDLED' | 'TENANT' | 'PROJECT' | 'USER';

export interface RecipeListEntry {
  readonly name: string;
  readonly description: string;
  readonly engine: string;
  readonly tags: readonly string[];
  readonly locked: boolean;
  readonly source: RecipeListSource;
}

export interface RecipeList {
  readonly recipes: readonly RecipeListEntry[];
  readonly count: number;
}

export function recipeListSource(layer: Layer): RecipeListSource {
  switch (layer) {
    case 'RESOURCE':
      return 'BUNDLED';
    case 'VANCE':
      return 'TENANT';
    case 'PROJECT':
      return 'PROJECT';
    case 'USER':
      return 'USER';
    default: {
      const never: never = layer;
      return never;
    }
  }
}

export function toRecipeList(listings: readonly RecipeListing[], options: { spawnableOnly?: boolean } = {}): RecipeList {
  const recipes: RecipeListEntry[] = [];
  for (const { recipe, source } of listings) {
    if (!recipe || (options.spawnableOnly && (recipe.protected || recipe.internal))) continue;
    recipes.push({ name: recipe.name, description: recipe.description, engine: recipe.engine, tags: recipe.tags, locked: recipe.locked, source: recipeListSource(source) });
  }
  return { recipes, count: recipes.length };
}
