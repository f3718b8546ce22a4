/**
 * Runs a process's completion guards at one point of a turn (seed 004 §6d, seed 000 §2a, issue 6). A
 * guard is JavaScript in the sandbox (FUNCTION_BODY: top-level `return` allowed) with
 * `vance.params`, `vance.guard.{task, output, point, round, maxRounds, naturalStop, fired, continueWith,
 * loop, session}` (loop/session: the guard's scratch, guard-scratch.ts), `vance.llm.callForJson`,
 * `vance.log`, `vance.context()`, and with `allowTools: true` also `vance.tool`. `continueWith(prompt)`
 * asks the engine to go on with that prompt; at the yield points (stop, terminate) that uses one of the
 * guard's rounds, capped by `maxRounds` per user turn. Fail-open: a guard that cannot be read or
 * fails in any way is reported (GuardRan with `failed`) and the turn delivers as if it had not run.
 */
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { Process } from '../processes/process';
import { externalWait, ScriptError, type BindingTree, type JsonValue, type ScriptRunner } from '../scripting/script-runner';
import { LogLimiter } from '../scripts/log-limiter';
import { brainBindings } from '../scripts/script-tools';
import { scriptContext } from '../scripts/script-context';
import type { WorkspaceBinding } from '../scripts/workspace-binding';
import type { ToolInvocationContext } from '../tools/server-tool';
import { activeGuards, countsRounds, runsAt, type ActiveGuard, type GuardPoint } from './active-guard';
import { splitGuardScriptPath } from './guard-script-path';
import { EMPTY_SCRATCH, ScratchDraft, withGuardScratch, type GuardScratch, type GuardScratchMap } from './guard-scratch';
import type { LlmJsonCaller } from './llm-json';

const MAX_PROMPT_CHARS = 20_000;

export interface GuardRunnerDeps {
  readonly runner: ScriptRunner;
  /**
   * Guard scripts by path: `lookup`, the effective document in the process's scope; `lookupIn`, the
   * effective document in another project of the process's tenant (`//project/path`) as the process's
   * owner may read it — null when it is missing or the owner may not read that project (one answer
   * for both). Without `lookupIn` such a guard is missing.
   */
  readonly documents: {
    lookup(scope: CascadeScope, path: string): Promise<{ readonly content: string } | null>;
    lookupIn?(owner: Pick<Process, 'tenantId' | 'userId'>, project: string, path: string): Promise<{ readonly content: string } | null>;
  };
  readonly llm: LlmJsonCaller;
  readonly workspace: WorkspaceBinding;
  /** Wall-clock limit of one guard run (ms); it includes the judge's model call. Default 120 s. */
  readonly timeoutMs?: number;
  /** Limit on the guard's own running time (ms). Default: the sandbox's. */
  readonly cpuTimeoutMs?: number;
  readonly onError?: (error: unknown, context: string) => void;
  /**
   * Stores what a point changed (round counters, scratch), on the process's lane; returns the process
   * after it. Without it nothing is stored (previews, tests of the runner alone).
   */
  readonly saveState?: (process: Process, state: GuardState) => Promise<Process>;
}

/** The guard state a point may change; `scratch` holds only the guards whose scratch changed. */
export interface GuardState {
  readonly rounds?: Readonly<Record<string, number>>;
  readonly scratch?: GuardScratchMap;
}

export interface GuardRunInput {
  readonly point: GuardPoint;
  readonly process: Process;
  readonly scope: CascadeScope;
  readonly principal: Principal;
  /** What the guard judges: the user's request (the turn's input) and the engine's reply. */
  readonly task: string;
  readonly output: string;
  /** At start: activates a skill one-shot for this turn; false when refused. */
  readonly activateSkill?: (name: string) => Promise<boolean>;
  /** At stop/terminate: the model stopped on its own (false: the turn ended at its iteration cap). */
  readonly naturalStop?: boolean;
  /** The running turn (for `vance.tool` with allowTools, and `vance.log`); absent outside a turn. */
  readonly tools?: ToolInvocationContext;
  /** GuardRan / ScriptLog turn events; a no-op outside a turn. */
  readonly emit: (type: 'GuardRan' | 'ScriptLog', payload: Readonly<Record<string, unknown>>) => Promise<void>;
}

export interface GuardRunOutcome {
  /** Follow-up prompts, in guard order. */
  readonly continueWith: readonly string[];
  /** The round counters after this point (unchanged keys kept). */
  readonly rounds: Readonly<Record<string, number>>;
  readonly ran: number;
  /** The process after the point's state was stored (the input's when nothing changed). */
  readonly process: Process;
}

/** A command guard's verdict and the process after its state was stored. */
export interface GuardCheckOutcome {
  readonly refusal: string | null;
  readonly process: Process;
}

/** The engine command a `command` guard judges at dispatch, before it runs. */
export interface GuardCommandInfo {
  readonly text: string;
  readonly verb: string;
  readonly args: string;
  /** The skill whose activate:/deactivate: list it is a step of; null (and phase null) for a command run directly (engineCommand). */
  readonly skill: string | null;
  readonly phase: 'activate' | 'deactivate' | null;
}

export class GuardRunner {
  constructor(private readonly deps: GuardRunnerDeps) {}

  async run(input: GuardRunInput): Promise<GuardRunOutcome> {
    const rounds: Record<string, number> = { ...input.process.guardRounds };
    const prompts: string[] = [];
    let ran = 0;
    // Several guards at one point: the first whose continueWith takes effect wins; the later ones
    // still run, see `vance.guard.fired` (the winner's label), and their continueWith returns false.
    let fired: string | null = null;
    let scratch: GuardScratchMap = {};
    for (const guard of activeGuards(input.process)) {
      if (!runsAt(guard.trigger, input.point)) continue;
      const used = rounds[guard.key] ?? 0;
      // At the cap the guard still runs (it may want to know): its continueWith then returns false.
      const atCap = countsRounds(input.point) && used >= guard.maxRounds;
      ran++;
      const outcome = await this.runOne(guard, input, used, { atCap, fired });
      if (outcome.scratch) scratch = withGuardScratch(scratch, guard.key, outcome.scratch);
      const prompt = outcome.continueWith;
      if (prompt === null) continue;
      fired = guard.label;
      // A queued follow-up says which guard sent it; a start guard's note joins the turn it starts as is.
      prompts.push(countsRounds(input.point) ? `[${guard.label}] ${prompt}` : prompt);
      if (countsRounds(input.point)) rounds[guard.key] = used + 1;
    }
    const roundsChanged = JSON.stringify(rounds) !== JSON.stringify(input.process.guardRounds);
    const process = await this.save(input.process, { ...(roundsChanged ? { rounds } : {}), ...(Object.keys(scratch).length > 0 ? { scratch } : {}) });
    return { continueWith: prompts, rounds, ran, process };
  }

  private async save(process: Process, state: GuardState): Promise<Process> {
    if (!this.deps.saveState || (state.rounds === undefined && state.scratch === undefined)) return process;
    return this.deps.saveState(process, state);
  }

  /**
   * The `command` guards at dispatch (seed 004 §1: able to deny, fail-closed): each sees the command
   * before it runs; the first that calls `vance.guard.deny(reason)` refuses it, and a guard that cannot
   * run (missing, throws, times out) refuses it too. Returns the refusal, or null to let it run.
   */
  async check(input: GuardRunInput, command: GuardCommandInfo): Promise<GuardCheckOutcome> {
    let scratch: GuardScratchMap = {};
    let refusal: string | null = null;
    for (const guard of activeGuards(input.process)) {
      if (!runsAt(guard.trigger, 'command')) continue;
      const outcome = await this.runOne(guard, input, 0, { command });
      if (outcome.scratch) scratch = withGuardScratch(scratch, guard.key, outcome.scratch);
      if (outcome.failed) refusal = `The command guard '${guard.label}' could not run, so the command is refused: ${outcome.failed}`;
      else if (outcome.denied !== null) refusal = `The command guard '${guard.label}' refused it: ${outcome.denied}`;
      if (refusal !== null) break;
    }
    const process = await this.save(input.process, Object.keys(scratch).length > 0 ? { scratch } : {});
    return { refusal, process };
  }

  /** The guard's follow-up prompt or refusal (null: none), and why it failed (fail-open at the yield points). */
  private async runOne(
    guard: ActiveGuard, input: GuardRunInput, round: number,
    { command, atCap = false, fired = null }: { command?: GuardCommandInfo; atCap?: boolean; fired?: string | null },
  ): Promise<{ continueWith: string | null; denied: string | null; failed: string | null; scratch: GuardScratch | null }> {
    const started = Date.now();
    let continueWith: string | null = null;
    let denied: string | null = null;
    // The guard writes on copies; a guard that fails leaves its scratch as it was.
    const mine = input.process.guardScratch[guard.key] ?? EMPTY_SCRATCH;
    const drafts = { loop: new ScratchDraft('loop', mine.loop), session: new ScratchDraft('session', mine.session) };
    try {
      const source = await this.source(guard, input);
      await this.deps.runner.run({
        source, filename: guard.script.kind === 'PATH' ? guard.script.path : `${guard.label}.js`, mode: 'FUNCTION_BODY',
        timeoutMs: this.deps.timeoutMs ?? 120_000, cpuTimeoutMs: this.deps.cpuTimeoutMs,
        bindings: this.bindings(guard, input, round, fired, drafts, atCap || fired !== null ? null : (prompt) => {
          continueWith ??= prompt;
        }, command ? { info: command, deny: (reason) => { denied ??= reason; } } : undefined),
      });
      await input.emit('GuardRan', {
        guard: guard.label, point: input.point, round: round + (continueWith !== null && countsRounds(input.point) ? 1 : 0), continued: continueWith !== null,
        ...(command ? { command: command.text, denied } : {}),
        ...(atCap ? { capped: `Round cap reached (${round} of ${guard.maxRounds} since the last user message): continueWith queues nothing.` } : {}),
        ms: Date.now() - started,
      });
      const changed = drafts.loop.dirty || drafts.session.dirty;
      return { continueWith, denied, failed: null, scratch: changed ? { loop: drafts.loop.toJSON(), session: drafts.session.toJSON() } : null };
    } catch (error) {
      const kind = error instanceof ScriptError ? error.kind : error instanceof GuardSourceError ? 'MISSING' : 'HOST';
      const message = error instanceof Error ? error.message : String(error);
      // Only the command point fails closed: there a guard that cannot run refuses the command.
      const failOpen = command === undefined;
      await input.emit('GuardRan', { guard: guard.label, point: input.point, failed: { kind, message }, failOpen, ...(command ? { command: command.text } : {}), ms: Date.now() - started }).catch(() => undefined);
      this.deps.onError?.(error, `guard '${guard.label}' of process ${input.process.id} (${failOpen ? 'fail-open' : 'fail-closed'})`);
      return { continueWith: null, denied: null, failed: `${kind}: ${message}`, scratch: null };
    }
  }

  /** The guard's source; a GuardSourceError when there is none to read (MISSING). */
  private async source(guard: ActiveGuard, input: GuardRunInput): Promise<string> {
    if (guard.script.kind === 'INLINE') return guard.script.body;
    const { project, path } = splitGuardScriptPath(guard.script.path);
    if (project === null) {
      const found = await this.deps.documents.lookup(input.scope, path);
      if (!found) throw new GuardSourceError(`the guard script '${guard.label}' does not exist in this project`);
      return found.content;
    }
    // Another project, with the owner's rights (the process's, whoever installed it): a project the
    // owner may not read reads as one without the script — the same message, no oracle.
    const found = this.deps.documents.lookupIn ? await this.deps.documents.lookupIn(input.process, project, path) : null;
    if (!found) throw new GuardSourceError(`the guard script '${path}' does not exist in project '${project}' (or the process's owner may not read it)`);
    return found.content;
  }

  private bindings(
    guard: ActiveGuard, input: GuardRunInput, round: number, fired: string | null, drafts: { loop: ScratchDraft; session: ScratchDraft }, onContinue: ((prompt: string) => void) | null,
    command?: { readonly info: GuardCommandInfo; readonly deny: (reason: string) => void },
  ): BindingTree {
    const logs = new LogLimiter();
    const base: Record<string, BindingTree[string]> = {
      params: guard.params as JsonValue,
      guard: {
        ...(command ? {
          command: { ...command.info } as JsonValue,
          deny: (reason) => {
            if (typeof reason !== 'string' || reason.trim() === '') throw new Error('vance.guard.deny(reason): reason must be a non-empty string');
            command.deny(reason.length > MAX_PROMPT_CHARS ? `${reason.slice(0, MAX_PROMPT_CHARS)}…` : reason);
            return null;
          },
        } : {}),
        task: input.task,
        output: input.output,
        point: input.point,
        round,
        maxRounds: guard.maxRounds,
        fired,
        ...(input.activateSkill ? { activateSkill: externalWait(async (name) => {
          if (typeof name !== 'string' || name.trim() === '') throw new Error('vance.guard.activateSkill(name): name must be a non-empty string');
          return input.activateSkill!(name.trim());
        }) } : {}),
        naturalStop: input.naturalStop ?? null,
        loop: scratchBindings(drafts.loop),
        session: scratchBindings(drafts.session),
        // Returns whether the follow-up was queued: false at the round cap, after another guard fired, at command dispatch.
        continueWith: (prompt) => {
          if (typeof prompt !== 'string' || prompt.trim() === '') throw new Error('vance.guard.continueWith(prompt): prompt must be a non-empty string');
          if (prompt.length > MAX_PROMPT_CHARS) throw new Error(`vance.guard.continueWith: the prompt may hold at most ${MAX_PROMPT_CHARS} characters`);
          // At command dispatch there is no engine to continue: a command guard denies or lets through.
          if (command || !onContinue) return false;
          onContinue(prompt);
          return true;
        },
      },
      llm: {
        // A wait for the judge's model call: the wall clock bounds it, not the compute limit.
        callForJson: externalWait((recipe, instruction, data) => this.deps.llm.callForJson({
          principal: input.principal, scope: input.scope, recipe: recipe as string, instruction: instruction as string, data,
        })),
      },
      log: async (level, message) => {
        const line = logs.admit(level, message);
        if (line) await input.emit('ScriptLog', { source: `guard ${guard.label}`, level: line.level, message: line.message });
        return null;
      },
      context: () => scriptContext(input.process, { turnId: input.tools?.turn?.turnId ?? null, guard: { label: guard.label, point: input.point, round } }),
    };
    // allowTools: false is the supervisor surface (no process tools); true adds vance.tool and vance.workspace.
    if (guard.allowTools && input.tools) {
      const brain = brainBindings(`guard ${guard.label}`, input.tools, null, { workspace: this.deps.workspace });
      base.tool = brain.tool;
      base.workspace = brain.workspace;
    }
    return base;
  }
}

class GuardSourceError extends Error {}

/** `get(key)`, `set(key, value)` (null removes), `keys()`, `clear()` on one scratch draft. */
function scratchBindings(draft: ScratchDraft): BindingTree {
  return {
    get: (key) => draft.get(key) as JsonValue,
    set: (key, value) => draft.set(key, value),
    keys: () => draft.keys(),
    clear: () => draft.clear(),
  };
}
