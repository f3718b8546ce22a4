import { describe, expect, it } from 'vitest';
import { DomainError, UnauthenticatedError } from '../errors';
import { InMemoryIdentityStore } from '../testing';
import { hashApiToken } from './api-token';
import { IdentityService } from './identity-service';

const ROOT_TOKEN = 'vance_configured_root_token';

function service() {
  const store = new InMemoryIdentityStore();
  return { store, identity: new IdentityService(store) };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('IdentityService.bootstrap', () => {
  it('creates tenant default, a SYSTEM_ADMIN admin with _tenant and _user_admin, and returns a generated token', async () => {
    const { store, identity } = service();
    const result = await identity.bootstrap(undefined);
    expect(result.created).toBe(true);
    expect(result.generatedToken).toMatch(/^vance_[A-Za-z0-9_-]{40,}$/);
    const tenant = await store.findTenantByName('default');
    expect(tenant).not.toBeNull();
    const admin = await store.findUserByLogin(tenant!.id, 'admin');
    expect(admin?.role).toBe('SYSTEM_ADMIN');
    const projects = await store.listProjects(tenant!.id);
    expect(projects.map((p) => [p.name, p.kind, p.ownerUserId])).toEqual([
      ['_tenant', 'SYSTEM', null],
      ['_user_admin', 'SYSTEM', admin!.id],
    ]);
    const principal = await identity.authenticate(result.generatedToken);
    expect(principal.user.login).toBe('admin');
    expect(principal.tenant.name).toBe('default');
    expect(principal.tenantProjectId).toBe(projects[0]?.id);
    expect(principal.userProjectId).toBe(projects[1]?.id);
  });

  it('uses a configured token, returns no generated token, and stores only its hash', async () => {
    const { store, identity } = service();
    expect(await identity.bootstrap(ROOT_TOKEN)).toEqual({ created: true, generatedToken: null });
    expect((await identity.authenticate(ROOT_TOKEN)).user.role).toBe('SYSTEM_ADMIN');
    expect(store.apiTokens().map((t) => t.tokenHash)).toEqual([hashApiToken(ROOT_TOKEN)]);
  });

  it('creates nothing on a store that already has a tenant', async () => {
    const { store, identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    expect(await identity.bootstrap(undefined)).toEqual({ created: false, generatedToken: null });
    expect(await identity.bootstrap(ROOT_TOKEN)).toEqual({ created: false, generatedToken: null });
    expect(store.calls).toMatchObject({ createTenant: 1, createUser: 1 });
    expect(store.apiTokens()).toHaveLength(1);
    expect(await store.countTenants()).toBe(1);
  });

  it('attaches a newly configured token to the existing admin on a later start', async () => {
    const { store, identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    await identity.bootstrap('vance_rotated_token');
    expect((await identity.authenticate('vance_rotated_token')).user.login).toBe('admin');
    expect((await identity.authenticate(ROOT_TOKEN)).user.login).toBe('admin');
    expect(store.calls.createUser).toBe(1);
  });
});

describe('IdentityService.bootstrap on several instances', () => {
  // Bug: count-then-create is not atomic, so when N instances start together on an empty database
  // (DESIGN §7) all but one fail their boot with NAME_TAKEN from createTenant('default').
  it('lets instances that start together on an empty store all boot, creating one admin', async () => {
    const store = new InMemoryIdentityStore();
    const instances = [new IdentityService(store), new IdentityService(store)];
    await Promise.all(instances.map((identity) => identity.bootstrap(ROOT_TOKEN)));
    expect(await store.countTenants()).toBe(1);
    expect((await instances[1]!.authenticate(ROOT_TOKEN)).user.login).toBe('admin');
  });
});

describe('IdentityService.authenticate', () => {
  it.each([undefined, null, ''])('refuses a missing token (%j) as UNAUTHENTICATED', async (token) => {
    const { identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    const error = await failure(identity.authenticate(token));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error.category).toBe('UNAUTHENTICATED');
  });

  it('refuses an unknown token as UNAUTHENTICATED', async () => {
    const { identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    expect(await failure(identity.authenticate('vance_unknown'))).toBeInstanceOf(UnauthenticatedError);
    expect(await failure(identity.authenticate(hashApiToken(ROOT_TOKEN)))).toBeInstanceOf(UnauthenticatedError);
  });

  it('reuses a recent authentication without asking the store again', async () => {
    const { store, identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    const before = store.calls.findUserByTokenHash ?? 0;
    await identity.authenticate(ROOT_TOKEN);
    await identity.authenticate(ROOT_TOKEN);
    expect(store.calls.findUserByTokenHash).toBe(before + 1);
  });

  it('asks the store every time when the cache TTL is 0', async () => {
    const store = new InMemoryIdentityStore();
    const identity = new IdentityService(store, { cacheTtlMs: 0 });
    await identity.bootstrap(ROOT_TOKEN);
    const before = store.calls.findUserByTokenHash ?? 0;
    await identity.authenticate(ROOT_TOKEN);
    await identity.authenticate(ROOT_TOKEN);
    expect(store.calls.findUserByTokenHash).toBe(before + 2);
  });
});

describe('IdentityService tokens', () => {
  it('returns a token from createUser that authenticates as the new user, storing only its hash', async () => {
    const { store, identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    const admin = await identity.authenticate(ROOT_TOKEN);
    const { user, token } = await identity.createUser(admin, 'bob', null, 'MEMBER');
    const bob = await identity.authenticate(token);
    expect(bob.user).toEqual(user);
    expect(bob.tenant.name).toBe('default');
    expect(bob.userProjectId).toBe((await store.findProjectByName(user.tenantId, '_user_bob'))?.id);
    expect(bob.tenantProjectId).toBe(admin.tenantProjectId);
    const stored = store.apiTokens().filter((t) => t.userId === user.id);
    expect(stored.map((t) => t.tokenHash)).toEqual([hashApiToken(token)]);
    expect(JSON.stringify(store.apiTokens())).not.toContain(token);
  });

  it('issues further tokens that authenticate as the caller, each one distinct', async () => {
    const { identity } = service();
    await identity.bootstrap(ROOT_TOKEN);
    const admin = await identity.authenticate(ROOT_TOKEN);
    const first = await identity.createApiToken(admin, 'cli');
    const second = await identity.createApiToken(admin, null);
    expect(first).not.toBe(second);
    expect((await identity.authenticate(first)).user.id).toBe(admin.user.id);
    expect((await identity.authenticate(second)).user.id).toBe(admin.user.id);
  });
});
