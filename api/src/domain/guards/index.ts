export { activeGuards, runsAt, countsRounds, DEFAULT_MAX_ROUNDS, type ActiveGuard, type GuardPoint } from './active-guard';
export { GuardRunner, type GuardCommandInfo, type GuardRunInput, type GuardRunOutcome, type GuardRunnerDeps } from './guard-runner';
export { RecipeLlmJsonCaller, parseJsonAnswer, type LlmJsonCaller } from './llm-json';
