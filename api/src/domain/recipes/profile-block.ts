/**
 * Profile block lookup (seed 004 §6a): the exact connection profile's block, else `default` (the
 * only reserved key), else none. A request without a profile uses the wire default `web`, which goes
 * through the same lookup.
 */
import type { Recipe, RecipeProfile } from './recipe';

export const DEFAULT_PROFILE_BLOCK = 'default';
/** The wire default of the connection profile (seed 004 §6a, "Profile not specified"). */
export const WIRE_DEFAULT_PROFILE = 'web';

export interface ProfileSelection {
  /** The connection profile asked for (or the wire default). */
  readonly profile: string;
  readonly match: 'EXACT' | 'DEFAULT' | 'NONE';
  readonly block: RecipeProfile | null;
}

export function selectProfileBlock(recipe: Recipe | null, requested: string | null | undefined): ProfileSelection {
  const profile = requested?.trim() || WIRE_DEFAULT_PROFILE;
  const exact = recipe?.profiles.get(profile);
  if (exact) return { profile, match: 'EXACT', block: exact };
  const fallback = recipe?.profiles.get(DEFAULT_PROFILE_BLOCK);
  if (fallback) return { profile, match: 'DEFAULT', block: fallback };
  return { profile, match: 'NONE', block: null };
}
