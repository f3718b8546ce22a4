/**
 * The user-facing recipe picker (seed 004 §6e): recipes with `listed: true` and not `internal`,
 * filtered by the current project's kind (`normal` → regular projects, `system` → the hub projects
 * `_tenant` / `_user_*`, `any` → both), sorted server-side: documented categories in document order,
 * then undocumented ones alphabetically, recipes without category last; within a group by
 * title || name, case-insensitive. A display filter only — spawning by name stays free.
 */
import type { CascadeScope } from '../cascade/scope';
import type { DocumentCascade } from '../cascade/document-cascade';
import type { Diagnostic } from '../errors';
import type { ProjectKind } from '../identity/identity';
import type { Recipe } from './recipe';
import { readRecipeCategories, type RecipeCategory } from './recipe-categories';
import type { RecipeLoader } from './recipe-loader';

export interface ListedRecipe {
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly category: string | null;
}

export interface ListedRecipes {
  readonly categories: readonly RecipeCategory[];
  readonly recipes: readonly ListedRecipe[];
  /** A malformed categories document (fail-open, seed 004 §6e). */
  readonly warnings: readonly Diagnostic[];
}

export class RecipePicker {
  constructor(private readonly deps: { readonly loader: RecipeLoader; readonly cascade: DocumentCascade }) {}

  async listedRecipes(scope: CascadeScope, tenantName: string, projectKind: ProjectKind): Promise<ListedRecipes> {
    const [listings, categories] = await Promise.all([
      this.deps.loader.listAvailable(scope, tenantName),
      readRecipeCategories(this.deps.cascade, scope),
    ]);
    const recipes = listings
      .map((l) => l.recipe)
      .filter((r): r is Recipe => r !== null && r.listed && !r.internal && fitsProject(r, projectKind));
    return {
      categories: categories.categories,
      recipes: sortForPicker(recipes, categories.categories).map(toListed),
      warnings: categories.warnings,
    };
  }
}

export function fitsProject(recipe: Recipe, projectKind: ProjectKind): boolean {
  switch (recipe.projectKind) {
    case 'any':
      return true;
    case 'normal':
      return projectKind === 'NORMAL';
    case 'system':
      return projectKind === 'SYSTEM';
    default: {
      const never: never = recipe.projectKind;
      return never;
    }
  }
}

export function sortForPicker<T extends Pick<Recipe, 'name' | 'title' | 'category'>>(recipes: readonly T[], categories: readonly RecipeCategory[]): T[] {
  const documented = new Map(categories.map((c, index) => [c.id, index]));
  const groupKey = (r: T): [number, string] => {
    if (r.category === null) return [2, ''];
    const index = documented.get(r.category);
    return index !== undefined ? [0, String(index).padStart(6, '0')] : [1, r.category];
  };
  const label = (r: T) => (r.title ?? r.name).toLowerCase();
  return [...recipes].sort((a, b) => {
    const [ga, ka] = groupKey(a);
    const [gb, kb] = groupKey(b);
    return ga - gb || compare(ka, kb) || compare(label(a), label(b)) || compare(a.name, b.name);
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toListed(recipe: Recipe): ListedRecipe {
  return { name: recipe.name, title: recipe.title, description: recipe.description, category: recipe.category };
}
