import type { AvailableSkill } from '../../skills/skill-resolver';
import type { ActiveSkillRef } from '../process';
import type { TurnWarning } from './turn-warning';

/**
 * The process's active skill refs resolved against the scope's current skills (seed 000 §5d:
 * engines re-resolve per turn; the ref's `resolvedFromScope` is history, not a pin). A ref whose
 * skill is gone, disabled or broken is skipped with a warning; the rest keep activation order.
 */
export interface ResolvedActiveSkill {
  readonly ref: ActiveSkillRef;
  readonly skill: AvailableSkill;
}

export function resolveActiveSkills(
  refs: readonly ActiveSkillRef[],
  find: (name: string) => AvailableSkill | undefined,
): { resolved: ResolvedActiveSkill[]; warnings: TurnWarning[] } {
  const resolved: ResolvedActiveSkill[] = [];
  const warnings: TurnWarning[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    if (seen.has(ref.name)) continue;
    seen.add(ref.name);
    const skill = find(ref.name);
    if (skill) resolved.push({ ref, skill });
    else warnings.push({ skill: ref.name, message: `Active skill '${ref.name}' is not available in this scope (deleted, disabled or invalid); skipped this turn.` });
  }
  return { resolved, warnings };
}
