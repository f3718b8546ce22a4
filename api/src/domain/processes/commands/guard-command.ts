import { NotFoundError } from '../../errors';
import { formatGuardScriptPath, InvalidGuardPathError, parseGuardScriptPath, type GuardScriptPath } from '../../guards/guard-script-path';
import type { RuntimeGuard } from '../process';
import type { CommandContext, CommandEffect, CommandHandler } from './command-dispatcher';
import { EngineCommandError, shortenCommand, splitFirstWord, type EngineCommand } from './engine-command';
import { guardList, guardStatus } from './guard-report';

/**
 * The `guard` family (seed 000 §2a, seed 004 §6d): runtime guards as stored process state, added to
 * the recipe's spawn guards. Execution comes with the sandbox; here they are only installed/removed.
 *
 *   guard script <path>   install the guard script at a cascade document path (must end in `.js`;
 *                         sanitised like every document path, spaces inside a segment allowed);
 *                         `//<project>/<path>` names another project of the tenant, which the one
 *                         running the command must be able to read — otherwise it fails as an
 *                         unknown project would (NOT_FOUND, no hint that it exists)
 *   guard inline <js>     install an inline guard: the body is everything after `inline` to the end,
 *                         possibly on the following lines; non-empty, at most 64 KiB (UTF-8)
 *   guard clear           remove every runtime guard (recipe guards are not runtime guards)
 *   guard list            every guard of the process, recipe and runtime (guard-report.ts)
 *   guard status          per guard: rounds used since the last user message, scratch keys
 *
 * Idempotent setters: installing a guard that is already there (same kind and path/body) changes
 * nothing — the first installation (and its `installedBy`) stays; clear on no guards is fine. A step
 * that changes nothing returns an empty patch.
 * Subcommands match in any case.
 */
export const MAX_INLINE_GUARD_BYTES = 64 * 1024;

const USAGE = 'guard script <path.js> | guard inline <js body> | guard clear | guard list | guard status';
const SUBCOMMANDS = ['script', 'inline', 'clear', 'list', 'status'];

export const guardCommand: CommandHandler = {
  verb: 'guard',
  usage: USAGE,
  run(rest: string, ctx: CommandContext, command: EngineCommand): CommandEffect | Promise<CommandEffect> {
    const { word, rest: argument } = splitFirstWord(rest);
    const sub = word.toLowerCase();
    switch (sub) {
      case 'script':
        return installScript(ctx, scriptPath(argument, command));
      case 'inline':
        return install(ctx, { kind: 'INLINE', body: inlineBody(argument, command), installedBy: ctx.actor });
      case 'clear':
        if (argument !== '') fail(command, `'guard clear' takes no arguments, got '${shortenCommand(argument)}'`);
        if (ctx.guards.length === 0) return { patch: {}, detail: 'No runtime guards to remove.' };
        return { patch: { guards: [] }, detail: `Removed ${plural(ctx.guards.length, 'runtime guard')}.` };
      case 'list':
      case 'status':
        if (argument !== '') fail(command, `'guard ${sub}' takes no arguments, got '${shortenCommand(argument)}'`);
        return sub === 'list' ? guardList(ctx) : guardStatus(ctx);
      case '':
        return fail(command, `'guard' needs a subcommand: ${USAGE}`);
      default:
        return fail(command, `Unknown subcommand '${shortenCommand(word)}' of 'guard'; known: ${SUBCOMMANDS.join(', ')} (${USAGE})`);
    }
  },
};

function scriptPath(argument: string, command: EngineCommand): GuardScriptPath {
  if (argument === '') fail(command, "'guard script' needs a document path, e.g. `guard script _vance/guards/my-guard.js`");
  if (argument.includes('\n')) fail(command, "'guard script' takes one path on the same line");
  try {
    return parseGuardScriptPath(argument);
  } catch (error) {
    if (error instanceof InvalidGuardPathError) fail(command, `'guard script': ${error.message}`);
    throw error;
  }
}

/**
 * A path in another project is installed only for someone who may read that project (an unknown and
 * an unreadable project fail alike). Without a reader (the save-time dry run) only its form is checked.
 */
function installScript(ctx: CommandContext, where: GuardScriptPath): CommandEffect | Promise<CommandEffect> {
  const guard: RuntimeGuard = { kind: 'SCRIPT', path: formatGuardScriptPath(where), installedBy: ctx.actor };
  const project = where.project;
  if (project === null || !ctx.canReadProject) return install(ctx, guard);
  return ctx.canReadProject(project).then((readable) => {
    if (!readable) throw new NotFoundError('Project', project);
    return install(ctx, guard);
  });
}

function inlineBody(argument: string, command: EngineCommand): string {
  if (argument === '') fail(command, "'guard inline' needs a JavaScript body after 'inline' (same line or the lines below)");
  const bytes = utf8Length(argument);
  if (bytes > MAX_INLINE_GUARD_BYTES) fail(command, `'guard inline': the body is ${bytes} bytes; the limit is ${MAX_INLINE_GUARD_BYTES}`);
  return argument;
}

function install(ctx: CommandContext, guard: RuntimeGuard): CommandEffect {
  const what = guard.kind === 'SCRIPT' ? `runtime guard script '${guard.path}'` : `inline runtime guard (${plural(utf8Length(guard.body), 'byte')})`;
  if (ctx.guards.some((existing) => sameGuard(existing, guard))) {
    return { patch: {}, detail: `The ${what} is already installed.` };
  }
  return { patch: { guards: [...ctx.guards, guard] }, detail: `Installed the ${what}.` };
}

/** Identity of a runtime guard: its kind and path or body; who installed it does not matter. */
export function sameGuard(a: RuntimeGuard, b: RuntimeGuard): boolean {
  if (a.kind === 'SCRIPT') return b.kind === 'SCRIPT' && a.path === b.path;
  return b.kind === 'INLINE' && a.body === b.body;
}

function fail(command: EngineCommand, message: string): never {
  throw new EngineCommandError('INVALID_COMMAND', message, command.text);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}
