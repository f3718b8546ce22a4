/**
 * The field vocabulary of a recipe file, and the hints for fields in the wrong place:
 * the "params swallows" trap of seed 004 §2 (a top-level field indented under `params` is taken as an
 * engine param and never takes effect), unknown keys with a "did you mean", and engine params
 * written at the top level.
 */
import { fieldName, type RecipeDiagnostics, type YamlPath } from './recipe-diagnostics';

/** Top-level fields of seed 004 §2, §6, §6a, §6c, §6d, §6e. */
export const RECIPE_FIELDS = [
  'description', 'engine', 'params', 'promptPrefix', 'promptMode', 'dataRelayCorrection',
  'allowedToolsAdd', 'allowedToolsRemove', 'allowedToolsKeep', 'allowedToolsDropFirst',
  'defaultActiveSkills', 'allowedSkills', 'locked', 'listed', 'internal', 'protected', 'web',
  'projectKind', 'tenants', 'title', 'category', 'tags', 'guard', 'profiles',
] as const;

/**
 * Fields the original platform's recipes carry beyond the seed's tables (seen in real recipes):
 * `allowedToolsDefer` (seed 004 §6.1 names it), plan-mode blocks, routing keywords, engine roles,
 * and `enabled` (DESIGN §1: `enabled: false` hides outer copies). Known, so no "unknown" warning;
 * those this deployment does not apply are in UNSUPPORTED_RECIPE_FIELDS.
 */
export const RECIPE_EXTENSION_FIELDS = ['allowedToolsDefer', 'modes', 'triggers', 'roles', 'enabled'] as const;

/**
 * Known keys that are read (and kept on the Recipe) but have no effect in this deployment (issue 15:
 * accepted without a word, they looked like they worked). Each is one warning at its key; when a key
 * starts to work, delete its entry here and nothing else. The text says what the key is for.
 */
export const UNSUPPORTED_RECIPE_FIELDS: Readonly<Record<string, string>> = {
  modes: 'plan-mode tool blocks',
  triggers: 'routing keywords for choosing a recipe',
  roles: 'engine roles',
};

/** The same for keys of a profile block (seed 004 §6a lists only the others). */
export const UNSUPPORTED_PROFILE_FIELDS: Readonly<Record<string, string>> = {
  session: 'session settings per connection profile',
};

/** One warning per present key of `block` that `unsupported` lists; `path` is the block's own path. */
export function warnUnsupportedFields(d: RecipeDiagnostics, block: Readonly<Record<string, unknown>>, path: YamlPath, unsupported: Readonly<Record<string, string>>): void {
  for (const key of Object.keys(block)) {
    const what = unsupported[key];
    if (what === undefined || !Object.hasOwn(unsupported, key)) continue;
    d.keyWarning([...path, key], `\`${key}\` (${what}) is not supported by this deployment and is ignored`);
  }
}

export const PROFILE_FIELDS = ['allowedToolsAdd', 'allowedToolsRemove', 'promptPrefixAppend', 'params', 'session'] as const;
export const GUARD_FIELDS = ['script', 'scriptBody', 'params', 'trigger', 'maxRounds', 'allowTools'] as const;
export const MODE_FIELDS = ['allowedToolsAdd', 'allowedToolsRemove', 'allowedToolsDefer'] as const;

/** Keys that are engine params, not recipe fields (seed 004 §2 "Common keys", §5c, §6b). */
const COMMON_PARAMS = [
  'model', 'validation', 'maxIterations', 'modelSize', 'rag', 'temperature', 'maxTokens', 'topP', 'topK',
  'stopSequences', 'seed', 'frequencyPenalty', 'presencePenalty', 'manualPaths', 'fallbackModels',
];

/** `_name:` keys hold YAML anchors for reuse (seed 004 §5.6 "YAML anchor for DRY"); never fields. */
export function isAnchorHolder(key: string): boolean {
  return key.startsWith('_');
}

/**
 * The params-swallows trap: a recipe (or profile-block) field found as a key under `params`.
 * `paramsPath` is ['params'] or ['profiles', <name>, 'params'].
 */
export function warnSwallowedFields(d: RecipeDiagnostics, params: Readonly<Record<string, unknown>>, paramsPath: YamlPath): void {
  const inProfile = paramsPath.length > 1;
  const owner = inProfile ? fieldName(paramsPath.slice(0, -1)) : null;
  for (const key of Object.keys(params)) {
    const keyPath = [...paramsPath, key];
    if (inProfile && (PROFILE_FIELDS as readonly string[]).includes(key) && key !== 'params') {
      d.keyWarning(keyPath, `'${key}' under ${fieldName(paramsPath)} is passed to the engine as a param and never takes effect; it belongs to the profile block: move it one level up, to ${owner}.${key}`);
    } else if ((RECIPE_FIELDS as readonly string[]).includes(key)) {
      const hint = inProfile && key === 'promptPrefix' ? ` (or use ${owner}.promptPrefixAppend)` : '';
      d.keyWarning(keyPath, `'${key}' under ${fieldName(paramsPath)} is passed to the engine as a param and never takes effect; it is a recipe field: move it to the top level of the recipe${hint}`);
    }
  }
}

/** An unknown key: says where it probably belongs. */
export function warnUnknownField(d: RecipeDiagnostics, path: YamlPath, known: readonly string[], where: string): void {
  const key = String(path[path.length - 1]);
  const near = closest(key, known);
  let hint: string;
  if (near) hint = `did you mean '${near}'?`;
  else if (where === 'recipe' && COMMON_PARAMS.includes(key)) hint = `engine params go under params: (params.${key})`;
  else if (where === 'recipe' && (PROFILE_FIELDS as readonly string[]).includes(key)) hint = `it belongs in a profile block (profiles.<name>.${key})`;
  else hint = `known fields here: ${known.join(', ')}`;
  d.keyWarning(path, `unknown field '${fieldName(path)}' in the ${where} is ignored; ${hint}`);
}

function closest(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 5)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
