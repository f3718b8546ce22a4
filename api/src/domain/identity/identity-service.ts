import { InvalidInputError, NameTakenError, NotFoundError, UnauthenticatedError } from '../errors';
import { TtlCache } from '../shared/ttl-cache';
import { generateApiToken, hashApiToken } from './api-token';
import { NotAllowedError } from './errors';
import {
  PROJECT_ROLES, TENANT_PROJECT, USER_ROLES, userProjectName,
  type Project, type ProjectKind, type ProjectMember, type ProjectMembership, type ProjectRole, type Tenant, type User, type UserRole,
} from './identity';
import type { CascadeScope } from '../cascade/scope';
import type { IdentityStore } from './identity-store';
import { validateLogin, validateProjectName, validateTenantName } from './names';
import { canManageMembers } from '../access/project-permissions';
import { isSystemAdmin, isTenantAdmin, type Principal } from './principal';

export interface IdentityServiceOptions {
  /** How long a token, project or membership lookup may be reused without asking the store. */
  readonly cacheTtlMs?: number;
}

/**
 * Tenants, users, tokens, projects and memberships: authentication, the bootstrap of an empty
 * database, and who may create what. Reads on the request path are cached briefly (TtlCache).
 */
export class IdentityService {
  private readonly principals: TtlCache<string, Principal | null>;
  private readonly projects: TtlCache<string, Project | null>;
  private readonly memberships: TtlCache<string, ProjectMembership | null>;
  private readonly userScopes: TtlCache<string, { tenantProjectId: string; userProjectId: string }>;
  /** Process owners as principals (a turn's tool calls), by tenant and user id. */
  private readonly owners: TtlCache<string, Principal>;

  constructor(private readonly store: IdentityStore, options: IdentityServiceOptions = {}) {
    const ttl = options.cacheTtlMs ?? 5_000;
    this.principals = new TtlCache(ttl);
    this.projects = new TtlCache(ttl);
    this.memberships = new TtlCache(ttl);
    this.owners = new TtlCache(ttl);
    // System project ids never change for a user: cache them for long.
    this.userScopes = new TtlCache(10 * 60_000);
  }

  authenticate(token: string | null | undefined): Promise<Principal> {
    return this.authenticateTokenHash(token ? hashApiToken(token) : null);
  }

  /**
   * The principal of a token hash the cache holds valid, without a promise; undefined otherwise
   * (not cached, or known invalid: authenticateTokenHash then loads or refuses it).
   */
  cachedPrincipal(hash: string | null): Principal | undefined {
    return (hash && this.principals.get(hash)) || undefined;
  }

  /** As authenticate, for a caller that already holds the token's hash (the GraphQL context does). */
  async authenticateTokenHash(hash: string | null): Promise<Principal> {
    if (!hash) throw new UnauthenticatedError();
    const principal = await this.principals.getOrLoad(hash, () => this.loadPrincipal(hash));
    if (!principal) throw new UnauthenticatedError('The API token is not valid');
    return principal;
  }

  /**
   * First start on an empty database: tenant `default`, system admin `admin` and its token.
   * A configured admin token is (re)attached to `admin` on every start, so it keeps working.
   * Returns the token when one was generated (the caller prints it once).
   */
  async bootstrap(adminToken: string | undefined): Promise<{ created: boolean; generatedToken: string | null }> {
    if ((await this.store.countTenants()) === 0) {
      const token = adminToken ?? generateApiToken();
      try {
        const { tenant } = await this.store.createTenant('default');
        await this.store.createUser({ tenantId: tenant.id, login: 'admin', role: 'SYSTEM_ADMIN', tokenHash: hashApiToken(token) });
        return { created: true, generatedToken: adminToken ? null : token };
      } catch (err) {
        // Several instances starting together on an empty database: one wins, the others go on.
        if (!(err instanceof NameTakenError)) throw err;
      }
    }
    if (adminToken) await this.attachAdminToken(adminToken);
    return { created: false, generatedToken: null };
  }

  private async attachAdminToken(adminToken: string): Promise<void> {
    const hash = hashApiToken(adminToken);
    if (await this.store.findUserByTokenHash(hash)) return;
    const tenant = await this.store.findTenantByName('default');
    const admin = tenant && (await this.store.findUserByLogin(tenant.id, 'admin'));
    if (!admin) return;
    try {
      await this.store.addApiToken(admin.id, hash, 'VANCE_ADMIN_TOKEN');
    } catch (err) {
      if (!(err instanceof NameTakenError)) throw err; // attached concurrently by another instance
    }
  }

  async createTenant(principal: Principal, name: string): Promise<Tenant> {
    if (!isSystemAdmin(principal)) throw new NotAllowedError('create tenants');
    return (await this.store.createTenant(validateTenantName(name))).tenant;
  }

  async listTenants(principal: Principal): Promise<Tenant[]> {
    return isSystemAdmin(principal) ? this.store.listTenants() : [principal.tenant];
  }

  /** Creates the user, its `_user_<login>` project and its first token (returned once). */
  async createUser(principal: Principal, login: string, tenantName: string | null, role: UserRole): Promise<{ user: User; token: string }> {
    if (!isTenantAdmin(principal)) throw new NotAllowedError('create users');
    if (!USER_ROLES.includes(role)) throw new InvalidInputError('INVALID_ROLE', `Unknown role '${role}'`, 'role');
    if (role === 'SYSTEM_ADMIN' && !isSystemAdmin(principal)) throw new NotAllowedError('create system admins');
    const tenant = await this.visibleTenant(principal, tenantName ?? principal.tenant.name);
    const token = generateApiToken();
    const { user } = await this.store.createUser({ tenantId: tenant.id, login: validateLogin(login), role, tokenHash: hashApiToken(token) });
    return { user, token };
  }

  /** A further token for the caller (e.g. one per client); shown once. */
  async createApiToken(principal: Principal, label: string | null): Promise<string> {
    const token = generateApiToken();
    await this.store.addApiToken(principal.user.id, hashApiToken(token), label);
    return token;
  }

  async createProject(principal: Principal, name: string, kind: ProjectKind): Promise<Project> {
    if (kind !== 'NORMAL') throw new InvalidInputError('INVALID_PROJECT_KIND', 'System projects are created with their tenant or user', 'kind');
    if (!isTenantAdmin(principal)) throw new NotAllowedError('create projects');
    const project = await this.store.createProject(principal.tenant.id, validateProjectName(name), kind, null);
    await this.store.upsertMembership(project.id, principal.user.id, 'ADMIN');
    this.projects.delete(projectKey(principal.tenant.id, project.name));
    return project;
  }

  async addProjectMember(principal: Principal, projectName: string, login: string, role: ProjectRole): Promise<ProjectMembership> {
    if (!PROJECT_ROLES.includes(role)) throw new InvalidInputError('INVALID_ROLE', `Unknown project role '${role}'`, 'role');
    const { project, membership: mine } = await this.listedProject(principal, projectName);
    if (project.kind === 'SYSTEM') throw new InvalidInputError('SYSTEM_PROJECT', `'${project.name}' is a system project; its members follow from the tenant`, 'project');
    if (!canManageMembers(principal, project, mine)) throw new NotAllowedError(`manage members of '${project.name}'`);
    const user = await this.store.findUserByLogin(principal.tenant.id, login);
    if (!user) throw new NotFoundError('User', login);
    const membership = await this.store.upsertMembership(project.id, user.id, role);
    this.memberships.delete(membershipKey(project.id, user.id));
    return membership;
  }

  /** Every user of the caller's tenant for tenant (and system) admins; only the caller for anyone else. */
  async listUsers(principal: Principal): Promise<User[]> {
    return isTenantAdmin(principal) ? this.store.listUsers(principal.tenant.id) : [principal.user];
  }

  /**
   * The members of a project the caller can see (as `listProjects` decides); any other project is
   * NOT_FOUND. System projects have no members of their own: theirs follow from the tenant.
   */
  async listProjectMembers(principal: Principal, projectName: string): Promise<ProjectMember[]> {
    const { project } = await this.listedProject(principal, projectName);
    return this.store.listProjectMembers(project.id);
  }

  /** Projects the caller can see: its own system project, `_tenant`, and member (or all, for admins) projects. */
  async listProjects(principal: Principal): Promise<Project[]> {
    const all = await this.store.listProjects(principal.tenant.id);
    const memberOf = new Set((await this.store.listMemberships(principal.user.id)).map((m) => m.projectId));
    return all.filter((p) => {
      if (p.kind === 'SYSTEM') return p.ownerUserId === null || p.id === principal.userProjectId;
      return isTenantAdmin(principal) || memberOf.has(p.id);
    });
  }

  /** A project of the caller's tenant by name, or NOT_FOUND (also for other users' `_user_*`). */
  async findProject(principal: Principal, name: string): Promise<{ project: Project; membership: ProjectMembership | null }> {
    const project = await this.projects.getOrLoad(projectKey(principal.tenant.id, name), () =>
      this.store.findProjectByName(principal.tenant.id, name),
    );
    if (!project || (project.ownerUserId !== null && project.id !== principal.userProjectId)) throw new NotFoundError('Project', name);
    return { project, membership: await this.membership(project.id, principal.user.id) };
  }

  /**
   * The cascade scope of a user working in a project (seed 000 §3: Tenant + Project + User of the
   * session) — for processes, which resolve skills as their owner, whoever steers them.
   */
  async scopeOfUser(tenantId: string, userId: string, projectId: string | null): Promise<CascadeScope> {
    const base = await this.userScopes.getOrLoad(`${tenantId}/${userId}`, async () => {
      const user = await this.store.findUserById(userId);
      if (!user || user.tenantId !== tenantId) throw new NotFoundError('User', userId);
      const [tenantProject, userProject] = await Promise.all([
        this.store.findProjectByName(tenantId, TENANT_PROJECT),
        this.store.findProjectByName(tenantId, userProjectName(user.login)),
      ]);
      if (!tenantProject || !userProject) throw new NotFoundError('User', user.login);
      return { tenantProjectId: tenantProject.id, userProjectId: userProject.id };
    });
    return { tenantId, ...base, projectId };
  }

  async listMembershipsOf(principal: Principal): Promise<ProjectMembership[]> {
    return this.store.listMemberships(principal.user.id);
  }

  /** A project that `listProjects` would show the caller; NOT_FOUND for a normal project it is no member of, unless admin. */
  private async listedProject(principal: Principal, name: string): Promise<{ project: Project; membership: ProjectMembership | null }> {
    const found = await this.findProject(principal, name);
    if (found.project.kind === 'NORMAL' && !found.membership && !isTenantAdmin(principal)) throw new NotFoundError('Project', found.project.name);
    return found;
  }

  private async visibleTenant(principal: Principal, name: string): Promise<Tenant> {
    if (name === principal.tenant.name) return principal.tenant;
    const tenant = isSystemAdmin(principal) ? await this.store.findTenantByName(name) : null;
    if (!tenant) throw new NotFoundError('Tenant', name);
    return tenant;
  }

  /** A project of the caller's tenant by id (for names in results); NOT_FOUND for other tenants. */
  /** The name of a project of the tenant, for server-side messages; null when there is none. */
  async projectNameOf(tenantId: string, projectId: string): Promise<string | null> {
    const project = await this.store.findProjectById(projectId);
    return project && project.tenantId === tenantId ? project.name : null;
  }

  async findProjectById(principal: Principal, projectId: string): Promise<Project> {
    const project = await this.store.findProjectById(projectId);
    if (!project || project.tenantId !== principal.tenant.id) throw new NotFoundError('Project', projectId);
    return project;
  }

  /** The caller's membership of a project by id (cached like the others). */
  membershipIn(principal: Principal, projectId: string): Promise<ProjectMembership | null> {
    return this.membership(projectId, principal.user.id);
  }

  private membership(projectId: string, userId: string): Promise<ProjectMembership | null> {
    return this.memberships.getOrLoad(membershipKey(projectId, userId), () => this.store.findMembership(projectId, userId));
  }

  /**
   * A user as a principal without a token: the owner of a process, whose turn calls tools as them.
   * Cached like a token's principal (every turn asks; four reads each time cost a warm turn ~20 %).
   */
  principalOfUser(tenantId: string, userId: string): Promise<Principal> {
    return this.owners.getOrLoad(`${tenantId}/${userId}`, async () => {
      const user = await this.store.findUserById(userId);
      if (!user || user.tenantId !== tenantId) throw new NotFoundError('User', userId);
      const principal = await this.principalOf(user);
      if (!principal) throw new NotFoundError('User', user.login);
      return principal;
    });
  }

  private async loadPrincipal(tokenHash: string): Promise<Principal | null> {
    const user = await this.store.findUserByTokenHash(tokenHash);
    return user ? this.principalOf(user) : null;
  }

  /** A user with their tenant and system projects; null when one of them is gone. */
  private async principalOf(user: User): Promise<Principal | null> {
    const [tenant, tenantProject, userProject] = await Promise.all([
      this.store.findTenantById(user.tenantId),
      this.store.findProjectByName(user.tenantId, TENANT_PROJECT),
      this.store.findProjectByName(user.tenantId, userProjectName(user.login)),
    ]);
    if (!tenant || !tenantProject || !userProject) return null;
    return { user, tenant, tenantProjectId: tenantProject.id, userProjectId: userProject.id };
  }
}

const projectKey = (tenantId: string, name: string) => `${tenantId}/${name}`;
const membershipKey = (projectId: string, userId: string) => `${projectId}/${userId}`;
