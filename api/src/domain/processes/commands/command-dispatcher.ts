import type { GuardScratchMap } from '../../guards/guard-scratch';
import type { RecipeGuard } from '../../recipes/recipe';
import type { Process, RuntimeGuard } from '../process';
import type { ProcessPatch } from '../process-store';
import { EngineCommandError, parseEngineCommand, shortenCommand, type EngineCommand } from './engine-command';

/**
 * The engine-command channel behind `activate:` / `deactivate:` (seed 000 §2a): a registry of verb
 * handlers. Handlers are pure: they read the process state they need from the context and return a
 * patch description plus a one-line detail (for the COMMAND_RAN event); the caller persists the
 * patch on the lane. Handlers are idempotent setters (running one twice leaves the state of once)
 * and throw an EngineCommandError (or another DomainError) when the command is wrong. A handler may
 * answer with a promise when it has to ask (may the caller read that project?); it answers
 * synchronously whenever it can, so that the save-time dry run (command-check.ts) judges it.
 *
 * The context's optional fields are what the process knows beyond its runtime guards; the dry run
 * has none of them, and a handler then checks what it can without them.
 */
export interface CommandContext {
  /** The process's current runtime guards. */
  readonly guards: readonly RuntimeGuard[];
  /** Who runs the command (e.g. `skill:code-guard`, a user login); recorded as `installedBy`. */
  readonly actor: string | null;
  /** The recipe's guards as the caller may see them (owner-view.ts); absent: none known. */
  readonly recipeGuards?: readonly RecipeGuard[];
  /** Rounds used since the last user message, by guard key (Process.guardRounds). */
  readonly guardRounds?: Readonly<Record<string, number>>;
  /** Each guard's loop and session scratch, by guard key (Process.guardScratch). */
  readonly guardScratch?: GuardScratchMap;
  /**
   * The recipe's guards belong to the owner's USER layer: what shows them is the owner's only
   * (owner-view.ts, rule 3), so an effect that lists them is marked `private`.
   */
  readonly recipeGuardsPrivate?: boolean;
  /** Whether the one running the command may read the project named `name` (same tenant). Absent: not checked (the dry run). */
  readonly canReadProject?: (name: string) => Promise<boolean>;
}

/** The context of a command run on `process` (as the one running it may see it, owner-view.ts) by `actor`. */
export function commandContextOf(
  process: Pick<Process, 'guards' | 'recipeGuards' | 'guardRounds' | 'guardScratch' | 'recipeSource'>,
  actor: string | null,
  canReadProject?: (name: string) => Promise<boolean>,
): CommandContext {
  return {
    guards: process.guards, actor, recipeGuards: process.recipeGuards, guardRounds: process.guardRounds, guardScratch: process.guardScratch,
    recipeGuardsPrivate: process.recipeSource === 'USER', ...(canReadProject ? { canReadProject } : {}),
  };
}

/** The part of the process a command may change; a subset of the store's ProcessPatch. */
export type CommandPatch = Pick<ProcessPatch, 'guards'>;

export interface CommandEffect {
  readonly patch: CommandPatch;
  /** One line for the COMMAND_RAN event ("Installed runtime guard script '…'."). */
  readonly detail: string;
  /** The detail shows what only the process's owner may see (its USER layer): the event is private. */
  readonly private?: boolean;
}

export interface CommandHandler {
  /** Lower-case, optionally dotted (`guard`, `status.set`). */
  readonly verb: string;
  /** One line of usage for error messages (`guard script <path> | guard inline <js> | guard clear`). */
  readonly usage: string;
  run(rest: string, ctx: CommandContext, command: EngineCommand): CommandEffect | Promise<CommandEffect>;
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

  /**
   * Parses (when given text) and runs one command; throws on a malformed command or an unknown verb,
   * and the handler throws (or rejects) when it fails. The handler's answer as it gave it: a promise
   * only when the handler had to wait for something.
   */
  dispatch(command: string | EngineCommand, ctx: CommandContext): CommandEffect | Promise<CommandEffect> {
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
