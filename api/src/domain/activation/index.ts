/**
 * Activation (issue 8, seed 003): per-turn verdicts for every candidate skill, the budgeted skill
 * catalog of `open_skill`, and the context budget that never drops the skills section; skill evals
 * (issue 20: evals.yaml, its runner and service) on the same verdicts (conversation-verdicts.ts).
 * Matching itself is processes/triggers (one TriggerIndex for auto-triggers and `mentioned` skills).
 */
export { estimateTokens, estimateJsonTokens } from './tokens';
export { skillVerdicts, type ActivationState, type SkillVerdict, type VerdictCandidate } from './skill-verdicts';
export {
  budgetCatalog,
  shorten,
  type BudgetedCatalog,
  type CatalogBudgetInput,
  type CatalogCut,
  type CatalogCutKind,
  type CatalogEntry,
} from './skill-catalog-budget';
export { fitContext, type ContextBudgetInput, type FittedContext, type HistoryMessage, type TokenSource, type TokenSplit } from './context-budget';
export { skillPickerTools, PendingOpenSkills, OPEN_SKILL_TOOL, CLOSE_SKILL_TOOL, type PickerToolsInput } from './skill-picker-tools';
export { SkillTriggerBench, MAX_BENCH_MESSAGES, type SkillTriggerBenchDeps } from './skill-trigger-bench';
export { conversationVerdicts, type ConversationVerdicts, type RecipeStart } from './conversation-verdicts';
export {
  parseSkillEvals,
  EVALS_FILE_NAME,
  EVALS_PATH_PATTERN,
  DEFAULT_PICKED_RUNS,
  DEFAULT_PICKED_THRESHOLD,
  type FiresCase,
  type ParsedSkillEvals,
  type PickedCase,
  type SkillEvalCase,
  type SkillEvals,
} from './parse-skill-evals';
export { runSkillEvals, percent, type EvalCaseResult, type EvalConfusion, type SkillEvalEnvironment, type SkillEvalReport, type SkillPickJudge } from './run-skill-evals';
export { skillEvalsDocumentKind } from './skill-evals-document-kind';
export { modelPickJudge } from './model-pick-judge';
export { SkillEvalService, SkillEvalsInvalidError, type SkillEvalResult, type SkillEvalServiceDeps } from './skill-eval-service';
export { appendEvalCase, type NewEvalCase } from './append-eval-case';
