import type { CascadeScope } from '../../cascade/scope';
import type { Process } from '../process';
import { scopeKey, type SkillSetCache } from './skill-set-cache';
import type { TriggerIndexCache } from './trigger-index-cache';
import type { TriggerMatch } from './trigger-match';

/**
 * The pre-turn auto-trigger hook (seed 000 §4a) as SkillActivationService takes it (`TriggerHook`):
 * the scope's skills from the SkillSetCache, their index from the TriggerIndexCache, and the process's
 * own filter (already active, allowedSkillsOverride). The service activates each match one-shot.
 */
export function createTriggerHook(deps: { readonly skillSets: SkillSetCache; readonly indexes: TriggerIndexCache }) {
  return async (process: Pick<Process, 'activeSkills' | 'allowedSkillsOverride'>, scope: CascadeScope, message: string): Promise<TriggerMatch[]> => {
    if (process.allowedSkillsOverride?.length === 0) return [];
    const skills = await deps.skillSets.list(scope);
    // `when: mentioned` skills are on per turn, over the scan window (issue 8): the turn composes them.
    return (await deps.indexes.load(skills, scopeKey(scope))).match(message, {
      active: process.activeSkills.map((ref) => ref.name),
      allowedSkillsOverride: process.allowedSkillsOverride,
    }).filter((m) => m.available.skill.activation.when !== 'mentioned');
  };
}
