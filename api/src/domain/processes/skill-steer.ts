import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import { NotFoundError } from '../errors';
import { isModelInvocable, isUserInvocable } from '../skills/invocation-policy';
import type { Skill } from '../skills/skill';
import type { SkillResolver } from '../skills/skill-resolver';
import type { TemplateEngine } from '../templates/template-engine';
import { commandContextOf, parseEngineCommand, runCommandSequence, shortenCommand, type CommandDispatcher, type CommandGate, type CommandResult, type CommandSequenceMode, type EngineCommand } from './commands';
import {
  ActivationCommandFailedError, RecipeSkillLockedError, SkillDisabledError, SkillInvalidError,
  SkillNotAllowedByRecipeError, SkillNotUserInvocableError,
} from './errors';
import type { ActiveSkillRef, Process, RuntimeGuard } from './process';
import type { ProcessEvent } from './process-event';
import type { ProcessPatch } from './process-store';
import { isPrivateRef, markPrivate } from './owner-view';
import { actionRenderContext, appliedProfile } from './render-context';
import { bindSkillArguments, consumesArguments, type BoundArgs } from './skill-arguments';

/** How an activation came about: a person (/skill, the API), a trigger match, or a spawn-skill's child. */
export type ActivationOrigin =
  | { readonly kind: 'EXPLICIT'; readonly via: string }
  | { readonly kind: 'TRIGGER'; readonly reason: string }
  | { readonly kind: 'CHILD'; readonly parentName: string };

export interface ActivationRequest {
  readonly name: string;
  readonly args: string | null;
  readonly once: boolean;
  readonly origin: ActivationOrigin;
  /** Login of the person acting (message identity, guard installer). */
  readonly actor: string;
}

/** What an activation decided; the caller writes `patch` atomically, queues `messages`, emits `events`. */
export interface ActivationPlan {
  readonly kind: 'ACTIVATED' | 'UPDATED' | 'FIRED' | 'SPAWN';
  readonly skill: Skill;
  /** The layer the skill came from (USER: the plan's events are private, owner-view.ts). */
  readonly source: Layer;
  readonly reason: string;
  /** What the activation did, one sentence for the person who asked (a `/skill` line's answer). */
  readonly summary: string;
  /** Applied to the *current* row under its lock (activeSkills computed from it, not from a stale read). */
  readonly patch: (current: Process) => ProcessPatch | null;
  readonly messages: readonly { readonly sender: 'USER' | 'SKILL'; readonly senderName: string; readonly content: string }[];
  readonly events: readonly ProcessEvent[];
  /** SPAWN: the arguments the child's activation binds; FIRED: the arguments the skill consumed (null: none). */
  readonly args: string | null;
}

export interface ClearPlan {
  readonly cleared: readonly string[];
  readonly kept: readonly string[];
  readonly patch: (current: Process) => ProcessPatch | null;
  readonly events: readonly ProcessEvent[];
}

/**
 * The activation rules (seed 000 §2a–§2c, §4c, §7, seed 002) as a planner over one process read on
 * its lane. Refusals throw typed errors before anything runs (missing arguments, whitelist, policy,
 * a failing `activate:` step); nothing is written by the planner itself.
 */
export class SkillSteer {
  constructor(private readonly deps: { readonly skills: SkillResolver; readonly templates: TemplateEngine; readonly commands: CommandDispatcher }) {}

  async planActivation(process: Process, scope: CascadeScope, request: ActivationRequest, steps: StepOptions = {}): Promise<ActivationPlan> {
    const { name, origin } = request;
    const { skill, source } = await this.usableSkill(scope, name);
    const recipe = process.recipeName ?? process.engine;
    if (process.allowedSkillsOverride !== null && !process.allowedSkillsOverride.includes(name)) throw new SkillNotAllowedByRecipeError(name, recipe);
    if (origin.kind === 'EXPLICIT' && !isUserInvocable(skill)) throw new SkillNotUserInvocableError(name);
    if (origin.kind === 'TRIGGER' && !isModelInvocable(skill)) throw new SkillNotUserInvocableError(name);
    // Missing or mistyped arguments refuse the activation before any activate: step runs (seed 000 §2b).
    const consumes = consumesArguments(skill.arguments);
    const bound = bindSkillArguments(skill, request.args).args;
    // The rest of the line belongs to exactly one side (seed 000 §2b): the skill's args, or the chat.
    const args = consumes ? request.args : null;
    const reason = reasonOf(origin, name);
    const userMessage = !consumes && request.args ? [{ sender: 'USER' as const, senderName: request.actor, content: request.args }] : [];
    const sentNote = userMessage.length > 0 ? ' The rest of the line was sent as your message.' : '';

    const existing = process.activeSkills.find((r) => r.name === name);
    if (existing && skill.lifecycle === 'sticky') {
      const update = this.update(skill, existing, request, args, reason, userMessage);
      return { ...update, source, summary: `${update.summary}${sentNote}` };
    }
    if (skill.run.target === 'spawn' && origin.kind === 'EXPLICIT') {
      // seed 000 §2c: the caller keeps nothing; the child gets the skill and the action.
      return { kind: 'SPAWN', skill, source, reason, summary: `${name} runs in a new worker.`, patch: () => null, messages: [], events: [], args };
    }

    // A trigger match never starts a turn of its own (seed 000 §2a: "upon fresh explicit activation";
    // §2c: only the explicit path spawns): the skill colours the turn its message starts.
    const turnPrompt = origin.kind === 'TRIGGER' ? null : await this.turnPrompt(process, skill, bound);
    const context = commandContextOf(process, request.actor, steps.canReadProject);
    const sequence = await runCommandSequence(this.deps.commands, skill.activate, context, 'ACTIVATE', stepGate(steps.gate, name, 'activate'));
    const commandEvents = sequence.results.map(commandEvent(name, 'ACTIVATE'));
    const failedAt = sequence.results.findIndex((r) => !r.ok);
    const failed = sequence.results[failedAt];
    if (failed && !failed.ok) throw new ActivationCommandFailedError(name, failedAt, skill.activate.length, failed.command, failed.error, commandEvents[failedAt]!);
    const guards = sequence.patch.guards;
    const messages = [...(turnPrompt ? [{ sender: 'SKILL' as const, senderName: request.actor, content: turnPrompt }] : []), ...userMessage];
    if (skill.lifecycle === 'shot') {
      // Never registers (seed 000 §2a): commands, then the action or the body as the turn prompt.
      return {
        kind: 'FIRED', skill, source, reason, summary: `${name} fired once (lifecycle: shot).${sentNote}`, args, messages, events: commandEvents,
        patch: () => (guards ? { guards } : null),
      };
    }
    const ref: ActiveSkillRef = {
      name, resolvedFromScope: source, oneShot: request.once || origin.kind === 'TRIGGER', fromRecipe: false,
      activatedAt: new Date().toISOString(), args, reason,
    };
    return {
      kind: 'ACTIVATED', skill, source, reason, summary: `${name} is active (${lifespan(ref.oneShot)}).${sentNote}`, args: null, messages,
      events: [...commandEvents, { type: 'SKILL_ACTIVATED', skill: name, oneShot: ref.oneShot, fromRecipe: false, args: ref.args, reason }],
      patch: (current) => ({
        activeSkills: current.activeSkills.some((r) => r.name === name) ? current.activeSkills : [...current.activeSkills, ref],
        ...(guards ? { guards } : {}),
        // A spawn skill's worker: its action is its goal (seed 000 §2c), written with the activation.
        ...(origin.kind === 'CHILD' && turnPrompt ? { goal: turnPrompt } : {}),
      }),
    };
  }

  /**
   * seed 000 §4b/§7c/§2a: named or all; a locked recipe's skills stay; deactivate: is best-effort.
   * Events about a skill of the owner's USER layer are private (owner-view.ts); a non-owner passes
   * its view of the process, so it neither clears nor hears of those.
   */
  async planClear(process: Process, scope: CascadeScope, name: string | null, actor: string, reason: string, steps: StepOptions = {}): Promise<ClearPlan> {
    const targets = name ? process.activeSkills.filter((r) => r.name === name) : process.activeSkills;
    const recipe = process.recipeName ?? process.engine;
    const locked = process.locked ? targets.filter((r) => r.fromRecipe) : [];
    if (name && locked.length > 0) throw new RecipeSkillLockedError(name, recipe);
    const clearing = targets.filter((r) => !locked.includes(r));
    const events: ProcessEvent[] = [];
    let guards: readonly RuntimeGuard[] = process.guards;
    let guardsChanged = false;
    for (const ref of clearing) {
      const resolved = await this.deps.skills.inspect(scope, ref.name).catch(() => null);
      const deactivate = resolved?.skill?.lifecycle === 'sticky' ? resolved.skill.deactivate : [];
      const sequence = await runCommandSequence(this.deps.commands, deactivate, { ...commandContextOf(process, actor, steps.canReadProject), guards }, 'DEACTIVATE', stepGate(steps.gate, ref.name, 'deactivate'));
      if (sequence.patch.guards) {
        guards = sequence.patch.guards;
        guardsChanged = true;
      }
      const own: ProcessEvent[] = [...sequence.results.map(commandEvent(ref.name, 'DEACTIVATE')), { type: 'SKILL_CLEARED', skill: ref.name, reason }];
      events.push(...markPrivate(own, isPrivateRef(process, ref) || resolved?.source === 'USER'));
    }
    for (const ref of locked) {
      events.push(...markPrivate([{ type: 'SKILL_REFUSED', skill: ref.name, code: 'RECIPE_SKILL_LOCKED', reason: `Kept: recipe '${recipe}' is locked.` }], isPrivateRef(process, ref)));
    }
    const names = new Set(clearing.map((r) => r.name));
    return {
      cleared: [...names], kept: locked.map((r) => r.name), events,
      patch: (current) => (names.size === 0 && !guardsChanged ? null : {
        activeSkills: current.activeSkills.filter((r) => !names.has(r.name)),
        ...(guardsChanged ? { guards } : {}),
      }),
    };
  }

  private async usableSkill(scope: CascadeScope, name: string): Promise<{ skill: Skill; source: Layer }> {
    const resolved = await this.deps.skills.inspect(scope, name);
    if (!resolved) throw new NotFoundError('Skill', name);
    if (resolved.status === 'INVALID') throw new SkillInvalidError(name, resolved.diagnostics);
    if (resolved.status === 'DISABLED') throw new SkillDisabledError(name);
    return { skill: resolved.skill, source: resolved.source };
  }

  /**
   * Idempotent re-activation: a parameter update, no action again (seed 000 §2a, §2b). The lifespan
   * follows the person's latest word: `--once` turns their sticky activation one-shot, a plain
   * `/skill` turns a one-shot one sticky; a recipe's skill stays sticky ("recipe author intent wins",
   * seed 000 §7d). A trigger never changes an activation. The summary says what changed (issue 15).
   */
  private update(skill: Skill, existing: ActiveSkillRef, request: ActivationRequest, consumed: string | null, reason: string, messages: ActivationPlan['messages']): Omit<ActivationPlan, 'source'> {
    const explicit = request.origin.kind === 'EXPLICIT';
    const oneShot = !explicit || existing.fromRecipe ? existing.oneShot : request.once;
    const args = consumesArguments(skill.arguments) ? consumed ?? existing.args : null;
    const updatedReason = explicit && !existing.fromRecipe ? reason : existing.reason;
    const summary = updateSummary(skill.name, existing, oneShot, args, request.once);
    return {
      kind: 'UPDATED', skill, reason: `${reason} ${summary}`, summary, args: null, messages,
      events: [{ type: 'SKILL_ACTIVATED', skill: skill.name, oneShot, fromRecipe: existing.fromRecipe, args, reason: `${reason} ${summary}` }],
      patch: (current) => ({
        activeSkills: current.activeSkills.map((r) => (r.name === skill.name ? { ...r, oneShot, args, reason: updatedReason } : r)),
      }),
    };
  }

  /** seed 000 §2a: `action:` first; for shot skills the body when there is no action. Args are data. */
  private async turnPrompt(process: Process, skill: Skill, args: BoundArgs | null): Promise<string | null> {
    const source = skill.action?.trim() ? skill.action : skill.lifecycle === 'shot' && skill.promptExtension.trim() ? skill.promptExtension : null;
    if (!source) return null;
    const context = { recipe: process.recipeName ?? '', engine: process.engine, mode: process.mode, profile: appliedProfile(process), params: process.engineParams };
    const text = await this.deps.templates.render(source, actionRenderContext(context, args));
    return text.trim() ? text : null;
  }
}

/**
 * An engine command as the `command` guards see it before it runs: a step of a skill's `activate:` /
 * `deactivate:` list, or (skill and phase null) a command run directly (engineCommand).
 */
export interface CommandStep {
  readonly command: EngineCommand;
  readonly skill: string | null;
  readonly phase: 'activate' | 'deactivate' | null;
}
/** Returns a reason to refuse the step, or null to let it run. */
export type StepGate = (step: CommandStep) => Promise<string | null>;

/** How a request runs its steps: through the `command` guards, and with what the one acting may read. */
export interface StepOptions {
  readonly gate?: StepGate | undefined;
  /** Whether the one acting may read a project (`guard script //project/…`); absent: not checked. */
  readonly canReadProject?: ((name: string) => Promise<boolean>) | undefined;
}

function stepGate(gate: StepGate | undefined, skill: string, phase: 'activate' | 'deactivate'): CommandGate | undefined {
  return gate ? (command) => gate({ command, skill, phase }) : undefined;
}

function lifespan(oneShot: boolean): string {
  return oneShot ? 'one-shot for the next turn' : 'sticky';
}

const MAX_SHOWN_ARGS = 80;

/** One sentence on what a re-activation changed: "review-mode was sticky; now one-shot for the next turn." */
function updateSummary(name: string, existing: ActiveSkillRef, oneShot: boolean, args: string | null, onceAsked: boolean): string {
  const parts: string[] = [];
  if (existing.fromRecipe && onceAsked && !oneShot) parts.push(`${name} stays sticky: it is one of the recipe's skills`);
  else if (existing.oneShot !== oneShot) parts.push(`${name} was ${existing.oneShot ? 'one-shot' : 'sticky'}; now ${lifespan(oneShot)}`);
  else parts.push(`${name} is already active (${lifespan(oneShot)})`);
  const changed = existing.oneShot !== oneShot;
  if (args !== existing.args) {
    const shown = args === null ? 'none' : `'${args.length <= MAX_SHOWN_ARGS ? args : `${args.slice(0, MAX_SHOWN_ARGS)}…`}'`;
    parts.push(`its arguments are now ${shown}`);
  } else if (!changed) parts.push('unchanged');
  return `${parts.join('; ')}.`;
}

function reasonOf(origin: ActivationOrigin, name: string): string {
  switch (origin.kind) {
    case 'EXPLICIT':
      return `Explicit: ${origin.via}.`;
    case 'TRIGGER':
      return origin.reason;
    case 'CHILD':
      return `Spawned for skill '${name}' by '${origin.parentName}'.`;
    default: {
      const never: never = origin;
      return never;
    }
  }
}

/** A step's event: which skill, which phase, which step, and the command in full (issue 16). */
function commandEvent(skill: string, phase: CommandSequenceMode) {
  return (result: CommandResult, index: number): ProcessEvent => {
    const step = { command: shortenCommand(result.command), verb: result.verb, skill, phase, index, text: result.command, args: argsOf(result.command) };
    if (!result.ok) return { type: 'COMMAND_FAILED', ...step, error: result.error, code: result.code };
    // A listing that shows the owner's USER-layer guards is the owner's (owner-view.ts, rule 3).
    return { type: 'COMMAND_RAN', ...step, detail: result.detail, ...(result.private ? { private: true } : {}) };
  };
}

/** The text after the verb (the sequence parsed the same normalised text); null when it does not parse. */
function argsOf(text: string): string | null {
  try {
    return parseEngineCommand(text).rest;
  } catch {
    return null;
  }
}
