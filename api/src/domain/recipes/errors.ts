/** Errors of the recipes domain; graphql/errors.ts maps their categories once. */
import { DomainError, type Diagnostic, InvalidInputError } from '../errors';
import type { Layer } from '../cascade/layer';

/** A recipe exists in the cascade but does not validate: not usable until fixed (BAD_INPUT). */
export class RecipeInvalidError extends DomainError {
  readonly code = 'RECIPE_INVALID';
  readonly category = 'BAD_INPUT';
  constructor(readonly recipe: string, readonly source: Layer, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'ERROR');
    const first = errors[0];
    const where = first?.line ? ` (line ${first.line}${first.field ? `, ${first.field}` : ''})` : '';
    super(`Recipe '${recipe}' (${source}) does not validate: ${first?.message ?? 'unknown problem'}${where}${errors.length > 1 ? ` and ${errors.length - 1} more` : ''}`, diagnostics);
  }
}

export class InvalidRecipeNameError extends InvalidInputError {
  constructor(readonly recipe: string) {
    super('INVALID_RECIPE_NAME', `Invalid recipe name '${recipe}': use letters, digits, '.', '_' and '-' (the file name without .yaml)`, 'name');
  }
}

/** Seed 004 §11a: a model spec no provider, alias or default resolves. */
export class UnknownModelError extends InvalidInputError {
  constructor(readonly spec: string, reason: string) {
    super('UNKNOWN_MODEL', `Unknown model '${spec}': ${reason}`, 'params.model');
  }
}

/** Seed 004 §11a: `ai.alias.*` settings that point back at themselves. */
export class ModelAliasCycleError extends InvalidInputError {
  constructor(readonly chain: readonly string[]) {
    super('MODEL_ALIAS_CYCLE', `Model aliases form a cycle: ${chain.join(' → ')}; fix the ai.alias.* settings`, 'params.model');
  }
}
