import type { AvailableSkill } from '../../skills/skill-resolver';
import type { SkillTrigger } from '../../skills/skill';
import { isModelInvocable } from '../../skills/invocation-policy';

/**
 * What the auto-trigger hook reports (seed 000 §4a, issue 4): which skill, which of its triggers, the
 * evidence and a one-sentence reason. The caller activates each match one-shot; nothing here writes.
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
}

/** The per-process part of the filter (seed 000 §4a, §7b). */
export interface TriggerFilter {
  /** Names already active on the process; they never trigger again. */
  readonly active: Iterable<string>;
  /** process.allowedSkillsOverride: null = no restriction, [] = lockdown. */
  readonly allowedSkillsOverride: readonly string[] | null;
}

/** PATTERN triggers search at most this many characters of the lower-cased message (see trigger-index.ts). */
export const PATTERN_INPUT_CAP = 10_000;

/** What a PATTERN regex searches: the first PATTERN_INPUT_CAP characters of the message, lower-cased (seed 000 §4a). */
export function patternInput(message: string): string {
  return (message.length > PATTERN_INPUT_CAP ? message.slice(0, PATTERN_INPUT_CAP) : message).toLowerCase();
}

/**
 * The per-skill-set part of the filter: could this skill ever auto-trigger? Enabled (listAvailable
 * only returns AVAILABLE skills; checked again), at least one trigger, model-invocable (seed 002:
 * auto-triggering is implicit activation), and not a spawn skill (seed 000 §2c: only the explicit
 * path spawns; its triggers are a no-op and the parser warns about them).
 */
export function canAutoTrigger(skill: AvailableSkill): boolean {
  return skill.status === 'AVAILABLE' && skill.skill.enabled && skill.skill.triggers.length > 0 && isModelInvocable(skill.skill) && skill.skill.run.target !== 'spawn';
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
