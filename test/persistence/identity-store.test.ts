import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NameTakenError, NotFoundError } from '../../api/src/domain/errors';
import { TypeOrmIdentityStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabases())('TypeOrmIdentityStore ($name)', (driver) => {
  let db: Database;
  let store: TypeOrmIdentityStore;

  beforeAll(async () => {
    db = await driver.open();
    store = new TypeOrmIdentityStore(db.dataSource);
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (sql: string, params: unknown[] = []) => Number((await db.dataSource.query(sql, params))[0].n);

  it('creates a tenant together with its _tenant SYSTEM project', async () => {
    expect(await store.countTenants()).toBe(0);
    const { tenant, tenantProject } = await store.createTenant('acme');
    expect(tenant).toEqual({ id: expect.any(String), name: 'acme', createdAt: expect.any(Date) });
    expect(tenantProject).toEqual({
      id: expect.any(String), tenantId: tenant.id, name: '_tenant', kind: 'SYSTEM', ownerUserId: null, createdAt: expect.any(Date),
    });
    expect(await store.countTenants()).toBe(1);
    expect(await store.findTenantByName('acme')).toEqual(tenant);
    expect(await store.findTenantById(tenant.id)).toEqual(tenant);
    expect(await store.findTenantById('not-a-uuid')).toBeNull();
    expect(await store.findProjectByName(tenant.id, '_tenant')).toEqual(tenantProject);
    expect(await store.findProjectById(tenantProject.id)).toEqual(tenantProject);
  });

  it('refuses a duplicate tenant name with NameTakenError and leaves no half-made rows', async () => {
    const projectsBefore = await count('SELECT count(*) AS n FROM projects');
    const error = await store.createTenant('acme').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameTakenError);
    expect(error).toMatchObject({ kind: 'Tenant', key: 'acme', code: 'NAME_TAKEN' });
    expect(await count('SELECT count(*) AS n FROM projects')).toBe(projectsBefore);
    expect(await store.countTenants()).toBe(1);
  });

  it('creates a user with its _user_<login> project and first token in one go', async () => {
    const tenant = (await store.findTenantByName('acme'))!;
    const { user, userProject } = await store.createUser({ tenantId: tenant.id, login: 'alice', role: 'TENANT_ADMIN', tokenHash: 'hash-alice-1' });
    expect(user).toEqual({ id: expect.any(String), tenantId: tenant.id, login: 'alice', role: 'TENANT_ADMIN', createdAt: expect.any(Date) });
    expect(userProject).toMatchObject({ tenantId: tenant.id, name: '_user_alice', kind: 'SYSTEM', ownerUserId: user.id });
    expect(await store.findUserByLogin(tenant.id, 'alice')).toEqual(user);
    expect(await store.findUserById(user.id)).toEqual(user);
    expect(await store.findUserByTokenHash('hash-alice-1')).toEqual(user);
    expect(await store.findUserByTokenHash('hash-unknown')).toBeNull();
  });

  it('rolls the whole user back when any part clashes', async () => {
    const tenant = (await store.findTenantByName('acme'))!;
    const users = () => count('SELECT count(*) AS n FROM users');
    const before = await users();
    await expect(store.createUser({ tenantId: tenant.id, login: 'alice', role: 'MEMBER', tokenHash: 'other' }))
      .rejects.toMatchObject({ constructor: NameTakenError, kind: 'User', key: 'alice' });
    // The token clashes last, after the user and its project were inserted: both must vanish.
    await expect(store.createUser({ tenantId: tenant.id, login: 'bob', role: 'MEMBER', tokenHash: 'hash-alice-1' }))
      .rejects.toMatchObject({ constructor: NameTakenError, kind: 'ApiToken' });
    expect(await users()).toBe(before);
    expect(await store.findProjectByName(tenant.id, '_user_bob')).toBeNull();
    // A project squatting on the _user_ name blocks the user as a whole.
    await store.createProject(tenant.id, '_user_carol', 'NORMAL', null);
    await expect(store.createUser({ tenantId: tenant.id, login: 'carol', role: 'MEMBER', tokenHash: 'hash-carol' }))
      .rejects.toMatchObject({ kind: 'Project', key: '_user_carol' });
    expect(await store.findUserByLogin(tenant.id, 'carol')).toBeNull();
    await expect(store.createUser({ tenantId: NO_SUCH_ID, login: 'x', role: 'MEMBER', tokenHash: 'h-x' }))
      .rejects.toMatchObject({ constructor: NotFoundError, kind: 'Tenant' });
  });

  it('allows the same login and project name in another tenant', async () => {
    const { tenant } = await store.createTenant('globex');
    const { user } = await store.createUser({ tenantId: tenant.id, login: 'alice', role: 'MEMBER', tokenHash: 'hash-alice-globex' });
    expect(user.tenantId).toBe(tenant.id);
    expect((await store.listTenants()).map((t) => t.name)).toEqual(['acme', 'globex']);
  });

  it('adds, looks up and honours revocation of api tokens', async () => {
    const tenant = (await store.findTenantByName('acme'))!;
    const alice = (await store.findUserByLogin(tenant.id, 'alice'))!;
    await store.addApiToken(alice.id, 'hash-alice-2', 'laptop');
    expect(await store.findUserByTokenHash('hash-alice-2')).toEqual(alice);
    await expect(store.addApiToken(alice.id, 'hash-alice-2', 'again')).rejects.toBeInstanceOf(NameTakenError);
    await expect(store.addApiToken(NO_SUCH_ID, 'hash-nobody', null)).rejects.toMatchObject({ constructor: NotFoundError, kind: 'User' });
    await db.dataSource.query(`UPDATE api_tokens SET revoked_at = now() WHERE token_hash = 'hash-alice-2'`);
    expect(await store.findUserByTokenHash('hash-alice-2')).toBeNull();
    const rows = await db.dataSource.query(`SELECT label FROM api_tokens WHERE user_id = $1 ORDER BY created_at`, [alice.id]);
    expect(rows).toEqual([{ label: null }, { label: 'laptop' }]);
  });

  it('creates and lists projects, refusing duplicates per tenant', async () => {
    const tenant = (await store.findTenantByName('acme'))!;
    const project = await store.createProject(tenant.id, 'website', 'NORMAL', null);
    expect(project).toMatchObject({ tenantId: tenant.id, name: 'website', kind: 'NORMAL', ownerUserId: null });
    await expect(store.createProject(tenant.id, 'website', 'NORMAL', null)).rejects.toMatchObject({ kind: 'Project', key: 'website' });
    await expect(store.createProject(NO_SUCH_ID, 'x', 'NORMAL', null)).rejects.toBeInstanceOf(NotFoundError);
    expect((await store.listProjects(tenant.id)).map((p) => p.name)).toEqual(['_tenant', '_user_alice', '_user_carol', 'website']);
    expect(await store.findProjectById('nope')).toBeNull();
  });

  it('upserts memberships', async () => {
    const tenant = (await store.findTenantByName('acme'))!;
    const alice = (await store.findUserByLogin(tenant.id, 'alice'))!;
    const website = (await store.findProjectByName(tenant.id, 'website'))!;
    const tenantProject = (await store.findProjectByName(tenant.id, '_tenant'))!;
    expect(await store.findMembership(website.id, alice.id)).toBeNull();
    expect(await store.upsertMembership(website.id, alice.id, 'MEMBER')).toEqual({ projectId: website.id, userId: alice.id, role: 'MEMBER' });
    expect(await store.upsertMembership(website.id, alice.id, 'ADMIN')).toEqual({ projectId: website.id, userId: alice.id, role: 'ADMIN' });
    expect(await store.findMembership(website.id, alice.id)).toEqual({ projectId: website.id, userId: alice.id, role: 'ADMIN' });
    await store.upsertMembership(tenantProject.id, alice.id, 'MEMBER');
    expect(await store.listMemberships(alice.id)).toHaveLength(2);
    await expect(store.upsertMembership(NO_SUCH_ID, alice.id, 'MEMBER')).rejects.toMatchObject({ constructor: NotFoundError, kind: 'Project' });
    await expect(store.upsertMembership(website.id, NO_SUCH_ID, 'MEMBER')).rejects.toMatchObject({ constructor: NotFoundError, kind: 'User' });
    await Promise.all(['ADMIN', 'MEMBER', 'ADMIN', 'MEMBER'].map((r) => store.upsertMembership(website.id, alice.id, r as 'ADMIN' | 'MEMBER')));
    expect(await count('SELECT count(*) AS n FROM project_members WHERE project_id = $1', [website.id])).toBe(1);
  });

  it('creates a tenant atomically under concurrency: one of five wins', async () => {
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.createTenant('race')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const tenant = (await store.findTenantByName('race'))!;
    expect((await store.listProjects(tenant.id)).map((p) => p.name)).toEqual(['_tenant']);
  });
});
