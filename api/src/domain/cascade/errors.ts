import { DomainError, InvalidInputError } from '../errors';

export class InvalidDocumentPathError extends InvalidInputError {
  constructor(readonly rawPath: string, reason: string) {
    super('INVALID_DOCUMENT_PATH', `Invalid document path '${rawPath}': ${reason}`, 'path', { path: rawPath });
  }
}

export class DocumentTooLargeError extends InvalidInputError {
  constructor(readonly docPath: string, readonly bytes: number, readonly limit: number) {
    super('DOCUMENT_TOO_LARGE', `Document '${docPath}' is ${bytes} bytes; the limit is ${limit}`, 'content', { path: docPath });
  }
}

export class VersionConflictError extends DomainError {
  readonly code = 'VERSION_CONFLICT';
  readonly category = 'CONFLICT';
  constructor(readonly docPath: string, readonly expected: number, readonly actual: number | null) {
    super(
      `Document '${docPath}' is at version ${actual ?? 'none'}, not ${expected}; reload and retry`,
      [{ message: 'stale expectedVersion', severity: 'ERROR', field: 'expectedVersion', path: docPath }],
    );
  }
}
