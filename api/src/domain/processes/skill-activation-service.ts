import type { CascadeScope } from '../cascade/scope';
import { DomainError } from '../errors';
import type { Principal } from '../identity/principal';
import { isUserInvocable } from '../skills/invocation-policy';
import type { Skill } from '../skills/skill';
import type { ResolvedSkill, SkillResolver } from '../skills/skill-resolver';
import type { PendingMessage, Process } from './process';
import type { ProcessEvent } from './process-event';
import { checkMessageLength, type ProcessService } from './process-service';
import { isOwner, markPrivate, OwnerOnlyTurnError, patchWithinView, processView } from './owner-view';
import { ActivationCommandFailedError, ProcessNotActiveError } from './errors';
import { eachTrigger, previewTriggers, type TriggerHook, type TurnInput, type TurnMessage } from './pre-turn-triggers';
import { parseSkillCommand } from './skill-command';
import type { ActivationOrigin, SkillSteer, StepGate, StepOptions } from './skill-steer';

export interface ActivationResult {
  readonly process: Process;
  readonly outcome: 'ACTIVATED' | 'UPDATED' | 'FIRED' | 'SPAWNED';
  readonly reason: string;
  /** What it did, one sentence (a re-activation names what changed); a `/skill` line's answer. */
  readonly summary: string;
  readonly child: Process | null;
}

export interface ClearResult {
  readonly process: Process;
  readonly cleared: readonly string[];
  readonly kept: readonly string[];
}

export interface SkillListing {
  readonly skill: ResolvedSkill;
  readonly active: boolean;
}

export type SkillCommandResult =
  | { readonly kind: 'ACTIVATE'; readonly activation: ActivationResult; readonly message: string }
  | { readonly kind: 'CLEAR'; readonly clear: ClearResult; readonly message: string }
  | { readonly kind: 'LIST'; readonly process: Process; readonly skills: readonly SkillListing[]; readonly message: string };

export type { TriggerHook } from './pre-turn-triggers';

/**
 * The `command` guards at dispatch (seed 004 §1: able to deny, fail-closed): a gate for the engine
 * commands of one steering request, run before each step. `principal` is who acts (null: the
 * process's own clean-up after a turn: its owner acts).
 */
export interface CommandGateInput {
  readonly principal: Principal | null;
  readonly process: Process;
  readonly scope: CascadeScope;
}
export type CommandGateFactory = (input: CommandGateInput) => StepGate | undefined;

/**
 * Steering a process's skills (seed 000 §4, §6, §7): every operation runs on the process lane, plans
 * with SkillSteer, writes atomically, queues messages, and reports refusals as events too. Each
 * request sees the caller's view of the process (owner-view.ts, seed 000 §14): someone other than
 * the owner steers without the owner's USER layer and may not start a turn.
 */
export class SkillActivationService {
  constructor(private readonly deps: {
    readonly processes: ProcessService;
    readonly steer: SkillSteer;
    readonly skills: SkillResolver;
    readonly triggers?: TriggerHook;
    readonly commandGate?: CommandGateFactory;
  }) {}

  activate(principal: Principal, processId: string, name: string, args: string | null, once: boolean, via = `activateSkill ${name}`): Promise<ActivationResult> {
    return this.deps.processes.onLane(principal, processId, (process) =>
      this.activateOnLane(principal, process, name, args, once, { kind: 'EXPLICIT', via }));
  }

  clear(principal: Principal, processId: string, name: string | null, via = name ? `clearSkills ${name}` : 'clearSkills'): Promise<ClearResult> {
    const { processes } = this.deps;
    return processes.onLane(principal, processId, async (process) => {
      const scope = await processes.scopeFor(principal, process);
      // A non-owner clears only what it may see: the owner's private skills stay, unmentioned.
      const plan = await this.refusing(principal, process, scope, name ?? '*', () =>
        this.deps.steer.planClear(processView(principal, process), scope, name, principal.user.login, `Explicit: ${via}.`, this.steps(principal, process, scope)));
      const updated = await processes.deps.store.update(process.tenantId, process.id, patchWithinView(principal, plan.patch), plan.events);
      return { process: updated, cleared: plan.cleared, kept: plan.kept };
    });
  }

  /**
   * The one-shot clean-up after a turn (seed 000 §2a, §5d): `--once` and trigger activations are
   * cleared, their `deactivate:` steps run best-effort. Called on the lane by the turn runner.
   */
  async afterTurn(process: Process): Promise<ClearResult> {
    const { processes } = this.deps;
    const oneShots = process.activeSkills.filter((r) => r.oneShot).map((r) => r.name);
    if (oneShots.length === 0) return { process, cleared: [], kept: [] };
    const scope = await processes.scopeOf(process);
    let current = process;
    const cleared: string[] = [];
    for (const name of oneShots) {
      const plan = await this.deps.steer.planClear(current, scope, name, '_turn', 'One-shot: cleared after the turn.', this.steps(null, current, scope));
      current = await processes.deps.store.update(current.tenantId, current.id, plan.patch, plan.events);
      cleared.push(...plan.cleared);
    }
    return { process: current, cleared, kept: [] };
  }

  /**
   * A turn that failed or was interrupted runs again with its input (issue 14): the one-shot skills
   * it activated itself (its pre-turn hook's triggers, activated at or after `since`, the turn's
   * start) are cleared, so that the retry's hook activates them again (with their `activate:`
   * steps and events). One-shots activated before
   * the turn (`--once`) stay for the retry. On the lane, by the turn runner. (An activation's time is
   * this instance's clock, the turn's start the database's: one machine's, or kept in step by NTP.)
   */
  async afterFailedTurn(process: Process, since: Date): Promise<Process> {
    const own = process.activeSkills.filter((r) => r.oneShot && !r.fromRecipe && Date.parse(r.activatedAt) >= since.getTime()).map((r) => r.name);
    if (own.length === 0) return process;
    const scope = await this.deps.processes.scopeOf(process);
    let current = process;
    for (const name of own) {
      const plan = await this.deps.steer.planClear(current, scope, name, '_turn', 'The turn that activated it failed: its retry activates it again.', this.steps(null, current, scope));
      current = await this.deps.processes.deps.store.update(current.tenantId, current.id, plan.patch, plan.events);
    }
    return current;
  }

  /** A `/skill …` line (seed 000 §6); anything else is BAD_USER_INPUT. */
  async command(principal: Principal, processId: string, line: string): Promise<SkillCommandResult> {
    const command = parseSkillCommand(line);
    const via = line.trim().split('\n')[0]!;
    switch (command.kind) {
      case 'ACTIVATE': {
        const activation = await this.activate(principal, processId, command.skill, command.args, command.once, via);
        return { kind: 'ACTIVATE', activation, message: activation.summary };
      }
      case 'CLEAR':
      case 'CLEAR_ALL': {
        const clear = await this.clear(principal, processId, command.kind === 'CLEAR' ? command.skill : null, via);
        const message = clear.cleared.length > 0 ? `Cleared ${clear.cleared.join(', ')}.` : 'Nothing to clear.';
        return { kind: 'CLEAR', clear, message: clear.kept.length > 0 ? `${message} Kept (locked recipe): ${clear.kept.join(', ')}.` : message };
      }
      case 'LIST': {
        const process = await this.deps.processes.get(principal, processId);
        const skills = await this.listFor(principal, process);
        return { kind: 'LIST', process, skills, message: `${skills.length} skills, ${skills.filter((s) => s.active).length} active.` };
      }
      default: {
        const never: never = command;
        return never;
      }
    }
  }

  /** Names a person may activate here: usable, user-invocable, allowed by the recipe (seed 000 §6c). */
  async completions(principal: Principal, processId: string, prefix: string): Promise<string[]> {
    const process = await this.deps.processes.get(principal, processId);
    const skills = await this.listFor(principal, process);
    return skills.map((s) => s.skill.name).filter((n) => n.startsWith(prefix)).sort();
  }

  /**
   * Stores the user message and requests its turn, in one statement, beside a running turn (issue
   * 14: it waited on the lane behind it, 20 s while the turn waited on a client tool). The owner's
   * alone (owner-view.ts, rule 2). Its auto-triggers run in the turn that takes it (beforeTurn).
   */
  async sendMessage(principal: Principal, processId: string, text: string): Promise<PendingMessage> {
    const { processes } = this.deps;
    // First: a refusal must change nothing, and nothing should read an over-long text (issue 13).
    checkMessageLength(text);
    const message = [{ sender: 'USER' as const, senderName: principal.user.login, content: text }];
    // The usual case in one statement; a refusal reads the process to say why (or queues after all,
    // when it became IDLE since).
    const direct = await processes.queueAsOwner(principal, processId, message, 'User message.');
    if (direct) return direct.queued[0]!;
    const process = await processes.get(principal, processId);
    if (process.status !== 'IDLE') throw new ProcessNotActiveError(process.name, process.status);
    if (!isOwner(principal, process)) throw new OwnerOnlyTurnError(process.name, 'a message');
    const { queued } = await processes.queue(process, message, 'User message.');
    return queued[0]!;
  }

  /**
   * The pre-turn hook (seed 000 §4a, DESIGN §1), called by the turn runner on the process lane right
   * after the turn took its input and before it composes: each taken USER message's auto-triggers,
   * in order, activated one-shot as the turn's owner (`principal`), so the skills are on for exactly
   * this turn and afterTurn clears them. Here, not in sendMessage: an activation beside a running turn
   * would be cleared by that turn's clean-up, and waiting on the lane for it kept sendMessage behind a
   * turn for as long as it ran (issue 14). A refusal is a SKILL_REFUSED event and the turn goes on
   * (seed 000 §4a); what an activation queues (its `action:`, a shot skill's body, a command guard's
   * follow-up) joins this turn's input through `addInput`, as it joined the message's turn before.
   */
  async beforeTurn(principal: Principal, process: Process, taken: readonly TurnMessage[], addInput: TurnInput): Promise<Process> {
    return eachTrigger(this.deps.triggers, () => this.deps.processes.scopeOf(process), process, taken, async (current, match) => {
      try {
        return (await this.activateOnLane(principal, current, match.skill, null, true, { kind: 'TRIGGER', reason: match.reason }, addInput)).process;
      } catch (err) {
        // A refusal was reported as SKILL_REFUSED; anything else (a lost lease, the database) fails the turn.
        if (err instanceof DomainError) return current;
        throw err;
      }
    });
  }

  /**
   * A start guard's `vance.guard.activateSkill(name)` (seed 004 §1): the skill one-shot for the turn
   * that is starting, on its lane, as a trigger's activation is (its action joins the turn's input).
   * Returns the process after it, or null when it was refused (a SKILL_REFUSED event says why).
   */
  async activateForTurn(principal: Principal, process: Process, name: string, addInput: TurnInput): Promise<Process | null> {
    try {
      return (await this.activateOnLane(principal, process, name, null, true, { kind: 'TRIGGER', reason: 'Activated by a start guard for this turn.' }, addInput)).process;
    } catch (err) {
      if (err instanceof DomainError) return null;
      throw err;
    }
  }

  /** What beforeTurn would activate for the inbox, on a copy of the process (composeTurnPreview; pre-turn-triggers.ts). */
  async previewBeforeTurn(process: Process, pending: readonly TurnMessage[]): Promise<Process> {
    return previewTriggers(this.deps.steer, this.deps.triggers, () => this.deps.processes.scopeOf(process), process, pending);
  }

  private async listFor(principal: Principal, process: Process): Promise<SkillListing[]> {
    const scope = await this.deps.processes.scopeFor(principal, process);
    const active = new Set(processView(principal, process).activeSkills.map((r) => r.name));
    const allowed = process.allowedSkillsOverride;
    return (await this.deps.skills.listAvailable(scope))
      .filter((s) => isUserInvocable(s.skill) && (allowed === null || allowed.includes(s.name)))
      .map((skill) => ({ skill, active: active.has(skill.name) }));
  }

  /** `into`: the running turn's input takes what the activation queues (beforeTurn); without it, the inbox does. */
  private async activateOnLane(principal: Principal, process: Process, name: string, args: string | null, once: boolean, origin: ActivationOrigin, into?: TurnInput): Promise<ActivationResult> {
    const { processes } = this.deps;
    const scope = await processes.scopeFor(principal, process);
    const plan = await this.refusing(principal, process, scope, name, async () => {
      const planned = await this.deps.steer.planActivation(processView(principal, process), scope, { name, args, once, origin, actor: principal.user.login }, this.steps(principal, process, scope));
      // Rule 2 (owner-view.ts): decided before anything is written.
      if (!isOwner(principal, process) && (planned.kind === 'SPAWN' || planned.messages.length > 0)) {
        throw new OwnerOnlyTurnError(process.name, planned.kind === 'SPAWN' ? `skill '${name}' (run: spawn)` : `skill '${name}' (it queues a message)`);
      }
      return planned;
    });
    const isPrivate = plan.source === 'USER';
    if (plan.kind === 'SPAWN') {
      const child = await this.spawnChild(principal, process, plan.skill, plan.args, isPrivate);
      return { process, outcome: 'SPAWNED', reason: plan.reason, summary: `${plan.skill.name} runs in a new worker, '${child.name}'.`, child };
    }
    // The change and its events in one transaction (issue 14).
    const fired: ProcessEvent[] = plan.kind === 'FIRED'
      ? [{ type: 'SKILL_ACTIVATED', skill: name, oneShot: true, fromRecipe: false, args: plan.args, reason: `${plan.reason} Fired once (lifecycle: shot).` }] : [];
    const updated = await processes.deps.store.update(process.tenantId, process.id, patchWithinView(principal, plan.patch), markPrivate([...plan.events, ...fired], isPrivate));
    if (into) {
      const messages = plan.messages;
      // The inbox's limit holds for the turn's input too (a rendered action may be longer).
      for (const message of messages) checkMessageLength(message.content);
      for (const message of messages) await into(message);
      return { process: updated, outcome: plan.kind, reason: plan.reason, summary: plan.summary, child: null };
    }
    const after = await processes.queue(updated, plan.messages, `Skill '${name}' queued a turn.`, { private: isPrivate });
    return { process: after.process, outcome: plan.kind, reason: plan.reason, summary: plan.summary, child: null };
  }

  /** The steps of a request run through the command guards, as `principal` (null: the process's owner) for what it may read. */
  private steps(principal: Principal | null, process: Process, scope: CascadeScope): StepOptions {
    const { processes } = this.deps;
    return {
      gate: this.deps.commandGate?.({ principal, process, scope }),
      canReadProject: async (name) => processes.canReadProject(principal ?? await processes.deps.identity.principalOfUser(process.tenantId, process.userId), name),
    };
  }

  /**
   * seed 000 §2c: a fresh worker from `run.recipe`, named `<skill>-<n>`, with the skill sticky and the
   * action as its first message; the caller keeps nothing. A failed activation abandons the child.
   */
  private async spawnChild(principal: Principal, parent: Process, spawned: Skill, args: string | null, isPrivate: boolean): Promise<Process> {
    const { processes } = this.deps;
    const skill = spawned.name;
    const recipe = spawned.run.target === 'spawn' ? spawned.run.recipe : '';
    const session = await processes.deps.store.findSession(parent.tenantId, parent.sessionId);
    const project = await processes.deps.identity.findProjectById(principal, parent.projectId);
    // One above the highest suffix in the session (not the first gap: a gap is a worker that was).
    let index = nextSuffix(skill, await processes.deps.store.processNames(parent.tenantId, parent.sessionId, `${skill}-`));
    const first = index;
    let child: Process | null = null;
    while (!child) {
      try {
        child = await processes.spawn(principal, { project: project.name, session: session?.name ?? null, name: `${skill}-${index}`, recipe, profile: parent.connectionProfile, parentProcessId: parent.id, title: spawned.title ?? skill });
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'NAME_TAKEN') || index - first >= 1000) throw err;
        index++; // a concurrent spawn took it: retry with the next index
      }
    }
    const worker = child;
    try {
      await processes.deps.lane.run(worker.id, () => this.activateOnLane(principal, worker, skill, args, false, { kind: 'CHILD', parentName: parent.name }));
    } catch (err) {
      await processes.deps.store.update(worker.tenantId, worker.id, () => ({ status: 'ABANDONED' }));
      throw err;
    }
    await processes.deps.events.emit(parent, ...markPrivate([{ type: 'CHILD_SPAWNED', childId: worker.id, childName: worker.name, skill }], isPrivate));
    return (await processes.deps.store.findProcess(worker.tenantId, worker.id)) ?? worker;
  }

  /**
   * Runs a planner; a refusal is reported as a SKILL_REFUSED event with its reason, then rethrown. A
   * refusal about a skill of the owner's USER layer (seen only in the owner's own view) is private.
   */
  private async refusing<T>(principal: Principal, process: Process, scope: CascadeScope, skill: string, plan: () => Promise<T>): Promise<T> {
    try {
      return await plan();
    } catch (err) {
      if (err instanceof DomainError) {
        const source = scope.userProjectId !== null && skill !== '*' ? (await this.deps.skills.inspect(scope, skill).catch(() => null))?.source : undefined;
        // A failed activate: step is reported as its COMMAND_FAILED event before the refusal.
        const step = err instanceof ActivationCommandFailedError ? [err.event] : [];
        await this.deps.processes.deps.events.emit(process, ...markPrivate([...step, { type: 'SKILL_REFUSED', skill, code: err.code, reason: err.message }], source === 'USER'));
      }
      throw err;
    }
  }
}

/** `<skill>-<n>`: n one above the highest numeric suffix among `names` (seed 000 §2c). */
export function nextSuffix(skill: string, names: readonly string[]): number {
  const prefix = `${skill}-`;
  let highest = 0;
  for (const name of names) {
    const suffix = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    if (/^[0-9]{1,9}$/.test(suffix)) highest = Math.max(highest, Number(suffix));
  }
  return highest + 1;
}
