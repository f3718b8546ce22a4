/**
 * Which recipe a spawn uses (seed 004 §9, RecipeResolver.applyDefaulting):
 *   recipe given               → that recipe (NotFoundError if unknown); an engine given too is ignored and reported
 *   engine X only              → recipe X if it exists for this tenant, else ENGINE_DIRECT (engine fallback prompt)
 *   neither                    → recipe `default` (NotFoundError if missing — it is bundled)
 * A recipe that exists but does not validate is an error on every path, never a silent fallback.
 */
import type { CascadeScope } from '../cascade/scope';
import { recipePath, type LoadedRecipe, type RecipeLoader } from './recipe-loader';
import { InvalidRecipeNameError } from './errors';

export const DEFAULT_RECIPE = 'default';

export type DefaultingReason = 'EXPLICIT' | 'ENGINE_NAMED' | 'DEFAULT';

export type DefaultingOutcome =
  | { readonly kind: 'RECIPE'; readonly loaded: LoadedRecipe; readonly reason: DefaultingReason; readonly ignoredEngine: string | null }
  | { readonly kind: 'ENGINE_DIRECT'; readonly engine: string };

export interface SpawnTarget {
  readonly recipe?: string | null;
  readonly engine?: string | null;
}

export async function applyDefaulting(
  loader: RecipeLoader, scope: CascadeScope, tenantName: string, target: SpawnTarget,
): Promise<DefaultingOutcome> {
  const recipe = blankToNull(target.recipe);
  const engine = blankToNull(target.engine);
  if (recipe !== null) {
    const loaded = await loader.load(scope, tenantName, recipe);
    return { kind: 'RECIPE', loaded, reason: 'EXPLICIT', ignoredEngine: engine };
  }
  if (engine !== null) {
    const loaded = isRecipeName(engine) ? await loader.find(scope, tenantName, engine) : null;
    return loaded ? { kind: 'RECIPE', loaded, reason: 'ENGINE_NAMED', ignoredEngine: null } : { kind: 'ENGINE_DIRECT', engine };
  }
  return { kind: 'RECIPE', loaded: await loader.load(scope, tenantName, DEFAULT_RECIPE), reason: 'DEFAULT', ignoredEngine: null };
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** An engine name that cannot be a recipe file name simply has no recipe of its name. */
function isRecipeName(name: string): boolean {
  try {
    recipePath(name);
    return true;
  } catch (error) {
    if (error instanceof InvalidRecipeNameError) return false;
    throw error;
  }
}
