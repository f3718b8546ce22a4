import type { AvailableSkill } from '../../skills/skill-resolver';
import type { SkillTrigger } from '../../skills/skill';
import { distinctKeywords, tokenize } from './tokenize';
import { canAutoTrigger, keywordReason, keywordThreshold, patternInput, patternReason, type TriggerFilter, type TriggerMatch } from './trigger-match';

/**
 * The reference semantics of auto-trigger matching, written the way the original does it (seed 000
 * §4a): every candidate skill, every trigger, every keyword, every regex — O(skills × triggers) per
 * message. The TriggerIndex must return exactly what this returns (a property test holds them
 * together); the turn-preparation benchmark uses it as the naive baseline.
 */
export function matchTriggersNaive(skills: readonly AvailableSkill[], message: string, filter: TriggerFilter): TriggerMatch[] {
  const active = new Set(filter.active);
  const allowed = filter.allowedSkillsOverride === null ? null : new Set(filter.allowedSkillsOverride);
  const tokens = tokenize(message);
  const input = patternInput(message);
  const matches: TriggerMatch[] = [];
  for (const skill of skills) {
    if (!canAutoTrigger(skill) || active.has(skill.name) || (allowed !== null && !allowed.has(skill.name))) continue;
    const triggers = skill.skill.triggers;
    for (let index = 0; index < triggers.length; index++) {
      const trigger = triggers[index]!;
      const evidence = fire(trigger, tokens, input);
      if (!evidence) continue;
      const reason = trigger.type === 'PATTERN' ? patternReason(trigger.pattern) : keywordReason(evidence);
      matches.push({ skill: skill.name, available: skill, triggerIndex: index, trigger, evidence, reason });
      break;
    }
  }
  return matches;
}

function fire(trigger: SkillTrigger, tokens: readonly string[], input: string): string[] | null {
  if (trigger.type === 'PATTERN') {
    trigger.regex.lastIndex = 0;
    const match = trigger.regex.exec(input);
    return match ? [match[0]] : null;
  }
  const keywords = distinctKeywords(trigger.keywords);
  const found = keywords.filter((k) => k.tokens.length > 0 && containsPhrase(tokens, k.tokens)).map((k) => k.written);
  return found.length >= keywordThreshold(keywords.length, trigger.minMatch) && found.length > 0 ? found : null;
}

function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((token, j) => tokens[i + j] === token)) return true;
  }
  return false;
}
