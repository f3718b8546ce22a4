import { DomainError } from '../../errors';
import type { CommandDispatcher } from './command-dispatcher';

/**
 * One `activate:` / `deactivate:` entry checked at save (issue 15: validation equals execution):
 * a dry run through the dispatcher that runs it — the same parser, the same verb table, the same
 * handler argument checks — on an empty process state. Handlers are pure (they return a patch the
 * lane would persist), so nothing happens. The problem's message, or null when the entry would run.
 * A step whose success depends on the process state at run time cannot be judged here; today's
 * handlers (`guard`) have none.
 */
export function commandProblem(dispatcher: CommandDispatcher, command: string): string | null {
  try {
    dispatcher.dispatch(command, { guards: [], actor: null });
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}
