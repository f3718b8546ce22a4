import { DomainError, ForbiddenError, InvalidInputError, type Diagnostic } from '../errors';
import type { ProcessEvent } from './process-event';

/** seed 000 §7b: the exact wording is part of the contract. */
export class SkillNotAllowedByRecipeError extends ForbiddenError {
  override readonly code = 'SKILL_NOT_ALLOWED_BY_RECIPE';
  constructor(readonly skill: string, readonly recipe: string) {
    super(`Skill '${skill}' is not allowed by recipe '${recipe}'`);
  }
}

/** seed 002: `user-invocable: false` skills are not for /skill. */
export class SkillNotUserInvocableError extends ForbiddenError {
  override readonly code = 'SKILL_NOT_USER_INVOCABLE';
  constructor(readonly skill: string) {
    super(`Skill '${skill}' cannot be invoked by a user (user-invocable: false)`);
  }
}

export class SkillDisabledError extends InvalidInputError {
  constructor(readonly skill: string) {
    super('SKILL_DISABLED', `Skill '${skill}' is disabled`, 'name');
  }
}

export class SkillInvalidError extends DomainError {
  readonly code = 'SKILL_INVALID';
  readonly category = 'BAD_INPUT';
  constructor(readonly skill: string, diagnostics: readonly Diagnostic[]) {
    super(`Skill '${skill}' does not validate; fix its SKILL.md first`, diagnostics);
  }
}

/** seed 000 §7c: recipe-bound skills of a locked recipe stay. */
export class RecipeSkillLockedError extends ForbiddenError {
  override readonly code = 'RECIPE_SKILL_LOCKED';
  constructor(readonly skill: string, readonly recipe: string) {
    super(`Skill '${skill}' comes from locked recipe '${recipe}' and cannot be cleared`);
  }
}

export class UnknownEngineError extends InvalidInputError {
  constructor(readonly engine: string, known: readonly string[]) {
    super('UNKNOWN_ENGINE', `Unknown engine '${engine}'; known engines: ${known.join(', ')}`, 'engine');
  }
}

/**
 * An `activate:` step failed: the activation is refused and nothing was registered. Names the step
 * (`activate[i]`, 0-based as in the save diagnostics) and its text; `event` is its COMMAND_FAILED.
 */
export class ActivationCommandFailedError extends InvalidInputError {
  constructor(readonly skill: string, readonly index: number, readonly steps: number, readonly command: string, error: string, readonly event: ProcessEvent) {
    super('ACTIVATION_COMMAND_FAILED', `Skill '${skill}': activate command '${command.split('\n')[0]}' failed at activate[${index}] (step ${index + 1} of ${steps}): ${error}`, `activate[${index}]`);
  }
}

export class ProcessNotActiveError extends DomainError {
  readonly code = 'PROCESS_NOT_ACTIVE';
  readonly category = 'CONFLICT';
  constructor(readonly processName: string, readonly status: string) {
    super(`Process '${processName}' is ${status.toLowerCase()}`);
  }
}
