import type { AvailableSkill } from '../../skills/skill-resolver';
import type { SelectiveLogic, SkillActivation, SkillTrigger } from '../../skills/skill';
import type { TriggerRegex } from '../../skills/trigger-regex';
import { isModelInvocable } from '../../skills/invocation-policy';

/**
 * The semantics shared by the indexed matcher and the reference matcher (seed 000 §4a, DESIGN §10,
 * issue 8 / seed 003 trigger controls):
 *
 * - Scan text: the newest `scanDepth` messages of the skill, newest first (`ScanMessages[0]` is the
 *   message being answered). Each message is matched on its own: a phrase or a regex never spans two.
 *   Default depth 1 = only the message being answered (today's behaviour); 0 never matches.
 * - KEYWORDS, `matchWholeWords: true` (default): DESIGN §10 tokens (`tokenize`, or `tokenizeCased`
 *   with `caseSensitive: true`); a phrase is adjacent whole tokens. `matchWholeWords: false`: the
 *   keyword occurs anywhere as a substring of the NFC text (lower-cased unless `caseSensitive`). A
 *   trigger fires when its distinct keywords found (within the depth) reach its threshold
 *   (`minMatch` capped at n, else ceil(n / 2)).
 * - PATTERN: the regex (RE2, linear time: skills/trigger-regex.ts) searches each scanned message's
 *   first PATTERN_INPUT_CAP characters, lower-cased with the case-insensitive regex (default) or as
 *   written with its case-sensitive twin (`caseSensitive: true`, unless the trigger was written
 *   `/…/i`). Evidence: the text matched in the newest message that matches.
 * - A skill's primary triggers: any fires (its first firing one in declaration order is reported).
 * - Secondary triggers (each one met when it fires on its own, same controls and depth) then decide
 *   with `selectiveLogic`: AND ANY (at least one met), AND ALL (all met), NOT ANY (none met), NOT ALL
 *   (not all met). No secondary triggers: the primary decides alone.
 */

/** The messages a matcher scans, NEWEST FIRST: [0] is the message being answered. */
export type ScanMessages = readonly string[];

/** The scan window from a history written oldest first (the last entry is the one being answered). */
export function newestFirst(historyOldestFirst: readonly string[], depth = Infinity): string[] {
  const out: string[] = [];
  for (let i = historyOldestFirst.length - 1; i >= 0 && out.length < depth; i--) out.push(historyOldestFirst[i]!);
  return out;
}

/**
 * What the matcher reports for a skill that matched (seed 000 §4a, issue 4): which skill, which of
 * its triggers, the evidence and a one-sentence reason. The caller activates each match one-shot (or,
 * for a `mentioned` skill, turns it on for the turn); nothing here writes.
 */
export interface TriggerMatch {
  /** The skill's name (the shape the activation service's TriggerHook expects). */
  readonly skill: string;
  readonly available: AvailableSkill;
  /** Index into `available.skill.triggers`: the first of the skill's triggers that fired. */
  readonly triggerIndex: number;
  readonly trigger: SkillTrigger;
  /** KEYWORDS: the keywords found, as written, in the order listed. PATTERN: the matched text. */
  readonly evidence: readonly string[];
  /** "Mentioned: review, diff." or "Matched /schau.*diff/." */
  readonly reason: string;
  /** The secondary triggers met, labelled (secondaryLabel); empty without secondary triggers. */
  readonly secondary: readonly string[];
}

/** A skill whose primary triggers matched but whose secondary triggers said no (issue 8). */
export interface SecondaryMiss {
  readonly skill: string;
  readonly available: AvailableSkill;
  /** The primary evidence, as in TriggerMatch. */
  readonly evidence: readonly string[];
  readonly logic: SelectiveLogic;
  /** AND …: the secondary triggers not met; NOT …: the ones met. Labelled (secondaryLabel). */
  readonly terms: readonly string[];
  /** "Secondary triggers not met (AND ALL: moon)." or "Excluded by secondary triggers (NOT ANY: moon)." */
  readonly reason: string;
}

/** Everything one scan decided, for every skill that passed the filters and whose primary triggers matched. */
export interface TriggerEvaluation {
  readonly matches: readonly TriggerMatch[];
  readonly misses: readonly SecondaryMiss[];
}

/** The per-process part of the filter (seed 000 §4a, §7b). */
export interface TriggerFilter {
  /** Names already active on the process; they never trigger again. */
  readonly active: Iterable<string>;
  /** process.allowedSkillsOverride: null = no restriction, [] = lockdown. */
  readonly allowedSkillsOverride: readonly string[] | null;
}

/**
 * PATTERN triggers search at most this many characters of the lower-cased message. RE2 makes a search
 * linear in the text; the cap bounds that line, so a pasted megabyte of log costs what 10,000
 * characters cost.
 */
export const PATTERN_INPUT_CAP = 10_000;

/** What a PATTERN regex searches: the first PATTERN_INPUT_CAP characters of the message, lower-cased (seed 000 §4a). */
export function patternInput(message: string): string {
  return (message.length > PATTERN_INPUT_CAP ? message.slice(0, PATTERN_INPUT_CAP) : message).toLowerCase();
}

/**
 * The per-skill-set part of the filter: are this skill's triggers ever matched? Enabled (listAvailable
 * only returns AVAILABLE skills; checked again), at least one trigger, a scan depth above 0,
 * model-invocable (seed 002: matching is implicit activation), not a spawn skill (seed 000 §2c: only
 * the explicit path spawns; its triggers are a no-op and the parser warns about them), and `when`
 * absent (seed-000 auto-trigger), `mentioned`, or `picked` with `closeWhenUnmentioned` (the close
 * rule needs the match). `always` skills are on without matching.
 */
export function canAutoTrigger(skill: AvailableSkill): boolean {
  const s = skill.skill;
  if (skill.status !== 'AVAILABLE' || !s.enabled || s.triggers.length === 0 || s.activation.scanDepth === 0) return false;
  if (!isModelInvocable(s) || s.run.target === 'spawn') return false;
  const { when } = s.activation;
  return when === null || when === 'mentioned' || (when === 'picked' && s.activation.closeWhenUnmentioned);
}

/** A `picked` skill is matched only for its close rule; `match()` leaves it out (it is not activated by a match). */
export function activatesOnMatch(skill: AvailableSkill): boolean {
  return skill.skill.activation.when !== 'picked';
}

/** The regex a trigger runs with under the skill's controls, and whether it reads the text as written. */
export function effectiveRegex(trigger: Extract<SkillTrigger, { type: 'PATTERN' }>, activation: SkillActivation): { readonly regex: TriggerRegex; readonly cased: boolean } {
  if (!activation.caseSensitive || trigger.ignoreCase) return { regex: trigger.regex, cased: false };
  return { regex: trigger.regex.caseSensitive(), cased: true };
}

/** What a regex searches in one message: capped, lower-cased unless `cased`. */
export function regexInput(message: string, cased: boolean): string {
  if (!cased) return patternInput(message);
  return message.length > PATTERN_INPUT_CAP ? message.slice(0, PATTERN_INPUT_CAP) : message;
}

/** How a secondary trigger is named in reasons: its keywords, or `/pattern/`. */
export function secondaryLabel(trigger: SkillTrigger): string {
  return trigger.type === 'PATTERN' ? `/${trigger.pattern}/` : trigger.keywords.join(', ');
}

/**
 * selectiveLogic over the secondary triggers' results (`met[i]` for `secondary[i]`): null when the
 * skill matches, else the miss's terms and reason.
 */
export function selectiveOutcome(logic: SelectiveLogic, secondary: readonly SkillTrigger[], met: readonly boolean[]): { readonly terms: string[]; readonly reason: string } | null {
  if (secondary.length === 0) return null;
  const labels = secondary.map(secondaryLabel);
  const found = labels.filter((_l, i) => met[i]);
  const missing = labels.filter((_l, i) => !met[i]);
  let terms: string[] | null;
  switch (logic) {
    case 'AND ANY':
      terms = found.length > 0 ? null : labels;
      break;
    case 'AND ALL':
      terms = missing.length === 0 ? null : missing;
      break;
    case 'NOT ANY':
      terms = found.length === 0 ? null : found;
      break;
    case 'NOT ALL':
      terms = missing.length > 0 ? null : labels;
      break;
  }
  if (terms === null) return null;
  const sentence = logic.startsWith('AND') ? 'Secondary triggers not met' : 'Excluded by secondary triggers';
  return { terms, reason: `${sentence} (${logic}: ${terms.join(', ')}).` };
}

export function keywordReason(keywords: readonly string[]): string {
  return `Mentioned: ${keywords.join(', ')}.`;
}

export function patternReason(pattern: string): string {
  return `Matched /${pattern}/.`;
}

/** The distinct-keyword threshold of DESIGN §10: `minMatch` (capped at n) or ceil(n / 2). */
export function keywordThreshold(distinct: number, minMatch: number | null): number {
  return Math.min(minMatch ?? Math.ceil(distinct / 2), distinct);
}
