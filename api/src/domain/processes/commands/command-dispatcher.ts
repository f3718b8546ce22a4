import type { RuntimeGuard } from '../process';
import type { ProcessPatch } from '../process-store';
import { EngineCommandError, parseEngineCommand, shortenCommand, type EngineCommand } from './engine-command';

/**
 * The engine-command channel behind `activate:` / `deactivate:` (seed 000 §2a): a registry of verb
 * handlers. Handlers are pure: they read the process state they need from the context and return a
 * patch description plus a one-line detail (for the COMMAND_RAN event); the caller persists the
 * patch on the lane. Handlers are idempotent setters (running one twice leaves the state of once)
 * and throw an EngineCommandError (or another DomainError) when the command is wrong.
 */
export interface CommandContext {
  /** The process's current runtime guards. */
  readonly guards: readonly RuntimeGuard[];
  /** Who runs the command (e.g. `skill:code-guard`, a user login); recorded as `installedBy`. */
  readonly actor: string | null;
}

/** The part of the process a command may change; a subset of the store's ProcessPatch. */
export type CommandPatch = Pick<ProcessPatch, 'guards'>;

export interface CommandEffect {
  readonly patch: CommandPatch;
  /** One line for the COMMAND_RAN event ("Installed runtime guard script '…'."). */
  readonly detail: string;
}

export interface CommandHandler {
  /** Lower-case, optionally dotted (`guard`, `status.set`). */
  readonly verb: string;
  /** One line of usage for error messages (`guard script <path> | guard inline <js> | guard clear`). */
  readonly usage: string;
  run(rest: string, ctx: CommandContext, command: EngineCommand): CommandEffect;
}

export class CommandDispatcher {
  private readonly handlers = new Map<string, CommandHandler>();

  constructor(handlers: readonly CommandHandler[] = []) {
    for (const handler of handlers) this.register(handler);
  }

  /** Adds a verb; registering a verb twice is a programming error. */
  register(handler: CommandHandler): this {
    const verb = handler.verb.toLowerCase();
    if (this.handlers.has(verb)) throw new Error(`Engine command verb '${verb}' is already registered`);
    this.handlers.set(verb, handler);
    return this;
  }

  /** The registered verbs, sorted. */
  verbs(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /** Parses (when given text) and runs one command; throws on a malformed command, an unknown verb or a failing handler. */
  dispatch(command: string | EngineCommand, ctx: CommandContext): CommandEffect {
    const parsed = typeof command === 'string' ? parseEngineCommand(command) : command;
    const handler = this.handlers.get(parsed.verb);
    if (!handler) {
      const known = this.verbs();
      throw new EngineCommandError(
        'UNKNOWN_COMMAND',
        `Unknown command '${shortenCommand(parsed.verb)}'; known: ${known.length > 0 ? known.join(', ') : '(none)'}`,
        parsed.text,
      );
    }
    return handler.run(parsed.rest, ctx, parsed);
  }
}

/** The context after a patch: what the next command of a sequence sees. */
export function applyCommandPatch(ctx: CommandContext, patch: CommandPatch): CommandContext {
  return patch.guards !== undefined ? { ...ctx, guards: patch.guards } : ctx;
}

/** Two patches in order: later keys win. */
export function mergeCommandPatches(first: CommandPatch, second: CommandPatch): CommandPatch {
  return { ...first, ...second };
}
