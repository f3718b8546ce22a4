import { DomainError } from '../../errors';

/** A `command` guard refused an engine command before it ran (seed 004 §1: command dispatch, deny). */
export class CommandDeniedError extends DomainError {
  readonly code = 'COMMAND_DENIED';
  readonly category = 'FORBIDDEN';
  constructor(reason: string) {
    super(reason);
  }
}
