import { NameTakenError, NotFoundError } from '../errors';
import {
  TENANT_PROJECT, userProjectName,
  type Project, type ProjectKind, type ProjectMember, type ProjectMembership, type ProjectRole, type Tenant, type User,
} from '../identity/identity';
import type { IdentityStore, NewUser } from '../identity/identity-store';

/**
 * The IdentityStore port in memory. Like the database adapter: tenant names are unique, logins and
 * project names are unique per tenant (NameTakenError), token hashes are unique, and the creations
 * that belong together (tenant + `_tenant`, user + `_user_<login>` + first token) happen all or
 * nothing. Ids are deterministic (`tenant-1`, `user-2`, …) to keep failures readable.
 */
export interface StoredApiToken {
  readonly userId: string;
  readonly tokenHash: string;
  readonly label: string | null;
}

export class InMemoryIdentityStore implements IdentityStore {
  /** How often each method was called (name → count). */
  readonly calls: Record<string, number> = {};
  private readonly tenants = new Map<string, Tenant>();
  private readonly users = new Map<string, User>();
  private readonly projects = new Map<string, Project>();
  private readonly tokens = new Map<string, StoredApiToken>();
  private readonly memberships = new Map<string, ProjectMembership>();
  private nextId = 1;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Every stored token row, for asserting that only hashes are kept. */
  apiTokens(): readonly StoredApiToken[] {
    return [...this.tokens.values()];
  }

  async countTenants(): Promise<number> {
    this.count('countTenants');
    return this.tenants.size;
  }

  async createTenant(name: string): Promise<{ tenant: Tenant; tenantProject: Project }> {
    this.count('createTenant');
    if ([...this.tenants.values()].some((t) => t.name === name)) throw new NameTakenError('Tenant', name);
    const tenant: Tenant = Object.freeze({ id: this.id('tenant'), name, createdAt: this.now() });
    this.tenants.set(tenant.id, tenant);
    const tenantProject = this.insertProject(tenant.id, TENANT_PROJECT, 'SYSTEM', null);
    return { tenant, tenantProject };
  }

  async findTenantByName(name: string): Promise<Tenant | null> {
    this.count('findTenantByName');
    return [...this.tenants.values()].find((t) => t.name === name) ?? null;
  }

  async findTenantById(id: string): Promise<Tenant | null> {
    this.count('findTenantById');
    return this.tenants.get(id) ?? null;
  }

  async listTenants(): Promise<Tenant[]> {
    this.count('listTenants');
    return [...this.tenants.values()].sort(byName);
  }

  async createUser(newUser: NewUser): Promise<{ user: User; userProject: Project }> {
    this.count('createUser');
    if (!this.tenants.has(newUser.tenantId)) throw new NotFoundError('Tenant', newUser.tenantId);
    if (this.userByLogin(newUser.tenantId, newUser.login)) throw new NameTakenError('User', newUser.login);
    const projectName = userProjectName(newUser.login);
    if (this.projectByName(newUser.tenantId, projectName)) throw new NameTakenError('Project', projectName);
    if (this.tokens.has(newUser.tokenHash)) throw new NameTakenError('ApiToken', '(hash)');
    const user: User = Object.freeze({
      id: this.id('user'), tenantId: newUser.tenantId, login: newUser.login, role: newUser.role, createdAt: this.now(),
    });
    this.users.set(user.id, user);
    const userProject = this.insertProject(user.tenantId, projectName, 'SYSTEM', user.id);
    this.tokens.set(newUser.tokenHash, Object.freeze({ userId: user.id, tokenHash: newUser.tokenHash, label: null }));
    return { user, userProject };
  }

  async findUserByLogin(tenantId: string, login: string): Promise<User | null> {
    this.count('findUserByLogin');
    return this.userByLogin(tenantId, login);
  }

  async findUserById(id: string): Promise<User | null> {
    this.count('findUserById');
    return this.users.get(id) ?? null;
  }

  async findUserByTokenHash(tokenHash: string): Promise<User | null> {
    this.count('findUserByTokenHash');
    const token = this.tokens.get(tokenHash);
    return token ? (this.users.get(token.userId) ?? null) : null;
  }

  async addApiToken(userId: string, tokenHash: string, label: string | null): Promise<void> {
    this.count('addApiToken');
    if (!this.users.has(userId)) throw new NotFoundError('User', userId);
    if (this.tokens.has(tokenHash)) throw new NameTakenError('ApiToken', '(hash)');
    this.tokens.set(tokenHash, Object.freeze({ userId, tokenHash, label }));
  }

  async listUsers(tenantId: string): Promise<User[]> {
    this.count('listUsers');
    return [...this.users.values()].filter((u) => u.tenantId === tenantId).sort(byLogin);
  }

  async createProject(tenantId: string, name: string, kind: ProjectKind, ownerUserId: string | null): Promise<Project> {
    this.count('createProject');
    if (!this.tenants.has(tenantId)) throw new NotFoundError('Tenant', tenantId);
    if (this.projectByName(tenantId, name)) throw new NameTakenError('Project', name);
    return this.insertProject(tenantId, name, kind, ownerUserId);
  }

  async findProjectByName(tenantId: string, name: string): Promise<Project | null> {
    this.count('findProjectByName');
    return this.projectByName(tenantId, name);
  }

  async findProjectById(id: string): Promise<Project | null> {
    this.count('findProjectById');
    return this.projects.get(id) ?? null;
  }

  async listProjects(tenantId: string): Promise<Project[]> {
    this.count('listProjects');
    return [...this.projects.values()].filter((p) => p.tenantId === tenantId).sort(byName);
  }

  async upsertMembership(projectId: string, userId: string, role: ProjectRole): Promise<ProjectMembership> {
    this.count('upsertMembership');
    if (!this.projects.has(projectId)) throw new NotFoundError('Project', projectId);
    if (!this.users.has(userId)) throw new NotFoundError('User', userId);
    const membership: ProjectMembership = Object.freeze({ projectId, userId, role });
    this.memberships.set(membershipKey(projectId, userId), membership);
    return membership;
  }

  async findMembership(projectId: string, userId: string): Promise<ProjectMembership | null> {
    this.count('findMembership');
    return this.memberships.get(membershipKey(projectId, userId)) ?? null;
  }

  async listMemberships(userId: string): Promise<ProjectMembership[]> {
    this.count('listMemberships');
    return [...this.memberships.values()].filter((m) => m.userId === userId);
  }

  async listProjectMembers(projectId: string): Promise<ProjectMember[]> {
    this.count('listProjectMembers');
    return [...this.memberships.values()]
      .filter((m) => m.projectId === projectId)
      .map((m) => ({ user: this.users.get(m.userId)!, role: m.role }))
      .sort((a, b) => byLogin(a.user, b.user));
  }

  private insertProject(tenantId: string, name: string, kind: ProjectKind, ownerUserId: string | null): Project {
    const project: Project = Object.freeze({ id: this.id('project'), tenantId, name, kind, ownerUserId, createdAt: this.now() });
    this.projects.set(project.id, project);
    return project;
  }

  private userByLogin(tenantId: string, login: string): User | null {
    return [...this.users.values()].find((u) => u.tenantId === tenantId && u.login === login) ?? null;
  }

  private projectByName(tenantId: string, name: string): Project | null {
    return [...this.projects.values()].find((p) => p.tenantId === tenantId && p.name === name) ?? null;
  }

  private id(kind: string): string {
    return `${kind}-${this.nextId++}`;
  }

  private count(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byLogin = (a: { login: string }, b: { login: string }) => (a.login < b.login ? -1 : a.login > b.login ? 1 : 0);
const membershipKey = (projectId: string, userId: string) => `${projectId}/${userId}`;
