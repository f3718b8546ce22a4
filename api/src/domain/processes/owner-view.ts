/**
 * The USER layer is private on every path, including another user's actions on its owner's process
 * (seed 000 §14: USER is readable and writable by its owner only; DESIGN §6). Project admins and
 * tenant admins may see a process and steer its skills (process-access.ts); this module says what
 * they get when they do — the rules, decided in issue 13 part 7:
 *
 * 1. **The caller's view.** A request's cascade is what the *caller* may read. For the owner that is
 *    the owner's scope; for anyone else the same scope without a USER layer — seed 000 §3's "step 1
 *    is skipped" — not the caller's own USER layer either (the process resolves skills as its owner
 *    at every turn, so a private skill of the admin would only dangle there). So `skillCompletions`,
 *    `/skill list`, `/skill <name>`, `activateSkill` and `clearSkills` by a non-owner never see the
 *    owner's private skills: a private skill is NOT_FOUND with the same message and event as a
 *    missing one (the authorization step of seed 000 §6b decides *which cascade*, not only whether).
 * 2. **Only the owner starts turns.** A turn runs as its owner — the owner's USER layer in the
 *    cascade, tools with the owner's identity (manual_read, skill_reference_doc, recipe_describe,
 *    process_spawn) — and its transcript is read by everyone who oversees the process. A turn started
 *    by someone else would hand them the owner's private layer; one without it would not be the
 *    owner's process any more (its recipe may itself come from the USER layer). So `sendMessage`,
 *    `regenerateTurn` and any steering by a non-owner that would queue a message (an `action:`, a
 *    shot skill, a rest-of-line message, a `run: spawn` worker, a command guard's follow-up) are
 *    refused with FORBIDDEN / OWNER_ONLY_TURN before anything changes, or (command guards) not run.
 * 3. **What the process records of the USER layer is the owner's.** Active skills resolved from it,
 *    the prompt texts and guards of a recipe from it, events about them, the verdicts, catalog and
 *    tools a turn took from it (turns/prompt-visibility.ts) are withheld from others. The transcript
 *    itself — messages, tool calls and results, streamed text of the owner's turns — is the process's
 *    record, read by its overseers as it was said; the rules above keep anyone else from adding to it.
 */
import type { CascadeScope } from '../cascade/scope';
import { ForbiddenError } from '../errors';
import type { Principal } from '../identity/principal';
import type { ActiveSkillRef, Process } from './process';
import type { ProcessEvent } from './process-event';
import type { ProcessPatch } from './process-store';

export function isOwner(principal: Principal, process: Pick<Process, 'userId' | 'tenantId'>): boolean {
  return principal.user.id === process.userId && principal.tenant.id === process.tenantId;
}

/** Rule 1: the owner's scope for the owner, without the USER layer for anyone else. */
export function viewerScope(principal: Principal, process: Process, ownerScope: CascadeScope): CascadeScope {
  return isOwner(principal, process) ? ownerScope : { ...ownerScope, userProjectId: null };
}

/** An active skill the USER layer put there: resolved from it, or named by a recipe from it. */
export function isPrivateRef(process: Pick<Process, 'recipeSource'>, ref: ActiveSkillRef): boolean {
  return ref.resolvedFromScope === 'USER' || (ref.fromRecipe && process.recipeSource === 'USER');
}

/**
 * Rule 3: the process as `principal` may see it. For a non-owner: private active skills left out,
 * and a USER recipe's texts (prompt template, profile append, relay correction, guards) withheld;
 * its shape (params, tool lists, allowed skills) stays, as the preview keeps a section's length.
 */
export function processView(principal: Principal, process: Process): Process {
  if (isOwner(principal, process)) return process;
  const activeSkills = process.activeSkills.filter((r) => !isPrivateRef(process, r));
  const privateRecipe = process.recipeSource === 'USER';
  if (!privateRecipe && activeSkills.length === process.activeSkills.length) return process;
  return {
    ...process,
    activeSkills,
    ...(privateRecipe ? { promptOverride: null, profileAppend: null, dataRelayCorrectionOverride: null, recipeGuards: [] } : {}),
  };
}

/**
 * A patch planned on `principal`'s view, applied to the current row: the private skills the view
 * left out stay where they are, unless the patch put a visible skill of the same name (a non-owner
 * activated the project's copy of a name the owner has active from the USER layer: the owner's turns
 * still resolve the name to the owner's copy).
 */
export function patchWithinView(principal: Principal, patch: (current: Process) => ProcessPatch | null): (current: Process) => ProcessPatch | null {
  return (current) => {
    if (isOwner(principal, current)) return patch(current);
    const result = patch(processView(principal, current));
    if (!result?.activeSkills) return result;
    const placed = new Set(result.activeSkills.map((r) => r.name));
    const visible = [...result.activeSkills];
    const merged: ActiveSkillRef[] = [];
    for (const ref of current.activeSkills) {
      if (!isPrivateRef(current, ref)) {
        const next = visible.shift();
        if (next) merged.push(next);
      } else if (!placed.has(ref.name)) {
        merged.push(ref);
      }
    }
    return { ...result, activeSkills: [...merged, ...visible] };
  };
}

/** Rule 3 for processEvents: events about the owner's USER layer reach the owner only. */
export function mayReceiveProcessEvent(principal: Principal, process: Process, event: ProcessEvent): boolean {
  return event.private !== true || isOwner(principal, process);
}

/** Rule 2. */
export class OwnerOnlyTurnError extends ForbiddenError {
  override readonly code = 'OWNER_ONLY_TURN';
  constructor(processName: string, what: string) {
    super(`Only the owner of process '${processName}' starts its turns: ${what} would start one, and a turn runs with the owner's identity and private USER layer`);
  }
}

/** Marks events as about the owner's USER layer (rule 3) when `isPrivate`. */
export function markPrivate(events: readonly ProcessEvent[], isPrivate: boolean): ProcessEvent[] {
  return isPrivate ? events.map((e) => ({ ...e, private: true })) : [...events];
}
