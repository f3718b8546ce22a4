/**
 * The IdentityStore port on TypeORM. Creations that belong together run in one transaction
 * (tenant + `_tenant`; user + `_user_<login>` + first token). Inside `transaction(em => …)` only
 * `em` is used: on PGlite the pool has one session, and a global repository call would wait for
 * the lock its own transaction holds. Constraint violations become NameTakenError/NotFoundError.
 */
import type { DataSource, EntityManager } from 'typeorm';
import {
  TENANT_PROJECT,
  userProjectName,
  type Project,
  type ProjectKind,
  type ProjectMember,
  type ProjectMembership,
  type ProjectRole,
  type Tenant,
  type User,
} from '../domain/identity/identity';
import type { IdentityStore, NewUser } from '../domain/identity/identity-store';
import { NotFoundError } from '../domain/errors';
import { ApiTokenEntity, ProjectEntity, ProjectMemberEntity, TenantEntity, UserEntity } from './entities';
import { translateDbError } from './translate-db-error';
import { isUuid } from './uuid';

export class TypeOrmIdentityStore implements IdentityStore {
  constructor(private readonly dataSource: DataSource) {}

  async countTenants(): Promise<number> {
    return this.dataSource.getRepository(TenantEntity).count();
  }

  async createTenant(name: string): Promise<{ tenant: Tenant; tenantProject: Project }> {
    try {
      return await this.dataSource.transaction(async (em) => {
        const tenant = await insert(em, TenantEntity, { name });
        const tenantProject = await insert(em, ProjectEntity, { tenantId: tenant.id, name: TENANT_PROJECT, kind: 'SYSTEM', ownerUserId: null });
        return { tenant: toTenant(tenant), tenantProject: toProject(tenantProject) };
      });
    } catch (err) {
      throw translateDbError(err, { uq_tenants_name: ['Tenant', name] });
    }
  }

  async findTenantByName(name: string): Promise<Tenant | null> {
    const row = await this.dataSource.getRepository(TenantEntity).findOneBy({ name });
    return row ? toTenant(row) : null;
  }

  async findTenantById(id: string): Promise<Tenant | null> {
    if (!isUuid(id)) return null;
    const row = await this.dataSource.getRepository(TenantEntity).findOneBy({ id });
    return row ? toTenant(row) : null;
  }

  async listTenants(): Promise<Tenant[]> {
    const rows = await this.dataSource.getRepository(TenantEntity).find({ order: { name: 'ASC' } });
    return rows.map(toTenant);
  }

  async createUser(newUser: NewUser): Promise<{ user: User; userProject: Project }> {
    const { tenantId, login, role, tokenHash } = newUser;
    const projectName = userProjectName(login);
    if (!isUuid(tenantId)) throw new NotFoundError('Tenant', tenantId);
    try {
      return await this.dataSource.transaction(async (em) => {
        const user = await insert(em, UserEntity, { tenantId, login, role });
        const userProject = await insert(em, ProjectEntity, { tenantId, name: projectName, kind: 'SYSTEM', ownerUserId: user.id });
        await insert(em, ApiTokenEntity, { userId: user.id, tokenHash, label: null, revokedAt: null });
        return { user: toUser(user), userProject: toProject(userProject) };
      });
    } catch (err) {
      throw translateDbError(err, {
        fk_users_tenant: ['Tenant', tenantId],
        uq_users_tenant_login: ['User', login],
        uq_projects_tenant_name: ['Project', projectName],
        uq_api_tokens_hash: ['ApiToken', '(hash)'],
      });
    }
  }

  async findUserByLogin(tenantId: string, login: string): Promise<User | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.dataSource.getRepository(UserEntity).findOneBy({ tenantId, login });
    return row ? toUser(row) : null;
  }

  async findUserById(id: string): Promise<User | null> {
    if (!isUuid(id)) return null;
    const row = await this.dataSource.getRepository(UserEntity).findOneBy({ id });
    return row ? toUser(row) : null;
  }

  async findUserByTokenHash(tokenHash: string): Promise<User | null> {
    const row = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(ApiTokenEntity, 't', 't.user_id = u.id')
      .where('t.token_hash = :tokenHash AND t.revoked_at IS NULL', { tokenHash })
      .getOne();
    return row ? toUser(row) : null;
  }

  async addApiToken(userId: string, tokenHash: string, label: string | null): Promise<void> {
    const names = { fk_api_tokens_user: ['User', userId], uq_api_tokens_hash: ['ApiToken', '(hash)'] } as const;
    if (!isUuid(userId)) throw new NotFoundError('User', userId);
    try {
      await this.dataSource.getRepository(ApiTokenEntity).insert({ userId, tokenHash, label, revokedAt: null });
    } catch (err) {
      throw translateDbError(err, names);
    }
  }

  async listUsers(tenantId: string): Promise<User[]> {
    if (!isUuid(tenantId)) return [];
    const rows = await this.dataSource.getRepository(UserEntity).find({ where: { tenantId }, order: { login: 'ASC' } });
    return rows.map(toUser);
  }

  async createProject(tenantId: string, name: string, kind: ProjectKind, ownerUserId: string | null): Promise<Project> {
    const names = {
      fk_projects_tenant: ['Tenant', tenantId],
      fk_projects_owner: ['User', ownerUserId ?? ''],
      uq_projects_tenant_name: ['Project', name],
    } as const;
    if (!isUuid(tenantId)) throw new NotFoundError('Tenant', tenantId);
    if (ownerUserId !== null && !isUuid(ownerUserId)) throw new NotFoundError('User', ownerUserId);
    try {
      return toProject(await insert(this.dataSource.manager, ProjectEntity, { tenantId, name, kind, ownerUserId }));
    } catch (err) {
      throw translateDbError(err, names);
    }
  }

  async findProjectByName(tenantId: string, name: string): Promise<Project | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.dataSource.getRepository(ProjectEntity).findOneBy({ tenantId, name });
    return row ? toProject(row) : null;
  }

  async findProjectById(id: string): Promise<Project | null> {
    if (!isUuid(id)) return null;
    const row = await this.dataSource.getRepository(ProjectEntity).findOneBy({ id });
    return row ? toProject(row) : null;
  }

  async listProjects(tenantId: string): Promise<Project[]> {
    if (!isUuid(tenantId)) return [];
    const rows = await this.dataSource.getRepository(ProjectEntity).find({ where: { tenantId }, order: { name: 'ASC' } });
    return rows.map(toProject);
  }

  async upsertMembership(projectId: string, userId: string, role: ProjectRole): Promise<ProjectMembership> {
    const names = { fk_project_members_project: ['Project', projectId], fk_project_members_user: ['User', userId] } as const;
    // A malformed id references nothing: answer as the foreign key would, without a query.
    if (!isUuid(projectId)) throw new NotFoundError('Project', projectId);
    if (!isUuid(userId)) throw new NotFoundError('User', userId);
    try {
      // One statement, so concurrent upserts of the same member cannot collide.
      await this.dataSource.query(
        `INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        [projectId, userId, role],
      );
    } catch (err) {
      throw translateDbError(err, names);
    }
    return { projectId, userId, role };
  }

  async findMembership(projectId: string, userId: string): Promise<ProjectMembership | null> {
    if (!isUuid(projectId) || !isUuid(userId)) return null;
    const row = await this.dataSource.getRepository(ProjectMemberEntity).findOneBy({ projectId, userId });
    return row ? toMembership(row) : null;
  }

  async listMemberships(userId: string): Promise<ProjectMembership[]> {
    if (!isUuid(userId)) return [];
    const rows = await this.dataSource.getRepository(ProjectMemberEntity).find({ where: { userId }, order: { projectId: 'ASC' } });
    return rows.map(toMembership);
  }

  async listProjectMembers(projectId: string): Promise<ProjectMember[]> {
    if (!isUuid(projectId)) return [];
    const { entities, raw } = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(ProjectMemberEntity, 'm', 'm.user_id = u.id')
      .addSelect('m.role', 'member_role')
      .where('m.project_id = :projectId', { projectId })
      .orderBy('u.login', 'ASC')
      .getRawAndEntities<{ u_id: string; member_role: ProjectRole }>();
    const roleOf = new Map(raw.map((r) => [r.u_id, r.member_role]));
    return entities.map((user) => ({ user: toUser(user), role: roleOf.get(user.id)! }));
  }
}

/** Inserts one row and returns it with the database-generated id and created_at filled in. */
async function insert<E extends object>(em: EntityManager, entity: new () => E, values: Partial<E>): Promise<E> {
  const row = em.create(entity, values as E);
  await em.insert(entity, row); // TypeORM merges RETURNING id, created_at into `row`
  return row;
}

const toTenant = (r: TenantEntity): Tenant => ({ id: r.id, name: r.name, createdAt: r.createdAt });

const toUser = (r: UserEntity): User => ({ id: r.id, tenantId: r.tenantId, login: r.login, role: r.role, createdAt: r.createdAt });

const toProject = (r: ProjectEntity): Project => ({
  id: r.id,
  tenantId: r.tenantId,
  name: r.name,
  kind: r.kind,
  ownerUserId: r.ownerUserId,
  createdAt: r.createdAt,
});

const toMembership = (r: ProjectMemberEntity): ProjectMembership => ({ projectId: r.projectId, userId: r.userId, role: r.role });
