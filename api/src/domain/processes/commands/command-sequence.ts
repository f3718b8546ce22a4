import { DomainError } from '../../errors';
import { CommandDeniedError } from './command-denied';
import { applyCommandPatch, mergeCommandPatches, type CommandContext, type CommandDispatcher, type CommandPatch } from './command-dispatcher';
import { normalizeCommandText, parseEngineCommand, type EngineCommand } from './engine-command';

/**
 * Running a skill's `activate:` / `deactivate:` list (seed 000 §2a) through the dispatcher, in order,
 * each step seeing the state the earlier steps left (the context is threaded through their patches).
 *
 * - ACTIVATE stops at the first failure: the activation fails. The steps after it are `skipped`.
 * - DEACTIVATE is best-effort: every step runs even if one fails; every result is reported.
 *
 * `patch` accumulates the successful steps only (later keys win) and is {} when nothing changed.
 * Persisting it is the caller's decision; for a failed ACTIVATE the patch is the partial activation
 * (what the successful steps set), which a following `deactivate:` can clean up — each cleanup step
 * stands on its own. Any error a handler throws becomes a failed result (DomainError: its code;
 * anything else: `COMMAND_FAILED`), so one broken step never aborts a best-effort cleanup.
 *
 * `gate` (the `command` guards, seed 004 §1: command dispatch, able to deny) sees each parsed command
 * before it runs; a reason it returns refuses the step, which then fails with `COMMAND_DENIED`.
 */
export type CommandGate = (command: EngineCommand) => Promise<string | null>;

export type CommandSequenceMode = 'ACTIVATE' | 'DEACTIVATE';

export type CommandResult =
  | { readonly command: string; readonly verb: string; readonly ok: true; readonly detail: string; readonly private?: boolean }
  | { readonly command: string; readonly verb: string; readonly ok: false; readonly code: string; readonly error: string };

export interface CommandSequenceResult {
  /** Every step that ran succeeded (for ACTIVATE: the activation may proceed). */
  readonly ok: boolean;
  /** One per step that ran, in order. `command` is the normalised text; `verb` is '' when it did not parse. */
  readonly results: readonly CommandResult[];
  /** ACTIVATE after a failure: the commands that did not run. Always [] for DEACTIVATE. */
  readonly skipped: readonly string[];
  readonly patch: CommandPatch;
}

export async function runCommandSequence(
  dispatcher: CommandDispatcher,
  commands: readonly string[],
  ctx: CommandContext,
  mode: CommandSequenceMode,
  gate?: CommandGate,
): Promise<CommandSequenceResult> {
  const results: CommandResult[] = [];
  let patch: CommandPatch = {};
  let current = ctx;
  for (let index = 0; index < commands.length; index++) {
    const raw = commands[index] ?? '';
    const text = normalizeCommandText(raw);
    let parsed: EngineCommand | null = null;
    try {
      parsed = parseEngineCommand(raw);
      const refused = gate ? await gate(parsed) : null;
      if (refused !== null) throw new CommandDeniedError(refused);
      const effect = await dispatcher.dispatch(parsed, current);
      patch = mergeCommandPatches(patch, effect.patch);
      current = applyCommandPatch(current, effect.patch);
      results.push({ command: text, verb: parsed.verb, ok: true, detail: effect.detail, ...(effect.private ? { private: true } : {}) });
    } catch (error) {
      results.push({
        command: text,
        verb: parsed?.verb ?? '',
        ok: false,
        code: error instanceof DomainError ? error.code : 'COMMAND_FAILED',
        error: error instanceof Error ? error.message : String(error),
      });
      if (mode === 'ACTIVATE') {
        return { ok: false, results, skipped: commands.slice(index + 1).map(normalizeCommandText), patch };
      }
    }
  }
  return { ok: results.every((r) => r.ok), results, skipped: [], patch };
}
