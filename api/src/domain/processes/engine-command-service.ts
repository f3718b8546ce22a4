import { DomainError } from '../errors';
import type { Principal } from '../identity/principal';
import {
  CommandDeniedError, commandContextOf, EngineCommandError, MAX_INLINE_GUARD_BYTES, normalizeCommandText, parseEngineCommand, shortenCommand, type CommandDispatcher, type CommandEffect, type EngineCommand,
} from './commands';
import { markPrivate, patchWithinView, processView } from './owner-view';
import type { Process } from './process';
import type { ProcessEvent } from './process-event';
import type { ProcessService } from './process-service';
import type { CommandGateFactory } from './skill-activation-service';

/** The longest command engineCommand reads: an inline guard body at its cap, and room for the words before it. */
export const MAX_COMMAND_CHARS = MAX_INLINE_GUARD_BYTES + 4096;

/** What one engine command run directly did (the engineCommand mutation). */
export interface EngineCommandOutcome {
  /** False only when the handler broke (not a refusal: those are typed errors); `detail` is then its message. */
  readonly ok: boolean;
  /** The command as run: CRLF → LF, trimmed, with its `//` if it had one. */
  readonly command: string;
  readonly verb: string;
  /** The handler's answer (`guard list`: the listing), or the error message when !ok. */
  readonly detail: string;
  readonly process: Process;
}

/**
 * One engine command typed by a person (seed 000 §2a: the `//` surface, `//guard status`), run on the
 * process's lane through the same dispatcher and the same `command` guards as a skill's `activate:`
 * steps — with no skill and no phase. Whoever may steer the process may run one; a non-owner acts
 * within its view (owner-view.ts): the owner's USER-layer recipe guards are neither listed nor
 * touched. Every command leaves one event: COMMAND_RAN with its patch, in one write, or COMMAND_FAILED
 * — a malformed, unknown, refused or failing command then is a typed error and changes nothing else.
 */
export class EngineCommandService {
  constructor(private readonly deps: {
    readonly processes: ProcessService;
    readonly commands: CommandDispatcher;
    readonly commandGate?: CommandGateFactory;
  }) {}

  run(principal: Principal, processId: string, line: string): Promise<EngineCommandOutcome> {
    const { processes } = this.deps;
    // Before anything reads or records it (the longest useful command is an inline guard at its cap).
    if (line.length > MAX_COMMAND_CHARS) {
      throw new EngineCommandError('INVALID_COMMAND', `A command may hold at most ${MAX_COMMAND_CHARS} characters; this one has ${line.length}`, shortenCommand(line));
    }
    return processes.onLane(principal, processId, async (process) => {
      const text = normalizeCommandText(line);
      const fail = (error: Error, code: string) => processes.deps.store.update(process.tenantId, process.id, () => null, [
        { type: 'COMMAND_FAILED', ...step(text), error: error.message, code },
      ]);
      try {
        const parsed = parseEngineCommand(line);
        const current = await this.gate(principal, process, parsed);
        const canReadProject = (name: string) => processes.canReadProject(principal, name);
        const context = commandContextOf(processView(principal, current), principal.user.login, canReadProject);
        let effect: CommandEffect;
        try {
          effect = await this.deps.commands.dispatch(parsed, context);
        } catch (error) {
          if (error instanceof DomainError) throw error;
          // A handler that broke is reported as a failed step is (command-sequence.ts), not as the caller's mistake.
          const broken = error instanceof Error ? error : new Error(String(error));
          return { ok: false, command: text, verb: parsed.verb, detail: broken.message, process: await fail(broken, 'COMMAND_FAILED') };
        }
        const event: ProcessEvent = { type: 'COMMAND_RAN', ...step(text), detail: effect.detail };
        const patch = Object.keys(effect.patch).length > 0 ? effect.patch : null;
        const updated = await processes.deps.store.update(current.tenantId, current.id, patchWithinView(principal, () => patch), markPrivate([event], effect.private === true));
        return { ok: true, command: text, verb: parsed.verb, detail: effect.detail, process: updated };
      } catch (error) {
        // A refusal (malformed, unknown, denied, wrong arguments, unreadable project) is recorded, then answered as a typed error.
        if (error instanceof DomainError) await fail(error, error.code);
        throw error;
      }
    });
  }

  /** The `command` guards see the command first (seed 004 §1); returns the process after their scratch was stored. */
  private async gate(principal: Principal, process: Process, command: EngineCommand): Promise<Process> {
    const { processes } = this.deps;
    const gate = this.deps.commandGate?.({ principal, process, scope: await processes.scopeFor(principal, process) });
    if (!gate) return process;
    const refused = await gate({ command, skill: null, phase: null });
    if (refused !== null) throw new CommandDeniedError(refused);
    return (await processes.deps.store.findProcess(process.tenantId, process.id)) ?? process;
  }
}

/** The event fields of a direct command: no skill, no phase, no index; the command in full. */
function step(text: string): { command: string; verb: string; skill: null; phase: null; text: string; args: string | null } {
  let parsed: EngineCommand | null = null;
  try {
    parsed = parseEngineCommand(text);
  } catch {
    // A malformed command is reported with an empty verb and no args (as a failed step is).
  }
  return { command: shortenCommand(text), verb: parsed?.verb ?? '', skill: null, phase: null, text, args: parsed?.rest ?? null };
}
