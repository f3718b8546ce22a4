/**
 * The base of every error the domain raises on purpose. Each error names a literal `code` (stable,
 * for clients) and a `category` that the transport maps once (graphql/errors.ts) to its own code.
 * Diagnostics say *where* the input was wrong: a path, a line/column, a field.
 */
export type ErrorCategory =
  | 'BAD_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  /** The outcome depends on a part that is unreachable for now (the database); try again later. */
  | 'UNAVAILABLE';

export type Severity = 'ERROR' | 'WARNING';

export interface Diagnostic {
  readonly message: string;
  readonly severity: Severity;
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
  readonly field?: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly category: ErrorCategory;
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.name = new.target.name;
    this.diagnostics = diagnostics;
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  readonly category = 'UNAUTHENTICATED';
  constructor(message = 'A valid API token is required') {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly code: string = 'FORBIDDEN';
  readonly category = 'FORBIDDEN';
}

/** Also the answer for resources of another tenant: "not found", never "forbidden" (DESIGN §6). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  readonly category = 'NOT_FOUND';
  constructor(readonly kind: string, readonly key: string) {
    super(`${kind} '${key}' not found`);
  }
}

export class InvalidInputError extends DomainError {
  readonly code: string;
  readonly category = 'BAD_INPUT';
  constructor(code: string, message: string, field?: string, extra: Partial<Diagnostic> = {}) {
    super(message, [{ message, severity: 'ERROR', ...(field ? { field } : {}), ...extra }]);
    this.code = code;
  }
}

export class NameTakenError extends DomainError {
  readonly code = 'NAME_TAKEN';
  readonly category = 'CONFLICT';
  constructor(readonly kind: string, readonly key: string) {
    super(`${kind} '${key}' already exists`);
  }
}

/**
 * A per-principal budget is spent (issue 13): too many mutations or turns in the current window
 * (`retryAfterMs` says when the window ends), or too many open subscriptions (no retry time: close one).
 * `limit` names the budget as the README's "Limits and security" table does.
 */
export class LimitExceededError extends DomainError {
  readonly category = 'RATE_LIMITED';
  constructor(
    readonly code: 'RATE_LIMITED' | 'TOO_MANY_SUBSCRIPTIONS',
    readonly limit: string,
    readonly max: number,
    readonly retryAfterMs: number | null,
    message: string,
  ) {
    super(message);
  }
}
