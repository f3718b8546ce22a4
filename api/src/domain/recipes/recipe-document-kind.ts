/**
 * Recipe validation by document path, for `putDocument` (refuse on errors unless forced),
 * `validateDocument` and the `vance lint` CLI. Shaped like documents/document-validator.ts's
 * DocumentKind (structurally, so this folder does not depend on that one).
 */
import type { Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import type { ToolCatalog } from '../tools/tool-descriptor';
import { parseRecipe } from './parse-recipe';

/** `_vance/recipes/<name>.yaml` directly in the folder; group 1 is the name. */
export const RECIPE_PATH_PATTERN = /^_vance\/recipes\/([^/]+)\.yaml$/;

export interface RecipeDocumentKind {
  readonly kind: 'recipe';
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

/** `tools`: the catalog tool entries are checked against, read at each validation (issue 15). */
export function recipeDocumentKind(templates?: TemplateEngine, tools?: ToolCatalog): RecipeDocumentKind {
  return {
    kind: 'recipe',
    pattern: RECIPE_PATH_PATTERN,
    validate: (path, match, content) => [...parseRecipe({ name: match[1] ?? path, path, content }, templates, tools?.list()).diagnostics],
  };
}
