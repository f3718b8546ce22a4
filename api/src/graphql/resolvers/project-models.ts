import { projectPermissions } from '../../domain/access/project-permissions';
import type { Project, ProjectMembership } from '../../domain/identity/identity';
import type { Principal } from '../../domain/identity/principal';
import type { GraphQLContext } from '../context';
import type { ProjectModel } from '../models';

/** The caller's visible projects, each with the caller's role in it and what the caller may do there. */
export async function projectModels(ctx: GraphQLContext, me: Principal): Promise<ProjectModel[]> {
  const [projects, memberships] = await Promise.all([
    ctx.services.identity.listProjects(me),
    ctx.services.identity.listMembershipsOf(me),
  ]);
  const membershipOf = new Map(memberships.map((m) => [m.projectId, m]));
  return projects.map((p) => projectModel(me, p, membershipOf.get(p.id) ?? null));
}

export function projectModel(me: Principal, project: Project, membership: ProjectMembership | null): ProjectModel {
  return { ...project, myRole: membership?.role ?? null, myPermissions: projectPermissions(me, project, membership) };
}
