import type { AvailableSkill } from '../../skills/skill-resolver';
import type { SkillActivation, SkillTrigger } from '../../skills/skill';
import { distinctKeywords, normalizeText, tokenize, tokenizeCased } from './tokenize';
import {
  activatesOnMatch,
  canAutoTrigger,
  effectiveRegex,
  keywordReason,
  keywordThreshold,
  patternReason,
  regexInput,
  selectiveOutcome,
  secondaryLabel,
  type ScanMessages,
  type SecondaryMiss,
  type TriggerEvaluation,
  type TriggerFilter,
  type TriggerMatch,
} from './trigger-match';

/**
 * The reference semantics of trigger matching (trigger-match.ts), written the way the original does it
 * (seed 000 §4a): every candidate skill, every trigger, every keyword, every regex, every scanned
 * message — O(skills × triggers × depth) per turn. The TriggerIndex must return exactly what this
 * returns (a property test holds them together); the benchmarks use it as the naive baseline.
 */
export function evaluateTriggersNaive(skills: readonly AvailableSkill[], messages: ScanMessages | string, filter: TriggerFilter): TriggerEvaluation {
  const scan = typeof messages === 'string' ? [messages] : messages;
  const active = new Set(filter.active);
  const allowed = filter.allowedSkillsOverride === null ? null : new Set(filter.allowedSkillsOverride);
  const view = new ScanView(scan);
  const matches: TriggerMatch[] = [];
  const misses: SecondaryMiss[] = [];
  for (const skill of skills) {
    if (!canAutoTrigger(skill) || active.has(skill.name) || (allowed !== null && !allowed.has(skill.name))) continue;
    const { triggers, activation } = skill.skill;
    const depth = Math.min(activation.scanDepth, scan.length);
    for (let index = 0; index < triggers.length; index++) {
      const trigger = triggers[index]!;
      const evidence = fire(trigger, activation, view, depth);
      if (!evidence) continue;
      const secondary = activation.secondaryTriggers;
      const met = secondary.map((t) => fire(t, activation, view, depth) !== null);
      const outcome = selectiveOutcome(activation.selectiveLogic, secondary, met);
      if (outcome) {
        misses.push({ skill: skill.name, available: skill, evidence, logic: activation.selectiveLogic, ...outcome });
      } else {
        const reason = trigger.type === 'PATTERN' ? patternReason(trigger.pattern) : keywordReason(evidence);
        matches.push({ skill: skill.name, available: skill, triggerIndex: index, trigger, evidence, reason, secondary: secondary.filter((_t, i) => met[i]).map(secondaryLabel) });
      }
      break;
    }
  }
  return { matches, misses };
}

/** The skills to turn on (seed-000 auto-triggers and `mentioned` skills), as TriggerIndex.match. */
export function matchTriggersNaive(skills: readonly AvailableSkill[], messages: ScanMessages | string, filter: TriggerFilter): TriggerMatch[] {
  return evaluateTriggersNaive(skills, messages, filter).matches.filter((m) => activatesOnMatch(m.available));
}

/** The scanned messages, each read lazily in every form a trigger may need. */
class ScanView {
  private readonly forms = new Map<string, unknown>();

  constructor(readonly messages: ScanMessages) {}

  tokens(m: number, cased: boolean): string[] {
    return this.memo(`t${cased ? 'c' : ''}${m}`, () => (cased ? tokenizeCased : tokenize)(this.messages[m]!));
  }

  text(m: number, cased: boolean): string {
    return this.memo(`s${cased ? 'c' : ''}${m}`, () => normalizeText(this.messages[m]!, cased));
  }

  regexInput(m: number, cased: boolean): string {
    return this.memo(`r${cased ? 'c' : ''}${m}`, () => regexInput(this.messages[m]!, cased));
  }

  private memo<T>(key: string, make: () => T): T {
    if (!this.forms.has(key)) this.forms.set(key, make());
    return this.forms.get(key) as T;
  }
}

function fire(trigger: SkillTrigger, activation: SkillActivation, view: ScanView, depth: number): string[] | null {
  if (trigger.type === 'PATTERN') {
    const { regex, cased } = effectiveRegex(trigger, activation);
    for (let m = 0; m < depth; m++) {
      const match = regex.find(view.regexInput(m, cased));
      if (match !== null) return [match];
    }
    return null;
  }
  const mode = { matchWholeWords: activation.matchWholeWords, caseSensitive: activation.caseSensitive };
  const keywords = distinctKeywords(trigger.keywords, mode);
  const occurs = (units: readonly string[]): boolean => {
    for (let m = 0; m < depth; m++) {
      if (mode.matchWholeWords ? containsPhrase(view.tokens(m, mode.caseSensitive), units) : view.text(m, mode.caseSensitive).includes(units[0]!)) return true;
    }
    return false;
  };
  const found = keywords.filter((k) => k.tokens.length > 0 && occurs(k.tokens)).map((k) => k.written);
  return found.length >= keywordThreshold(keywords.length, trigger.minMatch) && found.length > 0 ? found : null;
}

function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((token, j) => tokens[i + j] === token)) return true;
  }
  return false;
}
