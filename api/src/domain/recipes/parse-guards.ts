/**
 * The `guard:` block (seed 004 §6d): completion guards as spawn defaults. Per entry exactly one of
 * `script` (a cascade path, sanitised like every document path) and `scriptBody` (inline JS);
 * `trigger` start|command|stop|terminate|both (default stop); `maxRounds` only for stop/terminate/both;
 * `allowTools` (default false: the supervisor surface). Running guards is the processes' business.
 */
import { InvalidDocumentPathError } from '../cascade/errors';
import { normalizeDocumentPath } from '../cascade/document-path';
import { DEFAULT_GUARD_MAX_ROUNDS, GUARD_TRIGGERS, type GuardScript, type GuardTrigger, type RecipeGuard } from './recipe';
import type { RecipeDiagnostics, YamlPath } from './recipe-diagnostics';
import { GUARD_FIELDS, warnUnknownField } from './recipe-fields';
import { describe, isPlainMap, readBoolean, readEnum, readMap, readText } from './read-fields';
import { fieldName } from './recipe-diagnostics';

export function parseGuards(d: RecipeDiagnostics, value: unknown): RecipeGuard[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) {
    d.error(['guard'], 'guard must be a list of guard entries (- script: … or - scriptBody: …)');
    return [];
  }
  const guards: RecipeGuard[] = [];
  value.forEach((entry, index) => {
    const path = ['guard', index];
    if (!isPlainMap(entry)) {
      d.error(path, `guard[${index}] must be a map with script or scriptBody`);
      return;
    }
    const guard = parseGuard(d, entry, path);
    if (guard) guards.push(guard);
  });
  return guards;
}

function parseGuard(d: RecipeDiagnostics, entry: Record<string, unknown>, path: YamlPath): RecipeGuard | null {
  for (const key of Object.keys(entry)) {
    if (!(GUARD_FIELDS as readonly string[]).includes(key)) warnUnknownField(d, [...path, key], GUARD_FIELDS, 'guard entry');
  }
  const script = readScript(d, entry, path);
  if (typeof entry.trigger === 'string' && /^natural[-_ ]?stop$/i.test(entry.trigger.trim())) {
    // The natural stop is not a point of its own: stop guards run there and read vance.guard.naturalStop.
    d.error([...path, 'trigger'], `${fieldName([...path, 'trigger'])}: '${entry.trigger.trim()}' is not a trigger; a guard at the model's natural stop is trigger: stop (vance.guard.naturalStop tells whether the model stopped on its own or the turn hit its iteration cap)`);
    return null;
  }
  const trigger: GuardTrigger = readEnum(d, entry.trigger, [...path, 'trigger'], GUARD_TRIGGERS, 'stop', (t) => t.toLowerCase());
  const rounds = readRounds(d, entry.maxRounds, [...path, 'maxRounds']);
  const yieldPoint = trigger !== 'start' && trigger !== 'command';
  if (rounds !== null && !yieldPoint) {
    d.warning([...path, 'maxRounds'], `maxRounds only applies to trigger stop, terminate or both; with trigger ${trigger} it is ignored`);
  }
  const maxRounds = yieldPoint ? rounds ?? DEFAULT_GUARD_MAX_ROUNDS : null;
  const params = readMap(d, entry.params, [...path, 'params']) ?? {};
  const allowTools = readBoolean(d, entry.allowTools, [...path, 'allowTools'], false);
  return script ? { script, params, trigger, maxRounds, allowTools } : null;
}

/** A whole number ≥ 0 (0: the guard runs but never continues the engine). */
function readRounds(d: RecipeDiagnostics, value: unknown, path: YamlPath): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number === 'number' && Number.isInteger(number) && number >= 0) return number;
  d.error(path, `${fieldName(path)} must be a whole number of at least 0 (0: never continue), not ${describe(value)}`);
  return null;
}

function readScript(d: RecipeDiagnostics, entry: Record<string, unknown>, path: YamlPath): GuardScript | null {
  const scriptPath = readText(d, entry.script, [...path, 'script'])?.trim() || null;
  const body = readText(d, entry.scriptBody, [...path, 'scriptBody']);
  const hasBody = body !== null && body.trim() !== '';
  if (scriptPath && hasBody) {
    d.error(path, 'a guard takes exactly one of script (a document path) and scriptBody (inline JS), not both');
    return null;
  }
  if (hasBody) return { kind: 'INLINE', body };
  if (!scriptPath) {
    d.error(path, 'a guard needs script (a document path such as _vance/guards/llm-judge.js) or scriptBody (inline JS)');
    return null;
  }
  try {
    return { kind: 'PATH', path: normalizeDocumentPath(scriptPath) };
  } catch (error) {
    if (!(error instanceof InvalidDocumentPathError)) throw error;
    d.error([...path, 'script'], `${error.message}; use a relative document path such as _vance/guards/llm-judge.js`);
    return null;
  }
}
