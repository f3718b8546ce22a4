import type { Diagnostic } from '../errors';
import { InvalidInputError } from '../errors';

/**
 * Validation by document path: skills, recipes and other structured documents have a checker;
 * everything else is free text. `putDocument` refuses documents with ERROR diagnostics unless
 * forced, `validateDocument` and the `vance lint` CLI show all of them — one mechanism for all.
 */
export interface DocumentKind {
  /** A short name for messages, e.g. `skill`. */
  readonly kind: string;
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

export class DocumentValidator {
  constructor(private readonly kinds: readonly DocumentKind[]) {}

  /** The kind a path is validated as, or null for free documents. */
  kindOf(path: string): string | null {
    return this.kinds.find((k) => k.pattern.test(path))?.kind ?? null;
  }

  validate(path: string, content: string): Diagnostic[] {
    for (const kind of this.kinds) {
      const match = kind.pattern.exec(path);
      if (match) return kind.validate(path, match, content);
    }
    return [];
  }
}

/**
 * Validation as the services call it. The server's adapter (validation/) runs it on a worker-thread
 * pool, because a valid document near the size limit costs about a second of CPU and one author's
 * upload must not pause other requests (issue 13); `inlineChecker` runs it on the calling thread
 * (the CLI, unit tests).
 */
export interface DocumentChecker {
  kindOf(path: string): string | null;
  validate(path: string, content: string): Promise<Diagnostic[]>;
}

export function inlineChecker(validator: DocumentValidator): DocumentChecker {
  return {
    kindOf: (path) => validator.kindOf(path),
    validate: async (path, content) => validator.validate(path, content),
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'ERROR');
}

/** A structured document that does not validate; nothing was written. */
export class DocumentInvalidError extends InvalidInputError {
  override readonly diagnostics: readonly Diagnostic[];
  constructor(path: string, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'ERROR');
    super('DOCUMENT_INVALID', `'${path}' does not validate (${errors.length} error${errors.length === 1 ? '' : 's'}); fix it or write with force: true`, undefined, { path });
    this.diagnostics = diagnostics;
  }
}

/**
 * The validation of a document did not finish within its deadline: nothing was checked, so nothing
 * is written, even with `force` — a document too costly to check is too costly to load for a turn.
 */
export class DocumentTooCostlyError extends InvalidInputError {
  constructor(path: string, deadlineMs: number) {
    super('DOCUMENT_TOO_COSTLY', `Validating '${path}' took longer than ${deadlineMs} ms, the limit (VANCE_VALIDATION_TIMEOUT_MS); nothing was written. Split the document or shorten it`, 'content', { path });
  }
}
