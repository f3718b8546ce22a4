import { isMap, isScalar } from 'yaml';
import type { Diagnostic } from '../errors';
import { parseBooleanish } from '../shared/booleanish';
import { YamlSource, type YamlPosition } from '../shared/yaml-source';

/**
 * `evals.yaml` beside a skill's SKILL.md (issue 20): cases that say whether the skill fires on a
 * conversation, checked by `vance eval` and `skillEvals` with the turn's own matcher and verdicts
 * (run-skill-evals.ts). Pure and typed; every problem is a Diagnostic with path, line and field.
 *
 * ```yaml
 * picked: { runs: 3, threshold: 0.67 }   # optional, for `picked:` cases
 * cases:
 *   - message: please review this diff    # or messages: [older, …, newest] (the scan window, newest last)
 *     fires: true                         # or picked: true|false (model-chosen skills)
 *     trigger: 1                          # optional: which trigger matched (1-based, or its label)
 *     oneShot: true                       # optional: activated one-shot (true) or on for the turn (false)
 *     only: true                          # optional: no other skill of the scope fires
 *     recipe: analyze                     # optional: under this recipe's whitelist and default skills
 * ```
 */
export const EVALS_FILE_NAME = 'evals.yaml';
/** `_vance/skills/<name>/evals.yaml`; group 1 is the skill's folder name. */
export const EVALS_PATH_PATTERN = /^_vance\/skills\/([^/]+)\/evals\.yaml$/;

/** Bounds the work of one file: a case is a whole conversation run through the matcher. */
export const MAX_EVAL_CASES = 500;
export const MAX_EVAL_MESSAGES = 50;
export const MAX_EVAL_MESSAGE_CHARS = 20_000;
export const MAX_PICKED_RUNS = 20;
export const DEFAULT_PICKED_RUNS = 3;
export const DEFAULT_PICKED_THRESHOLD = 0.67;
/** The model calls one file may ask for (picked cases × runs): each is a paid call. */
export const MAX_PICKED_CALLS = 200;

interface EvalCaseBase {
  /** 0-based position in `cases`. */
  readonly index: number;
  /** The scan window, oldest first; the last message is the one being answered. */
  readonly messages: readonly string[];
  readonly recipe: string | null;
  /** Where the case starts in the file (1-based). */
  readonly line: number;
}

/** A deterministic case: the verdict of the turn's matcher. */
export interface FiresCase extends EvalCaseBase {
  readonly kind: 'fires';
  readonly fires: boolean;
  /** 1-based position in `triggers`, or a trigger's label (`review, diff` or `/pattern/`). */
  readonly trigger: number | string | null;
  readonly oneShot: boolean | null;
  readonly only: boolean;
}

/** A model-chosen case: does the model open the skill (`open_skill`)? Run `runs` times. */
export interface PickedCase extends EvalCaseBase {
  readonly kind: 'picked';
  readonly picked: boolean;
}

export type SkillEvalCase = FiresCase | PickedCase;

export interface SkillEvals {
  readonly cases: readonly SkillEvalCase[];
  readonly picked: { readonly runs: number; readonly threshold: number };
}

export interface ParsedSkillEvals {
  /** null when the file has errors. */
  readonly evals: SkillEvals | null;
  readonly diagnostics: readonly Diagnostic[];
}

const CASE_KEYS = new Set(['name', 'message', 'messages', 'fires', 'picked', 'trigger', 'oneShot', 'only', 'recipe']);

export function parseSkillEvals(path: string, content: string): ParsedSkillEvals {
  const source = new YamlSource(content);
  const diagnostics: Diagnostic[] = [];
  const at = (severity: Diagnostic['severity'], where: readonly (string | number)[] | YamlPosition, field: string, message: string): void => {
    const position = Array.isArray(where) ? source.locate(where) : (where as YamlPosition);
    diagnostics.push({ severity, message, path, line: position.line, column: position.column, ...(field ? { field } : {}) });
  };
  for (const problem of source.errors) at('ERROR', problem, '', `YAML syntax: ${problem.message}`);
  if (source.errors.length > 0) return { evals: null, diagnostics };
  const root: unknown = source.toJS();
  if (!isRecord(root)) {
    at('ERROR', [], '', 'An evals file is a map with a `cases:` list');
    return { evals: null, diagnostics };
  }
  for (const key of Object.keys(root)) if (key !== 'cases' && key !== 'picked') at('WARNING', source.keyPosition([key]) ?? source.locate([key]), key, `Unknown key '${key}' (known: cases, picked)`);
  const picked = readPickedSettings(root['picked'], at);
  const list = root['cases'];
  if (!Array.isArray(list) || list.length === 0) {
    at('ERROR', ['cases'], 'cases', 'cases: a non-empty list of cases is required');
    return { evals: null, diagnostics };
  }
  if (list.length > MAX_EVAL_CASES) {
    at('ERROR', ['cases'], 'cases', `At most ${MAX_EVAL_CASES} cases in one file (found ${list.length})`);
    return { evals: null, diagnostics };
  }
  const cases = list.map((raw, index) => readCase(raw, index, source, at)).filter((c): c is SkillEvalCase => c !== null);
  const calls = cases.filter((c) => c.kind === 'picked').length * picked.runs;
  if (calls > MAX_PICKED_CALLS) at('ERROR', ['picked'], 'picked.runs', `picked: cases would make ${calls} model calls (cases × runs); at most ${MAX_PICKED_CALLS} in one file`);
  const failed = diagnostics.some((d) => d.severity === 'ERROR');
  return { evals: failed ? null : { cases, picked }, diagnostics };
}

type At = (severity: Diagnostic['severity'], where: readonly (string | number)[] | YamlPosition, field: string, message: string) => void;

function readPickedSettings(raw: unknown, at: At): SkillEvals['picked'] {
  const settings = { runs: DEFAULT_PICKED_RUNS, threshold: DEFAULT_PICKED_THRESHOLD };
  if (raw === undefined || raw === null) return settings;
  if (!isRecord(raw)) {
    at('ERROR', ['picked'], 'picked', 'picked: a map with `runs` and/or `threshold`');
    return settings;
  }
  const runs = raw['runs'];
  if (runs !== undefined) {
    if (typeof runs === 'number' && Number.isInteger(runs) && runs >= 1 && runs <= MAX_PICKED_RUNS) settings.runs = runs;
    else at('ERROR', ['picked', 'runs'], 'picked.runs', `picked.runs: an integer from 1 to ${MAX_PICKED_RUNS}`);
  }
  const threshold = raw['threshold'];
  if (threshold !== undefined) {
    if (typeof threshold === 'number' && threshold > 0 && threshold <= 1) settings.threshold = threshold;
    else at('ERROR', ['picked', 'threshold'], 'picked.threshold', 'picked.threshold: a rate above 0 and at most 1 (e.g. 0.67)');
  }
  return settings;
}

function readCase(raw: unknown, index: number, source: YamlSource, at: At): SkillEvalCase | null {
  const base = ['cases', index];
  const field = (name: string) => `cases[${index}].${name}`;
  const line = source.locate(base).line;
  if (!isRecord(raw)) {
    at('ERROR', base, `cases[${index}]`, 'A case is a map: message(s) and fires (or picked)');
    return null;
  }
  const node = source.document.getIn(base, true);
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!CASE_KEYS.has(key)) at('WARNING', source.keyPosition([...base, key]) ?? source.locate(base), field(key), `Unknown key '${key}' in a case (known: ${[...CASE_KEYS].join(', ')})`);
    }
  }
  const messages = readMessages(raw, base, field, at);
  const recipe = raw['recipe'];
  if (recipe !== undefined && (typeof recipe !== 'string' || recipe.trim() === '')) at('ERROR', [...base, 'recipe'], field('recipe'), 'recipe: a recipe name');
  const hasFires = raw['fires'] !== undefined;
  const hasPicked = raw['picked'] !== undefined;
  if (hasFires === hasPicked) {
    at('ERROR', base, field('fires'), hasFires ? 'A case expects either fires: or picked:, not both' : 'A case needs fires: true|false (or picked: true|false for a model-chosen skill)');
    return null;
  }
  const expectation = hasFires ? 'fires' : 'picked';
  const expected = parseBooleanish(raw[expectation]);
  if (expected === undefined) {
    at('ERROR', [...base, expectation], field(expectation), `${expectation}: true or false`);
    return null;
  }
  if (messages === null) return null;
  const common = { index, messages, recipe: typeof recipe === 'string' ? recipe.trim() : null, line };
  if (hasPicked) {
    for (const key of ['trigger', 'oneShot', 'only']) if (raw[key] !== undefined) at('ERROR', [...base, key], field(key), `${key}: only for fires: cases (a picked: case asks the model)`);
    return { kind: 'picked', picked: expected, ...common };
  }
  return { kind: 'fires', fires: expected, trigger: readTrigger(raw['trigger'], expected, [...base, 'trigger'], field('trigger'), at), oneShot: readFlag(raw, 'oneShot', expected, base, field, at), only: readFlag(raw, 'only', expected, base, field, at) ?? false, ...common };
}

function readMessages(raw: Record<string, unknown>, base: readonly (string | number)[], field: (n: string) => string, at: At): string[] | null {
  const one = raw['message'];
  const many = raw['messages'];
  if ((one === undefined) === (many === undefined)) {
    at('ERROR', base, field('message'), one === undefined ? 'A case needs message: (one) or messages: (the scan window, newest last)' : 'A case has either message: or messages:, not both');
    return null;
  }
  const key = one !== undefined ? 'message' : 'messages';
  const list = one !== undefined ? [one] : many;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_EVAL_MESSAGES) {
    at('ERROR', [...base, key], field(key), `messages: a list of 1 to ${MAX_EVAL_MESSAGES} messages, oldest first`);
    return null;
  }
  const out: string[] = [];
  for (const [i, m] of list.entries()) {
    const where = one !== undefined ? [...base, key] : [...base, key, i];
    const name = one !== undefined ? field(key) : `${field(key)}[${i}]`;
    if (typeof m !== 'string' && typeof m !== 'number') at('ERROR', where, name, "A message is text (quote it when it holds ': ' or starts with a YAML sign)");
    else if (String(m).length > MAX_EVAL_MESSAGE_CHARS) at('ERROR', where, name, `A message may hold at most ${MAX_EVAL_MESSAGE_CHARS} characters`);
    else out.push(String(m));
  }
  return out.length === list.length ? out : null;
}

function readTrigger(raw: unknown, fires: boolean, where: readonly (string | number)[], field: string, at: At): number | string | null {
  if (raw === undefined || raw === null) return null;
  if (!fires) {
    at('ERROR', where, field, 'trigger: only for fires: true (which trigger matched)');
    return null;
  }
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1) return raw;
  if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
  at('ERROR', where, field, 'trigger: the trigger\'s position (1 = the first listed) or its label (its keywords, or /pattern/)');
  return null;
}

function readFlag(raw: Record<string, unknown>, key: 'oneShot' | 'only', fires: boolean, base: readonly (string | number)[], field: (n: string) => string, at: At): boolean | null {
  if (raw[key] === undefined) return null;
  const value = parseBooleanish(raw[key]);
  if (value === undefined) at('ERROR', [...base, key], field(key), `${key}: true or false`);
  else if (!fires) at('ERROR', [...base, key], field(key), `${key}: only for fires: true`);
  return value ?? null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
