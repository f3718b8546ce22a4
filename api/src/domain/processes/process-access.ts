import type { ProjectMembership } from '../identity/identity';
import { isTenantAdmin, type Principal } from '../identity/principal';
import type { Process } from './process';

/**
 * Who may see and steer a process: its owner, admins of its project and tenant admins. Anyone else
 * gets NOT_FOUND (no oracle), as for other tenants' resources (DESIGN §6).
 */
export function canAccessProcess(principal: Principal, process: Process, membership: ProjectMembership | null): boolean {
  if (process.tenantId !== principal.tenant.id) return false;
  if (process.userId === principal.user.id || isTenantAdmin(principal)) return true;
  return membership?.projectId === process.projectId && membership.role === 'ADMIN';
}
