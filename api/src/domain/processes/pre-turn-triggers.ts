import type { CascadeScope } from '../cascade/scope';
import { DomainError } from '../errors';
import type { Process } from './process';
import type { NewPendingMessage } from './process-store';
import type { SkillSteer } from './skill-steer';

/**
 * The auto-triggers of a turn's input (seed 000 §4a: a pre-turn hook, DESIGN §1): which messages fire
 * them, in which order, and what the next turn's preview makes of them. The activation itself — on
 * the lane, with its events — is SkillActivationService.beforeTurn; the matching is `triggers/`.
 */

/** Which skills a message triggers, each with its reason (the matcher, triggers/trigger-hook.ts). */
export type TriggerHook = (process: Process, scope: CascadeScope, message: string) => Promise<readonly TriggeredSkill[]>;
export interface TriggeredSkill {
  readonly skill: string;
  readonly reason: string;
}

/** A message a turn takes (or, for a preview, will take): only USER messages fire triggers. */
export type TurnMessage = Pick<NewPendingMessage, 'sender' | 'content'>;

/** Adds a message to the input of the turn running on the lane (what a triggered activation queues). */
export type TurnInput = (message: NewPendingMessage) => Promise<void>;

/**
 * Each USER message's matches in order, each matched against the process as the earlier activations
 * left it (an active skill does not fire again); `activate` returns the process after one match.
 */
export async function eachTrigger(
  triggers: TriggerHook | undefined, scopeOf: () => Promise<CascadeScope>, process: Process, messages: readonly TurnMessage[],
  activate: (current: Process, match: TriggeredSkill, scope: CascadeScope) => Promise<Process>,
): Promise<Process> {
  const user = messages.filter((m) => m.sender === 'USER');
  // A turn without a USER message (a guard's follow-up, a child's report, a skill's action) reads no scope.
  if (!triggers || user.length === 0) return process;
  const scope = await scopeOf();
  let current = process;
  for (const message of user) {
    for (const match of await triggers(current, scope, message.content)) current = await activate(current, match, scope);
  }
  return current;
}

/**
 * The process as the pre-turn hook would leave it for `pending` (composeTurnPreview: the inbox is the
 * next turn's input): the same matches and the same SkillSteer plans, applied to a copy — nothing is
 * written and no event sent. A refused activation is left out, as the turn leaves it out.
 */
export function previewTriggers(steer: SkillSteer, triggers: TriggerHook | undefined, scopeOf: () => Promise<CascadeScope>, process: Process, pending: readonly TurnMessage[]): Promise<Process> {
  return eachTrigger(triggers, scopeOf, process, pending, async (current, match, scope) => {
    const request = { name: match.skill, args: null, once: true, origin: { kind: 'TRIGGER', reason: match.reason } as const, actor: '_preview' };
    const plan = await steer.planActivation(current, scope, request).catch((err: unknown) => {
      if (err instanceof DomainError) return null;
      throw err;
    });
    const patch = plan?.patch(current);
    return patch ? { ...current, ...patch } : current;
  });
}
