import { ForbiddenError } from '../errors';

export class NotAllowedError extends ForbiddenError {
  constructor(action: string) {
    super(`You are not allowed to ${action}`);
  }
}
