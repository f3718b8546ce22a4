/**
 * The picker's category document `_vance/config/recipe_categories.yaml` (seed 004 §6e): a sorting aid,
 * not a registry. Read through the cascade (first hit wins, no field merge) on every picker request.
 * Fail-open: a malformed document (wrong type, missing/empty id, duplicate id, empty title entries) is
 * ignored as a whole and reported as a warning; the picker then sorts as if there were none.
 */
import type { CascadeScope } from '../cascade/scope';
import type { DocumentCascade } from '../cascade/document-cascade';
import type { Diagnostic } from '../errors';
import { YamlSource } from '../shared/yaml-source';
import { isPlainMap } from './read-fields';

export const RECIPE_CATEGORIES_PATH = '_vance/config/recipe_categories.yaml';

export interface RecipeCategory {
  /** trim + lower-case, like a recipe's category. */
  readonly id: string;
  /** language → text, passed through; the client resolves the locale. */
  readonly title: Readonly<Record<string, string>> | null;
}

export interface RecipeCategories {
  /** In document order; [] without a (valid) document. */
  readonly categories: readonly RecipeCategory[];
  readonly warnings: readonly Diagnostic[];
}

export async function readRecipeCategories(cascade: DocumentCascade, scope: CascadeScope): Promise<RecipeCategories> {
  const hit = await cascade.lookupCascade(scope, RECIPE_CATEGORIES_PATH);
  if (!hit) return { categories: [], warnings: [] };
  return parseRecipeCategories(hit.document.content, `${RECIPE_CATEGORIES_PATH} (${hit.source})`);
}

export function parseRecipeCategories(content: string, where: string = RECIPE_CATEGORIES_PATH): RecipeCategories {
  const problem = (message: string): RecipeCategories => ({
    categories: [],
    warnings: [{ severity: 'WARNING', path: RECIPE_CATEGORIES_PATH, message: `${where} is ignored (categories sort alphabetically): ${message}` }],
  });
  const source = new YamlSource(content);
  if (source.errors.length > 0) return problem(`YAML syntax at line ${source.errors[0]!.line}: ${source.errors[0]!.message}`);
  let doc: unknown;
  try {
    doc = source.toJS();
  } catch (error) {
    return problem(error instanceof Error ? error.message : String(error));
  }
  if (!isPlainMap(doc) || !Array.isArray(doc.categories)) return problem('it must be a map with a categories: list');
  const categories: RecipeCategory[] = [];
  for (const [index, entry] of doc.categories.entries()) {
    if (!isPlainMap(entry)) return problem(`categories[${index}] must be a map with id and title`);
    const id = typeof entry.id === 'string' ? entry.id.trim().toLowerCase() : '';
    if (id === '') return problem(`categories[${index}] has no id`);
    if (categories.some((c) => c.id === id)) return problem(`category id '${id}' appears twice`);
    const title = readTitle(entry.title);
    if (title === undefined) return problem(`categories[${index}].title must map languages to non-empty text (en: Coding)`);
    categories.push({ id, title });
  }
  return { categories, warnings: [] };
}

function readTitle(value: unknown): Record<string, string> | null | undefined {
  if (value === undefined || value === null) return null;
  if (!isPlainMap(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.some(([lang, text]) => lang.trim() === '' || typeof text !== 'string' || text.trim() === '')) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}
