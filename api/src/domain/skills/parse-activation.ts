import type { BacktrackingAnalyser } from './backtracking-analyser';
import { describeValue, fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';
import { readTriggers } from './parse-triggers';
import { DEFAULT_ACTIVATION, SELECTIVE_LOGICS, WHEN_MODES, type SelectiveLogic, type SkillActivation, type SkillTrigger } from './skill';

/**
 * The activation fields of issue 8 (seed 003 "When it is on", the lorebook trigger controls): `when`,
 * `secondaryTriggers`, `selectiveLogic`, `caseSensitive`, `matchWholeWords`, `scanDepth`, `frequency`,
 * `probability`, `closeWhenUnmentioned`. All optional; absent fields take DEFAULT_ACTIVATION, which is
 * today's matching (seed 000 §4a, DESIGN §10). Booleans per DESIGN §10. Every bad value is a located
 * ERROR naming the field; combinations that do nothing are WARNINGs.
 */

export function readActivation(reader: FrontmatterReader, fm: Readonly<Record<string, unknown>>, analyser?: BacktrackingAnalyser): SkillActivation {
  const d = DEFAULT_ACTIVATION;
  const matchWholeWords = reader.booleanish(['matchWholeWords'], fm.matchWholeWords, d.matchWholeWords);
  const caseSensitive = reader.booleanish(['caseSensitive'], fm.caseSensitive, d.caseSensitive);
  return {
    when: fm.when === undefined || fm.when === null ? null : reader.choice(['when'], fm.when, WHEN_MODES, 'mentioned') ?? null,
    secondaryTriggers: readTriggers(reader, fm.secondaryTriggers, { matchWholeWords, caseSensitive, ...(analyser ? { analyser } : {}) }, 'secondaryTriggers'),
    selectiveLogic: readSelectiveLogic(reader, fm.selectiveLogic),
    caseSensitive,
    matchWholeWords,
    scanDepth: readNumber(reader, ['scanDepth'], fm.scanDepth, { integer: true, min: 0 }) ?? d.scanDepth,
    frequency: readNumber(reader, ['frequency'], fm.frequency, { integer: false, min: 0 }) ?? null,
    probability: readNumber(reader, ['probability'], fm.probability, { integer: false, min: 0, max: 100 }) ?? null,
    closeWhenUnmentioned: reader.booleanish(['closeWhenUnmentioned'], fm.closeWhenUnmentioned, d.closeWhenUnmentioned),
  };
}

/**
 * What the activation fields say together with the triggers (warnings only: the skill still loads).
 */
export function checkActivation(reader: FrontmatterReader, activation: SkillActivation, triggers: readonly SkillTrigger[], fm: Readonly<Record<string, unknown>>): void {
  const { when } = activation;
  if (when === 'always' && triggers.length > 0) reader.warning(['triggers'], '`triggers` have no effect on a `when: always` skill: it is on every turn while the recipe allows it.');
  if (when === 'mentioned' && triggers.length === 0) reader.warning(['when'], 'A `when: mentioned` skill without `triggers` is never on. Add `triggers`.');
  if (fm.closeWhenUnmentioned !== undefined && when !== 'picked') reader.warning(['closeWhenUnmentioned'], '`closeWhenUnmentioned` only applies to `when: picked` skills and is ignored here.');
  if (activation.secondaryTriggers.length > 0 && triggers.length === 0) reader.warning(['secondaryTriggers'], '`secondaryTriggers` only refine `triggers`; without primary `triggers` they never apply.');
  if (fm.selectiveLogic !== undefined && activation.secondaryTriggers.length === 0) reader.warning(['selectiveLogic'], '`selectiveLogic` has no effect without `secondaryTriggers`.');
  if (activation.scanDepth === 0 && triggers.length > 0 && when !== 'always') reader.warning(['scanDepth'], '`scanDepth: 0` scans no message: the triggers never match.');
}

/** `AND ANY`, `and_any`, `And-Any`: words separated by space, `_` or `-`, any case. */
function readSelectiveLogic(reader: FrontmatterReader, value: unknown): SelectiveLogic {
  if (value === undefined || value === null) return DEFAULT_ACTIVATION.selectiveLogic;
  const normal = typeof value === 'string' ? value.trim().toUpperCase().replace(/[\s_-]+/g, ' ') : undefined;
  const found = SELECTIVE_LOGICS.find((logic) => logic === normal);
  if (found) return found;
  reader.error(['selectiveLogic'], `\`selectiveLogic\` must be one of ${SELECTIVE_LOGICS.join(', ')} (also written AND_ANY, any case), found ${describeValue(value)}.`);
  return DEFAULT_ACTIVATION.selectiveLogic;
}

function readNumber(reader: FrontmatterReader, at: YamlPath, value: unknown, rule: { integer: boolean; min: number; max?: number }): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ok = typeof value === 'number' && Number.isFinite(value) && (!rule.integer || Number.isInteger(value)) && value >= rule.min && (rule.max === undefined || value <= rule.max);
  if (ok) return value;
  const what = rule.integer ? 'a whole number' : 'a number';
  const range = rule.max === undefined ? `of at least ${rule.min}` : `from ${rule.min} to ${rule.max}`;
  reader.error(at, `\`${fieldName(at)}\` must be ${what} ${range}, found ${describeValue(value)}.`);
  return undefined;
}
