import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { TypeOrmIdentityStore, TypeOrmSettingsStore } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

describe.each(testDatabases())('TypeOrmSettingsStore ($name)', (driver) => {
  let db: Database;
  let store: TypeOrmSettingsStore;
  let tenantId: string;
  let projectId: string;
  let otherTenantId: string;
  beforeAll(async () => {
    db = await driver.open();
    store = new TypeOrmSettingsStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    tenantId = (await identity.createTenant('acme')).tenant.id;
    otherTenantId = (await identity.createTenant('globex')).tenant.id;
    projectId = (await identity.createProject(tenantId, 'p', 'NORMAL', null)).id;
  });
  afterAll(async () => db?.close());

  it('upserts one row per (tenant, project, key), tenant-wide rows included', async () => {
    await store.put({ tenantId, projectId: null, key: 'ai.default.model', value: 'a', secret: false });
    await store.put({ tenantId, projectId: null, key: 'ai.default.model', value: 'b', secret: false });
    await store.put({ tenantId, projectId, key: 'ai.default.model', value: 'c', secret: false });
    expect((await store.list(tenantId, null)).map((s) => s.value)).toEqual(['b']);
    expect((await store.list(tenantId, projectId)).map((s) => s.value)).toEqual(['c']);
    expect(await store.list(otherTenantId, null)).toEqual([]);
  });

  it('keeps concurrent upserts of one key to one row', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.put({ tenantId, projectId: null, key: 'race', value: String(i), secret: false })));
    expect((await store.list(tenantId, null)).filter((s) => s.key === 'race')).toHaveLength(1);
  });

  it('deletes a key of one scope only', async () => {
    await store.put({ tenantId, projectId, key: 'gone', value: 'x', secret: true });
    expect(await store.delete(tenantId, null, 'gone')).toBe(false);
    expect(await store.delete(tenantId, projectId, 'gone')).toBe(true);
    expect((await store.list(tenantId, projectId)).some((s) => s.key === 'gone')).toBe(false);
  });
});
