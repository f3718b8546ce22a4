import type { Principal } from '../identity/principal';
import type { Process } from '../processes/process';
import type { TurnEvent } from './turn';

/**
 * Who may read a composed prompt's full text (issue 5: "full text only to those allowed to read the
 * recipe"). Everyone who can see a process can read its project and tenant layers; only the owner
 * can read the owner's USER layer. So the text is withheld from others when the recipe or an active
 * skill came from there.
 */
export function mayReadPrompt(principal: Principal, process: Process): boolean {
  if (process.userId === principal.user.id) return true;
  return process.recipeSource !== 'USER' && !process.activeSkills.some((r) => r.resolvedFromScope === 'USER');
}

export const HIDDEN_PROMPT_TEXT = "(hidden: this prompt uses the owner's private USER layer)";

/** PromptComposed with its section texts withheld; every other event unchanged. */
export function redactPrompt(event: TurnEvent): TurnEvent {
  if (event.type !== 'PromptComposed') return event;
  const payload = event.payload as { sections?: { kind: string; chars: number }[] } & Record<string, unknown>;
  const sections = (payload.sections ?? []).map((s) => ({ kind: s.kind, chars: s.chars, text: null }));
  return { ...event, payload: { ...payload, sections, redacted: true } };
}
