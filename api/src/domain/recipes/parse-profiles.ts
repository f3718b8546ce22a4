/**
 * The `profiles:` block (seed 004 §6a): per connection profile (open names; `default` is the
 * catch-all) extra tools to add/remove, a `promptPrefixAppend` template and param defaults. Also the
 * `modes:` plan-mode blocks of the original platform's recipes (kept, not applied; see recipe.ts).
 */
import type { RecipeModeBlock, RecipeProfile } from './recipe';
import type { RecipeDiagnostics, YamlPath } from './recipe-diagnostics';
import { MODE_FIELDS, PROFILE_FIELDS, UNSUPPORTED_PROFILE_FIELDS, warnSwallowedFields, warnUnknownField, warnUnsupportedFields } from './recipe-fields';
import { isPlainMap, readMap, readText, readToolList } from './read-fields';

export function parseProfiles(d: RecipeDiagnostics, value: unknown): Map<string, RecipeProfile> {
  const profiles = new Map<string, RecipeProfile>();
  const block = readMap(d, value, ['profiles']);
  if (!block) return profiles;
  for (const [name, body] of Object.entries(block)) {
    const path = ['profiles', name];
    if (name.trim() === '') {
      d.error(path, 'a profile name must not be empty');
      continue;
    }
    if (body !== null && !isPlainMap(body)) {
      d.error(path, `profiles.${name} must be a map (allowedToolsAdd, allowedToolsRemove, promptPrefixAppend, params), not a ${Array.isArray(body) ? 'list' : 'value'}`);
      continue;
    }
    profiles.set(name, parseProfile(d, name, body ?? {}, path));
  }
  return profiles;
}

function parseProfile(d: RecipeDiagnostics, name: string, body: Record<string, unknown>, path: YamlPath): RecipeProfile {
  for (const key of Object.keys(body)) {
    if (!(PROFILE_FIELDS as readonly string[]).includes(key)) warnUnknownField(d, [...path, key], PROFILE_FIELDS, `profile '${name}'`);
  }
  warnUnsupportedFields(d, body, path, UNSUPPORTED_PROFILE_FIELDS);
  const params = readMap(d, body.params, [...path, 'params']) ?? {};
  warnSwallowedFields(d, params, [...path, 'params']);
  return {
    name,
    allowedToolsAdd: readToolList(d, body.allowedToolsAdd, [...path, 'allowedToolsAdd']),
    allowedToolsRemove: readToolList(d, body.allowedToolsRemove, [...path, 'allowedToolsRemove']),
    promptPrefixAppend: readText(d, body.promptPrefixAppend, [...path, 'promptPrefixAppend']),
    params,
    session: readMap(d, body.session, [...path, 'session']),
  };
}

/** Plan modes of the original platform (Arthur: NORMAL, EXPLORING, PLANNING, EXECUTING). */
export const PLAN_MODES = ['NORMAL', 'EXPLORING', 'PLANNING', 'EXECUTING'] as const;

export function parseModes(d: RecipeDiagnostics, value: unknown): Map<string, RecipeModeBlock> {
  const modes = new Map<string, RecipeModeBlock>();
  const block = readMap(d, value, ['modes']);
  if (!block) return modes;
  for (const [mode, body] of Object.entries(block)) {
    const path = ['modes', mode];
    if (!(PLAN_MODES as readonly string[]).includes(mode)) {
      d.keyWarning(path, `modes.${mode} never applies: the plan modes are ${PLAN_MODES.join(', ')}`);
    }
    if (body !== null && !isPlainMap(body)) {
      d.error(path, `modes.${mode} must be a map (${MODE_FIELDS.join(', ')})`);
      continue;
    }
    const entries = body ?? {};
    for (const key of Object.keys(entries)) {
      if (!(MODE_FIELDS as readonly string[]).includes(key)) warnUnknownField(d, [...path, key], MODE_FIELDS, `mode block '${mode}'`);
    }
    modes.set(mode, {
      mode,
      allowedToolsAdd: readToolList(d, entries.allowedToolsAdd, [...path, 'allowedToolsAdd']),
      allowedToolsRemove: readToolList(d, entries.allowedToolsRemove, [...path, 'allowedToolsRemove']),
      allowedToolsDefer: readToolList(d, entries.allowedToolsDefer, [...path, 'allowedToolsDefer']),
    });
  }
  return modes;
}
