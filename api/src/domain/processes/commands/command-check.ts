import { DomainError } from '../../errors';
import type { CommandDispatcher } from './command-dispatcher';

/**
 * One `activate:` / `deactivate:` entry checked at save (issue 15: validation equals execution):
 * a dry run through the dispatcher that runs it — the same parser, the same verb table, the same
 * handler argument checks — on an empty process state. Handlers are pure (they return a patch the
 * lane would persist), so nothing happens. The problem's message, or null when the entry would run.
 * A step whose success depends on the process state or the caller at run time cannot be judged here:
 * `guard script //other-project/x.js` is checked for its form; whether the caller may read that
 * project is decided when it runs.
 */
export function commandProblem(dispatcher: CommandDispatcher, command: string): string | null {
  try {
    const effect = dispatcher.dispatch(command, { guards: [], actor: null });
    // Without a reader in the context no shipped handler waits; one that still does is judged by what it
    // checked before waiting (its rejection is for the run, not the save).
    if (effect instanceof Promise) effect.catch(() => undefined);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}
