import type { Principal } from '../../domain/identity/principal';
import type { GraphQLContext } from '../context';
import type { ProjectModel } from '../models';

/** The caller's visible projects, each with the caller's role in it. */
export async function projectModels(ctx: GraphQLContext, me: Principal): Promise<ProjectModel[]> {
  const [projects, memberships] = await Promise.all([
    ctx.services.identity.listProjects(me),
    ctx.services.identity.listMembershipsOf(me),
  ]);
  const roleOf = new Map(memberships.map((m) => [m.projectId, m.role]));
  return projects.map((p) => ({ ...p, myRole: roleOf.get(p.id) ?? null }));
}
