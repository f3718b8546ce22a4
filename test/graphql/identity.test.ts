import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

describe.each(testDatabases())('identity and auth over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('answers me for the bootstrap admin created on an empty database', async () => {
    const r = await t.gql('{ me { login role tenant { name } } }');
    expect(r.errors).toBeUndefined();
    expect(r.data?.me).toEqual({ login: 'admin', role: 'SYSTEM_ADMIN', tenant: { name: 'default' } });
  });

  it('refuses a missing or unknown token with UNAUTHENTICATED', async () => {
    expect(codeOf(await t.gql('{ me { login } }', {}, null))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql('{ me { login } }', {}, 'vance_not-a-real-token'))).toBe('UNAUTHENTICATED');
  });

  it('creates a user with its _user_ project and a token that is shown once and works', async () => {
    const r = await t.gql(`mutation { createUser(login: "alice", role: MEMBER) { user { login role } token } }`);
    expect(r.errors).toBeUndefined();
    const token = r.data!.createUser.token as string;
    expect(token).toMatch(/^vance_/);
    const me = await t.gql('{ me { login } projects { name kind } }', {}, token);
    expect(me.data?.me.login).toBe('alice');
    expect(me.data?.projects.map((p: { name: string }) => p.name).sort()).toEqual(['_tenant', '_user_alice']);
    // Only the hash is stored.
    const rows = await db.dataSource.query('SELECT token_hash FROM api_tokens');
    expect(rows.some((row: { token_hash: string }) => row.token_hash === token)).toBe(false);
  });

  it('rejects a duplicate login with CONFLICT and an invalid one with BAD_USER_INPUT naming the field', async () => {
    await t.gql(`mutation { createUser(login: "dup") { token } }`);
    expect(codeOf(await t.gql(`mutation { createUser(login: "dup") { token } }`))).toBe('CONFLICT');
    const bad = await t.gql(`mutation { createUser(login: "../Evil") { token } }`);
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.extensions?.diagnostics?.[0]?.field).toBe('login');
  });

  it('lets only system admins create tenants and keeps members from administering', async () => {
    const member = (await t.gql(`mutation { createUser(login: "bob") { token } }`)).data!.createUser.token;
    expect(codeOf(await t.gql(`mutation { createTenant(name: "nope") { id } }`, {}, member))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(`mutation { createProject(name: "p") { id } }`, {}, member))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(`mutation { createUser(login: "carol") { token } }`, {}, member))).toBe('FORBIDDEN');
    const created = await t.gql(`mutation { createTenant(name: "acme") { name } }`);
    expect(created.data?.createTenant.name).toBe('acme');
  });

  it('gives a tenant admin its own tenant only: another tenant is NOT_FOUND', async () => {
    await t.gql(`mutation { createTenant(name: "globex") { id } }`);
    const globexAdmin = (await t.gql(`mutation { createUser(login: "gadmin", tenant: "globex", role: TENANT_ADMIN) { token } }`)).data!.createUser.token;
    expect(codeOf(await t.gql(`mutation { createUser(login: "x", tenant: "default") { token } }`, {}, globexAdmin))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(`mutation { createUser(login: "root2", role: SYSTEM_ADMIN) { token } }`, {}, globexAdmin))).toBe('FORBIDDEN');
    const tenants = await t.gql('{ tenants { name } }', {}, globexAdmin);
    expect(tenants.data?.tenants).toEqual([{ name: 'globex' }]);
  });

  it('adds project members; a project of another tenant is NOT_FOUND, never FORBIDDEN', async () => {
    await t.gql(`mutation { createProject(name: "apollo") { name myRole } }`);
    await t.gql(`mutation { createUser(login: "dave") { token } }`);
    const m = await t.gql(`mutation { addProjectMember(project: "apollo", login: "dave", role: ADMIN) { project login role } }`);
    expect(m.data?.addProjectMember).toEqual({ project: 'apollo', login: 'dave', role: 'ADMIN' });
    await t.gql(`mutation { createTenant(name: "initech") { id } }`);
    const other = (await t.gql(`mutation { createUser(login: "ia", tenant: "initech", role: TENANT_ADMIN) { token } }`)).data!.createUser.token;
    const r = await t.gql(`{ documents(layer: PROJECT, project: "apollo") { path } }`, {}, other);
    expect(codeOf(r)).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(`mutation { addProjectMember(project: "apollo", login: "ia") { role } }`, {}, other))).toBe('NOT_FOUND');
  });

  it('lists every user of the tenant to tenant and system admins, and a member only itself', async () => {
    const create = async (login: string, role: string, tenant = 'default') =>
      (await t.gql(`mutation($l: String!, $r: UserRole!, $t: String) { createUser(login: $l, role: $r, tenant: $t) { token } }`, { l: login, r: role, t: tenant })).data!.createUser.token as string;
    const erin = await create('erin', 'MEMBER');
    const tina = await create('tina', 'TENANT_ADMIN');
    await t.gql(`mutation { createTenant(name: "umbrella") { id } }`);
    const umbrellaAdmin = await create('uadmin', 'TENANT_ADMIN', 'umbrella');

    const all = await t.gql('{ users { login role tenant { name } } }');
    expect(all.errors).toBeUndefined();
    const logins = all.data!.users.map((u: { login: string }) => u.login);
    expect(logins).toEqual(expect.arrayContaining(['admin', 'erin', 'tina']));
    expect(logins).toEqual([...logins].sort());
    expect(logins).not.toContain('uadmin');
    expect(new Set(all.data!.users.map((u: { tenant: { name: string } }) => u.tenant.name))).toEqual(new Set(['default']));
    expect((await t.gql('{ users { login } }', {}, tina)).data!.users.map((u: { login: string }) => u.login)).toEqual(logins);
    expect((await t.gql('{ users { login role } }', {}, erin)).data!.users).toEqual([{ login: 'erin', role: 'MEMBER' }]);
    expect((await t.gql('{ users { login } }', {}, umbrellaAdmin)).data!.users).toEqual([{ login: 'uadmin' }]);
  });

  it('lists project members to its members and tenant admins; outsiders and other tenants get NOT_FOUND', async () => {
    const create = async (login: string, role = 'MEMBER', tenant = 'default') =>
      (await t.gql(`mutation($l: String!, $r: UserRole!, $t: String) { createUser(login: $l, role: $r, tenant: $t) { token } }`, { l: login, r: role, t: tenant })).data!.createUser.token as string;
    const members = '{ projectMembers(project: "hermes") { project login role } }';
    expect((await t.gql(`mutation { createProject(name: "hermes") { name } }`)).errors).toBeUndefined();
    const mia = await create('mia');
    const otto = await create('otto');
    const tad = await create('tad', 'TENANT_ADMIN');
    expect((await t.gql(`mutation { addProjectMember(project: "hermes", login: "mia") { role } }`)).errors).toBeUndefined();
    const expected = [{ project: 'hermes', login: 'admin', role: 'ADMIN' }, { project: 'hermes', login: 'mia', role: 'MEMBER' }];

    const asAdmin = await t.gql(members);
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data!.projectMembers).toEqual(expected);
    expect((await t.gql(members, {}, mia)).data!.projectMembers).toEqual(expected);
    // A tenant admin who is no member still sees the project, as in `projects`.
    expect((await t.gql(members, {}, tad)).data!.projectMembers).toEqual(expected);
    expect(codeOf(await t.gql(members, {}, otto))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql('{ projectMembers(project: "no-such-project") { login } }'))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql('{ projectMembers(project: "_user_mia") { login } }', {}, otto))).toBe('NOT_FOUND');

    await t.gql(`mutation { createTenant(name: "hooli") { id } }`);
    const hooliAdmin = await create('hadmin', 'TENANT_ADMIN', 'hooli');
    expect(codeOf(await t.gql(members, {}, hooliAdmin))).toBe('NOT_FOUND');
  });

  it('answers GET /healthz', async () => {
    const res = await fetch(t.url.replace('/graphql', '/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
