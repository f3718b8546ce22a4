import type { LayerTargetResolver } from '../documents/layer-target';
import type { Principal } from '../identity/principal';
import { isModelInvocable, isUserInvocable } from './invocation-policy';
import type { ResolvedSkill, SkillResolver } from './skill-resolver';

/** Which invocation surface a listing serves (seed 002): everything, the model's, or the user's. */
export type SkillSurface = 'ALL' | 'MODEL' | 'USER';

/** Seed 002: a surface shows only usable skills that its predicate admits; ALL shows every winner. */
export function skillsOnSurface(all: ResolvedSkill[], surface: SkillSurface): ResolvedSkill[] {
  switch (surface) {
    case 'ALL':
      return all;
    case 'MODEL':
      return all.filter((s) => s.status === 'AVAILABLE' && isModelInvocable(s.skill));
    case 'USER':
      return all.filter((s) => s.status === 'AVAILABLE' && isUserInvocable(s.skill));
    default: {
      const never: never = surface;
      return never;
    }
  }
}

/**
 * Skills as API callers see them: the caller's cascade scope for a project (visibility checked by
 * the target resolver), the admin view with disabled and broken skills, and the per-surface
 * listings of seed 002 (a surface shows only usable skills that its predicate admits).
 */
export class SkillCatalog {
  constructor(
    private readonly resolver: SkillResolver,
    private readonly targets: LayerTargetResolver,
  ) {}

  async list(principal: Principal, project: string | null | undefined, surface: SkillSurface = 'ALL'): Promise<ResolvedSkill[]> {
    const scope = await this.targets.scope(principal, project);
    return skillsOnSurface(await this.resolver.listAll(scope), surface);
  }

  async get(principal: Principal, name: string, project: string | null | undefined): Promise<ResolvedSkill | null> {
    return this.resolver.inspect(await this.targets.scope(principal, project), name);
  }
}
