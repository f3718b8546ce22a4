/** Auto-triggers (seed 000 §4a, DESIGN §10): the indexed matcher, its caches, the reference matcher and the hook. */
export { tokenize, distinctKeywords, type DistinctKeyword } from './tokenize';
export { requiredLiterals } from './required-literals';
export { LiteralScanner } from './literal-scanner';
export {
  PATTERN_INPUT_CAP,
  canAutoTrigger,
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
export { matchTriggersNaive } from './naive-matcher';
export { SkillSetCache, scopeKey, type AvailableSkillLister, type SkillSetCacheOptions } from './skill-set-cache';
export { createTriggerHook } from './trigger-hook';
