import { DomainError } from '../errors';

export type ModelCallErrorCode = 'PROVIDER_UNAVAILABLE' | 'PROVIDER_ERROR' | 'PROVIDER_TIMEOUT' | 'PROVIDER_NOT_CONFIGURED' | 'UNKNOWN_PROVIDER';

/** A provider failed: bad key, unreachable endpoint, timeout, a dropped stream. The turn fails, the inbox stays. */
export class ModelCallError extends DomainError {
  readonly code: ModelCallErrorCode;
  readonly category = 'BAD_INPUT';
  constructor(code: ModelCallErrorCode, message: string, readonly provider: string) {
    super(message);
    this.code = code;
  }
}
