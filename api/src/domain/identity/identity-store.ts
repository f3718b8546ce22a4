import type { Project, ProjectKind, ProjectMember, ProjectMembership, ProjectRole, Tenant, User, UserRole } from './identity';

export interface NewUser {
  readonly tenantId: string;
  readonly login: string;
  readonly role: UserRole;
  /** sha-256 (hex) of the user's first API token; the token itself is never stored. */
  readonly tokenHash: string;
}

/**
 * The port for tenants, users, tokens, projects and memberships. Creations that belong together
 * are atomic: a tenant with its `_tenant` project, a user with its `_user_<login>` project and first
 * token. Name clashes throw NameTakenError (the adapter translates the driver's unique violation).
 */
export interface IdentityStore {
  countTenants(): Promise<number>;
  createTenant(name: string): Promise<{ tenant: Tenant; tenantProject: Project }>;
  findTenantByName(name: string): Promise<Tenant | null>;
  findTenantById(id: string): Promise<Tenant | null>;
  listTenants(): Promise<Tenant[]>;

  createUser(user: NewUser): Promise<{ user: User; userProject: Project }>;
  findUserByLogin(tenantId: string, login: string): Promise<User | null>;
  findUserById(id: string): Promise<User | null>;
  /** The user owning a live (not revoked) token with this hash. */
  findUserByTokenHash(tokenHash: string): Promise<User | null>;
  addApiToken(userId: string, tokenHash: string, label: string | null): Promise<void>;
  /** Every user of the tenant, by login. */
  listUsers(tenantId: string): Promise<User[]>;

  createProject(tenantId: string, name: string, kind: ProjectKind, ownerUserId: string | null): Promise<Project>;
  findProjectByName(tenantId: string, name: string): Promise<Project | null>;
  findProjectById(id: string): Promise<Project | null>;
  listProjects(tenantId: string): Promise<Project[]>;

  /** Insert or change the member's role. */
  upsertMembership(projectId: string, userId: string, role: ProjectRole): Promise<ProjectMembership>;
  findMembership(projectId: string, userId: string): Promise<ProjectMembership | null>;
  listMemberships(userId: string): Promise<ProjectMembership[]>;
  /** The project's members with their users, by login. */
  listProjectMembers(projectId: string): Promise<ProjectMember[]>;
}
