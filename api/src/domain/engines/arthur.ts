import type { RecipeLoader } from '../recipes/recipe-loader';
import type { Engine } from './engine';
import { runToolLoop } from './tool-loop';

/**
 * arthur — the chat coordinator: the same tool loop as ford, its prompt extended with the catalog of
 * bundled worker recipes (seed 004 §8); it delegates with `process_spawn`, and a child's result
 * arrives in its inbox ("Result of <child>: …") as the input of its next turn.
 */
export const ARTHUR_DEFAULT_PROMPT = [
  'You are Arthur, the Vance chat coordinator. Answer directly when you can.',
  'Delegate substantial work to a worker process with process_spawn (choose a recipe); a worker\'s result',
  'arrives as a message "Result of <worker>: …" — relay what matters to the user.',
].join('\n');

export const RECIPE_CATALOG_HEADER = '## Available worker recipes';

/** The tools arthur works with; recipes add more. `respond` is the reply (seed 004 §5a). */
export const ARTHUR_TOOLS: readonly string[] = [
  'respond', 'whoami', 'current_time', 'process_spawn', 'process_status', 'process_list',
  'recipe_list', 'recipe_describe', 'manual_list', 'manual_read', 'skill_reference_doc',
];

/**
 * Seed 004 §8: exactly the bundled recipes (tenant and project recipes are found with recipe_list),
 * spawnable ones only (not protected/internal), as "- `name` — description".
 */
export function recipeCatalogSection(entries: readonly { name: string; description: string }[]): string {
  if (entries.length === 0) return '';
  const lines = entries.map((e) => `- \`${e.name}\` — ${e.description.replace(/\s+/g, ' ').trim()}`);
  return [RECIPE_CATALOG_HEADER, '', ...lines, '', 'Call recipe_list for the recipes of this tenant and project.'].join('\n');
}

export function arthurEngine(recipes: RecipeLoader): Engine {
  return {
    name: 'arthur',
    defaultPrompt: ARTHUR_DEFAULT_PROMPT,
    allowedTools: ARTHUR_TOOLS,
    async promptSections({ scope }) {
      const listings = await recipes.listAvailable(scope, '');
      const bundled = listings.flatMap((l) => (l.source === 'RESOURCE' && l.recipe && !l.recipe.protected && !l.recipe.internal
        ? [{ name: l.name, description: l.recipe.description }] : []));
      const text = recipeCatalogSection(bundled);
      return text ? [{ kind: 'RECIPE_CATALOG', text }] : [];
    },
    run: runToolLoop,
  };
}
