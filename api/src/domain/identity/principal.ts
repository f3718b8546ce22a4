import type { Tenant, User } from './identity';

/** The authenticated caller, with the two system projects every request's cascade needs. */
export interface Principal {
  readonly user: User;
  readonly tenant: Tenant;
  readonly tenantProjectId: string;
  readonly userProjectId: string;
}

export const isSystemAdmin = (p: Principal): boolean => p.user.role === 'SYSTEM_ADMIN';

/** System admins administer every tenant, so also the one they are in. */
export const isTenantAdmin = (p: Principal): boolean =>
  p.user.role === 'SYSTEM_ADMIN' || p.user.role === 'TENANT_ADMIN';
