/** Triggers (seed 000 §4a, DESIGN §10, issue 8): the one indexed matcher, its caches, the reference matcher and the hook. */
export { tokenize, tokenizeCased, normalizeText, distinctKeywords, keywordUnits, WHOLE_WORDS, type DistinctKeyword, type KeywordMode } from './tokenize';
export { requiredLiterals } from './required-literals';
export { LiteralScanner } from './literal-scanner';
export {
  PATTERN_INPUT_CAP,
  activatesOnMatch,
  canAutoTrigger,
  effectiveRegex,
  newestFirst,
  regexInput,
  secondaryLabel,
  selectiveOutcome,
  type ScanMessages,
  type SecondaryMiss,
  type TriggerEvaluation,
  keywordReason,
  keywordThreshold,
  patternInput,
  patternReason,
  type TriggerFilter,
  type TriggerMatch,
} from './trigger-match';
export { TriggerIndex } from './trigger-index';
export type { TriggerIndexStats } from './trigger-index-core';
export { TriggerIndexCache } from './trigger-index-cache';
export { evaluateTriggersNaive, matchTriggersNaive } from './naive-matcher';
export { SkillSetCache, scopeKey, type AvailableSkillLister, type SkillSetCacheOptions } from './skill-set-cache';
export { createTriggerHook, hookMatches } from './trigger-hook';
