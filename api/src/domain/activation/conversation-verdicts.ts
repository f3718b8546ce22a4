import { newestFirst, type TriggerEvaluation } from '../processes/triggers/trigger-match';
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
  readonly evaluation: TriggerEvaluation;
}

/**
 * Every skill's verdict for a conversation (`messages` oldest first; the last is answered) on a fresh
 * process under `recipe`: the turn's TriggerIndex.evaluate over the scan window and the turn's
 * skillVerdicts. The one function behind the trigger bench and skill evals (issue 20), so a verdict
 * there is the verdict a turn gives.
 */
export function conversationVerdicts(skills: readonly AvailableSkill[], index: TriggerIndex, messages: readonly string[], recipe: RecipeStart | null): ConversationVerdicts {
  const allowedSkills = recipe?.allowedSkills ?? null;
  const activeSkills = (recipe?.defaultActiveSkills ?? []).map((skill) => ({ name: skill, reason: `From recipe '${recipe?.name ?? ''}'.` }));
  const evaluation = index.evaluate(newestFirst(messages), { active: activeSkills.map((s) => s.name), allowedSkillsOverride: allowedSkills });
  const verdicts = skillVerdicts(skills.map((s) => ({ name: s.name, skill: s.skill, source: s.source })), { activeSkills, openSkills: [], allowedSkills }, evaluation);
  return { verdicts, evaluation };
}
