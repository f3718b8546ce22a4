import { hookMatches } from '../processes/triggers/trigger-hook';
import { newestFirst, type TriggerEvaluation, type TriggerMatch } from '../processes/triggers/trigger-match';
import type { TriggerIndex } from '../processes/triggers/trigger-index';
import type { AvailableSkill } from '../skills/skill-resolver';
import { skillVerdicts, type SkillVerdict } from './skill-verdicts';

/** What a fresh process under a recipe starts with: its whitelist and its default skills (null = no recipe). */
export interface RecipeStart {
  readonly name: string;
  readonly allowedSkills: readonly string[] | null;
  readonly defaultActiveSkills: readonly string[];
}

export interface ConversationVerdicts {
  readonly verdicts: SkillVerdict[];
  /** The composer's evaluation over the scan window (after the hook's activations). */
  readonly evaluation: TriggerEvaluation;
  /** What the pre-turn hook activated one-shot on the message being answered. */
  readonly triggered: readonly TriggerMatch[];
}

/**
 * Every skill's verdict for a conversation (`messages` oldest first; the last is the turn's input)
 * on a fresh process under `recipe`, as the turn gives them: first the pre-turn hook
 * (triggers/trigger-hook.ts's hookMatches on the message being answered), each match activated
 * one-shot with the match's reason, as SkillSteer.planActivation does for a TRIGGER origin (a `shot`
 * skill fires its commands and is not registered); then the composer's TriggerIndex.evaluate over
 * the scan window and skillVerdicts. The one function behind the trigger bench and skill evals
 * (issue 20). `focus` (an eval's skill): verdicts only for it and for the skills whose triggers
 * matched — a verdict depends on its own skill alone, so they are the ones the full list would give,
 * and 10,000 cases over 1,000 skills no longer decide 10 M verdicts nobody reads (measured: 2.8 s of
 * `vance eval`'s 3 s). Before this function, the bench said "Auto-triggered: diff." where the
 * turn's SkillVerdicts said "Mentioned: diff." (the active skill's reason): test/graphql/skill-evals.test.ts.
 */
export function conversationVerdicts(skills: readonly AvailableSkill[], index: TriggerIndex, messages: readonly string[], recipe: RecipeStart | null, focus?: AvailableSkill | null): ConversationVerdicts {
  const allowedSkills = recipe?.allowedSkills ?? null;
  const fromRecipe = (recipe?.defaultActiveSkills ?? []).map((skill) => ({ name: skill, reason: `From recipe '${recipe?.name ?? ''}'.` }));
  const input = messages[messages.length - 1] ?? '';
  const triggered = allowedSkills?.length === 0 ? [] : hookMatches(index, input, { active: fromRecipe.map((s) => s.name), allowedSkillsOverride: allowedSkills });
  const activeSkills = [...fromRecipe, ...triggered.filter((m) => m.available.skill.lifecycle !== 'shot').map((m) => ({ name: m.skill, reason: m.reason }))];
  const evaluation = index.evaluate(newestFirst(messages), { active: activeSkills.map((s) => s.name), allowedSkillsOverride: allowedSkills });
  const verdicts = skillVerdicts(candidatesOf(skills, focus, [...triggered, ...evaluation.matches]).map((s) => ({ name: s.name, skill: s.skill, source: s.source })), { activeSkills, openSkills: [], allowedSkills }, evaluation);
  return { verdicts, evaluation, triggered };
}

/** Every skill, or (with a focus) the focus and the skills whose triggers matched, in scope order. */
function candidatesOf(skills: readonly AvailableSkill[], focus: AvailableSkill | null | undefined, matches: readonly TriggerMatch[]): readonly AvailableSkill[] {
  if (focus === undefined) return skills;
  const chosen = new Set<AvailableSkill>(matches.map((m) => m.available));
  if (focus) chosen.add(focus);
  return [...chosen];
}
