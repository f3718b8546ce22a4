/** Tenants, users and projects as the domain sees them (rows live in persistence/). */

/** A user's standing in its tenant. SYSTEM_ADMIN reaches every tenant. */
export const USER_ROLES = ['SYSTEM_ADMIN', 'TENANT_ADMIN', 'MEMBER'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const PROJECT_ROLES = ['ADMIN', 'MEMBER'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** SYSTEM projects are `_tenant` and `_user_<login>`; they are created with their owner. */
export const PROJECT_KINDS = ['NORMAL', 'SYSTEM'] as const;
export type ProjectKind = (typeof PROJECT_KINDS)[number];

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
}

export interface User {
  readonly id: string;
  readonly tenantId: string;
  readonly login: string;
  readonly role: UserRole;
  readonly createdAt: Date;
}

export interface Project {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly kind: ProjectKind;
  /** The user a `_user_<login>` project belongs to; null for every other project. */
  readonly ownerUserId: string | null;
  readonly createdAt: Date;
}

export interface ProjectMembership {
  readonly projectId: string;
  readonly userId: string;
  readonly role: ProjectRole;
}

/** A membership with its user, as a project's member list shows it. */
export interface ProjectMember {
  readonly user: User;
  readonly role: ProjectRole;
}

export const TENANT_PROJECT = '_tenant';
export const userProjectName = (login: string): string => `_user_${login}`;
