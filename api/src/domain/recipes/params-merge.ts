/**
 * Effective engine params (seed 004 §4, §6a): recipe.params ⊕ profile.params ⊕ caller.params, last
 * wins per top-level key (no deep merge: a caller `rag: {…}` replaces the recipe's whole `rag` map).
 * A `locked` recipe drops every caller key (reported, for the service layer's WARN line); profile
 * params still apply — they are the recipe author's intent, not a caller override.
 */
export interface MergedParams {
  readonly params: Readonly<Record<string, unknown>>;
  /** Caller keys that were applied, sorted — the audit line's `overridden_keys` (seed 004 §4). */
  readonly overriddenKeys: readonly string[];
  /** Caller keys ignored because the recipe is locked, sorted. */
  readonly droppedCallerKeys: readonly string[];
}

type Params = Readonly<Record<string, unknown>>;

export function mergeParams(recipe: Params, profile: Params, caller: Params | null | undefined, locked: boolean): MergedParams {
  const callerKeys = Object.keys(caller ?? {}).sort();
  const params: Record<string, unknown> = Object.fromEntries([...Object.entries(recipe), ...Object.entries(profile)]);
  if (locked) return { params, overriddenKeys: [], droppedCallerKeys: callerKeys };
  for (const key of callerKeys) params[key] = caller![key];
  return { params: Object.fromEntries(Object.entries(params)), overriddenKeys: callerKeys, droppedCallerKeys: [] };
}
