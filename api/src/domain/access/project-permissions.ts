import type { Project, ProjectMembership } from '../identity/identity';
import { isTenantAdmin, type Principal } from '../identity/principal';
import { layerAccess, projectAccess } from './layer-access';

/**
 * What a caller may do in one project (issue 17: the dashboard offers only what the API allows).
 * Every permission is derived from the predicate the operation itself checks, so the list and the
 * operation cannot disagree: layer writes from `layerAccess`/`projectAccess` (documents and
 * settings, seed 000 §14), member management from `canManageMembers` (identity service), tenant
 * administration from `isTenantAdmin`.
 */
export type ProjectPermission =
  | 'READ'
  | 'WRITE_USER_LAYER'
  | 'WRITE_PROJECT_LAYER'
  | 'WRITE_TENANT_LAYER'
  | 'FORCE_SAVE'
  | 'MANAGE_MEMBERS'
  | 'ADMINISTER_TENANT';

/** addProjectMember's check: tenant admins, and admins of the (normal) project. */
export function canManageMembers(principal: Principal, project: Project, membership: ProjectMembership | null): boolean {
  if (project.kind !== 'NORMAL') return false;
  return isTenantAdmin(principal) || (membership?.projectId === project.id && membership.role === 'ADMIN');
}

export function projectPermissions(principal: Principal, project: Project, membership: ProjectMembership | null): ProjectPermission[] {
  const access = projectAccess(principal, project, membership);
  if (access === 'NONE') return [];
  const allowed: ProjectPermission[] = ['READ'];
  // The USER layer is always the caller's own, whatever project is selected.
  if (layerAccess(principal, 'USER', null, null) === 'WRITE') allowed.push('WRITE_USER_LAYER');
  // A system project is addressed as the USER or VANCE layer, never as PROJECT (SYSTEM_PROJECT_LAYER).
  if (project.kind === 'NORMAL' && access === 'WRITE') allowed.push('WRITE_PROJECT_LAYER');
  if (layerAccess(principal, 'VANCE', null, null) === 'WRITE') allowed.push('WRITE_TENANT_LAYER');
  // putDocument's `force` is open to whoever may write the layer, and the USER layer always is.
  if (allowed.includes('WRITE_USER_LAYER')) allowed.push('FORCE_SAVE');
  if (canManageMembers(principal, project, membership)) allowed.push('MANAGE_MEMBERS');
  if (isTenantAdmin(principal)) allowed.push('ADMINISTER_TENANT');
  return allowed;
}
