import type { CascadeScope } from '../../cascade/scope';
import type { Process } from '../process';
import { scopeKey, type SkillSetCache } from './skill-set-cache';
import type { TriggerIndexCache } from './trigger-index-cache';
import type { TriggerIndex } from './trigger-index';
import type { TriggerFilter, TriggerMatch } from './trigger-match';

/**
 * The matches the pre-turn hook activates for one USER message: every match except `when:
 * mentioned` skills (on per turn over the scan window, issue 8: the turn composes them). Shared by
 * the hook and by previews of a turn (the trigger bench, skill evals: activation/conversation-verdicts.ts).
 */
export function hookMatches(index: TriggerIndex, message: string, filter: TriggerFilter): TriggerMatch[] {
  return index.match(message, filter).filter((m) => m.available.skill.activation.when !== 'mentioned');
}

/**
 * The pre-turn auto-trigger hook (seed 000 §4a) as SkillActivationService takes it (`TriggerHook`):
 * the scope's skills from the SkillSetCache, their index from the TriggerIndexCache, and the process's
 * own filter (already active, allowedSkillsOverride). The service activates each match one-shot.
 */
export function createTriggerHook(deps: { readonly skillSets: SkillSetCache; readonly indexes: TriggerIndexCache }) {
  return async (process: Pick<Process, 'activeSkills' | 'allowedSkillsOverride'>, scope: CascadeScope, message: string): Promise<TriggerMatch[]> => {
    if (process.allowedSkillsOverride?.length === 0) return [];
    const skills = await deps.skillSets.list(scope);
    return hookMatches(await deps.indexes.load(skills, scopeKey(scope)), message, {
      active: process.activeSkills.map((ref) => ref.name),
      allowedSkillsOverride: process.allowedSkillsOverride,
    });
  };
}
