import { DomainError } from '../errors';

/** A provider failed: bad key, unreachable endpoint, timeout, a dropped stream. The turn fails, the inbox stays. */
export class ModelCallError extends DomainError {
  readonly code: string;
  readonly category = 'BAD_INPUT';
  constructor(code: 'PROVIDER_UNAVAILABLE' | 'PROVIDER_ERROR' | 'PROVIDER_TIMEOUT' | 'PROVIDER_NOT_CONFIGURED' | 'UNKNOWN_PROVIDER', message: string, readonly provider: string) {
    super(message);
    this.code = code;
  }
}
