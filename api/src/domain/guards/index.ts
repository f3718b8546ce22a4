export { activeGuards, runsAt, countsRounds, DEFAULT_MAX_ROUNDS, type ActiveGuard, type GuardPoint } from './active-guard';
export { GuardRunner, type GuardCheckOutcome, type GuardCommandInfo, type GuardRunInput, type GuardRunOutcome, type GuardRunnerDeps, type GuardState } from './guard-runner';
export { RecipeLlmJsonCaller, parseJsonAnswer, type LlmJsonCaller } from './llm-json';
export { clearLoops, hasLoopEntries, withGuardScratch, MAX_SCRATCH_BYTES, type GuardScratch, type GuardScratchMap, type ScratchValue } from './guard-scratch';
