import type { Layer } from '../cascade/layer';
import type { Project, ProjectMembership } from '../identity/identity';
import { isTenantAdmin, type Principal } from '../identity/principal';

/**
 * Who may read and write which layer (seed 000 §14):
 *   RESOURCE  read: everyone        write: nobody (code commit only)
 *   VANCE     read: tenant users    write: tenant admins
 *   PROJECT   read: members         write: project admins (and tenant admins)
 *   USER      read/write: the owner only
 * `NONE` is reported to callers as NOT_FOUND, so it never confirms that something exists.
 */
export type Access = 'NONE' | 'READ' | 'WRITE';

export function layerAccess(
  principal: Principal,
  layer: Layer,
  project: Project | null,
  membership: ProjectMembership | null,
): Access {
  switch (layer) {
    case 'RESOURCE':
      return 'READ';
    case 'VANCE':
      return isTenantAdmin(principal) ? 'WRITE' : 'READ';
    case 'USER':
      // Only ever the caller's own `_user_<login>` project.
      return project === null || project.id === principal.userProjectId ? 'WRITE' : 'NONE';
    case 'PROJECT':
      return projectAccess(principal, project, membership);
    default: {
      const never: never = layer;
      return never;
    }
  }
}

/** Access to a project's own documents; system projects follow the layer they back. */
export function projectAccess(principal: Principal, project: Project | null, membership: ProjectMembership | null): Access {
  if (!project || project.tenantId !== principal.tenant.id) return 'NONE';
  if (project.id === principal.userProjectId) return 'WRITE';
  if (project.kind === 'SYSTEM' && project.ownerUserId !== null) return 'NONE';
  if (project.id === principal.tenantProjectId) return layerAccess(principal, 'VANCE', null, null);
  if (isTenantAdmin(principal)) return 'WRITE';
  if (!membership) return 'NONE';
  return membership.role === 'ADMIN' ? 'WRITE' : 'READ';
}
