import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../api/src/domain/cascade/errors';
import type { ProjectRef } from '../../api/src/domain/cascade/document-store';
import { NotFoundError } from '../../api/src/domain/errors';
import { TypeOrmDocumentStore, TypeOrmIdentityStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

describe.each(testDatabases())('TypeOrmDocumentStore ($name)', (driver) => {
  let db: Database;
  let store: TypeOrmDocumentStore;
  let ref: ProjectRef;
  let otherProject: ProjectRef;
  let otherTenant: ProjectRef;

  beforeAll(async () => {
    db = await driver.open();
    store = new TypeOrmDocumentStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    const { tenant, tenantProject } = await identity.createTenant('docs');
    const project = await identity.createProject(tenant.id, 'other', 'NORMAL', null);
    const { tenant: t2, tenantProject: p2 } = await identity.createTenant('docs-2');
    ref = { tenantId: tenant.id, projectId: tenantProject.id };
    otherProject = { tenantId: tenant.id, projectId: project.id };
    otherTenant = { tenantId: t2.id, projectId: p2.id };
  });
  afterAll(async () => {
    await db?.close();
  });

  const put = (path: string, content: string, expectedVersion?: number, at: ProjectRef = ref) =>
    store.put({ ...at, path, content, author: 'alice', ...(expectedVersion === undefined ? {} : { expectedVersion }) });

  it('creates at version 1, finds it, and counts up on every write', async () => {
    const created = await put('a/one.md', 'v1');
    expect(created).toMatchObject({ ...ref, path: 'a/one.md', content: 'v1', version: 1, updatedBy: 'alice' });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(typeof created.version).toBe('number');
    const updated = await put('a/one.md', 'v2');
    expect(updated).toMatchObject({ id: created.id, version: 2, content: 'v2' });
    expect(updated.createdAt).toEqual(created.createdAt);
    expect(await store.find(ref, 'a/one.md')).toEqual(updated);
    expect(await store.find(ref, 'a/missing.md')).toBeNull();
  });

  it('scopes every read and write to tenant and project', async () => {
    await put('scoped.md', 'mine');
    expect(await store.find(otherProject, 'scoped.md')).toBeNull();
    expect(await store.listByPrefix(otherProject, '')).toEqual([]);
    expect(await store.history(otherProject, 'scoped.md')).toEqual([]);
    // Same project id claimed by another tenant: invisible, and writes are refused as "not found".
    const forged = { tenantId: otherTenant.tenantId, projectId: ref.projectId };
    expect(await store.find(forged, 'scoped.md')).toBeNull();
    await expect(put('scoped.md', 'stolen', undefined, forged)).rejects.toBeInstanceOf(NotFoundError);
    await expect(put('new-here.md', 'stolen', undefined, forged)).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.delete({ ...forged, path: 'scoped.md', author: null })).toBeNull();
    expect((await store.find(ref, 'scoped.md'))?.content).toBe('mine');
    // The same path in another project is another document.
    expect((await put('scoped.md', 'theirs', undefined, otherProject)).version).toBe(1);
    expect(await store.find({ tenantId: ref.tenantId, projectId: 'not-a-uuid' }, 'scoped.md')).toBeNull();
  });

  it('lists live documents by prefix, ordered by path, matching %, _ and \\ literally', async () => {
    for (const p of ['l/b.md', 'l/a.md', 'l/100%/x.md', 'l/1000/x.md', 'l/a_b.md', 'l/axb.md', 'l/back\\slash.md', 'l/backxslash.md', 'm/a.md']) {
      await put(p, p);
    }
    const paths = async (prefix: string) => (await store.listByPrefix(ref, prefix)).map((d) => d.path);
    expect(await paths('l/')).toEqual(['l/100%/x.md', 'l/1000/x.md', 'l/a.md', 'l/a_b.md', 'l/axb.md', 'l/b.md', 'l/back\\slash.md', 'l/backxslash.md']);
    expect(await paths('l/100%')).toEqual(['l/100%/x.md']);
    expect(await paths('l/a_')).toEqual(['l/a_b.md']);
    expect(await paths('l/back\\')).toEqual(['l/back\\slash.md']);
    expect(await paths('L/')).toEqual([]);
    expect((await paths('')).length).toBeGreaterThanOrEqual(9);
  });

  it('orders by code point (collation C) on every driver', async () => {
    for (const p of ['o/b', 'o/B', 'o/_', 'o/a', 'o/Ä', 'o/Z']) await put(p, p);
    expect((await store.listByPrefix(ref, 'o/')).map((d) => d.path)).toEqual(['o/B', 'o/Z', 'o/_', 'o/a', 'o/b', 'o/Ä']);
  });

  it('enforces expectedVersion and writes nothing on a conflict', async () => {
    await put('c.md', 'one');
    await put('c.md', 'two', 1);
    const before = await store.history(ref, 'c.md');
    const error = await put('c.md', 'stale', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect(error).toMatchObject({ docPath: 'c.md', expected: 1, actual: 2, code: 'VERSION_CONFLICT' });
    await expect(put('c.md', 'exists', 0)).rejects.toMatchObject({ expected: 0, actual: 2 });
    await expect(put('never.md', 'x', 3)).rejects.toMatchObject({ expected: 3, actual: null });
    expect(await store.find(ref, 'never.md')).toBeNull();
    expect((await store.find(ref, 'c.md'))?.content).toBe('two');
    expect(await store.history(ref, 'c.md')).toEqual(before);
  });

  it('creates with expectedVersion 0 only when nothing is live', async () => {
    expect((await put('zero.md', 'first', 0)).version).toBe(1);
    await expect(put('zero.md', 'second', 0)).rejects.toBeInstanceOf(VersionConflictError);
  });

  it('soft-deletes, keeps the history, and continues the versions on recreate', async () => {
    await put('d.md', 'one');
    await put('d.md', 'two');
    await expect(store.delete({ ...ref, path: 'd.md', author: 'bob', expectedVersion: 1 })).rejects.toMatchObject({ expected: 1, actual: 2 });
    expect(await store.delete({ ...ref, path: 'd.md', author: 'bob', expectedVersion: 2 })).toBe(3);
    expect(await store.find(ref, 'd.md')).toBeNull();
    expect((await store.listByPrefix(ref, 'd.')).length).toBe(0);
    expect(await store.delete({ ...ref, path: 'd.md', author: 'bob' })).toBeNull();
    expect(await store.delete({ ...ref, path: 'd.md', author: 'bob', expectedVersion: 0 })).toBeNull();
    await expect(store.delete({ ...ref, path: 'd.md', author: 'bob', expectedVersion: 3 })).rejects.toMatchObject({ actual: null });
    await expect(put('d.md', 'stale', 3)).rejects.toBeInstanceOf(VersionConflictError);
    const recreated = await put('d.md', 'again', 0);
    expect(recreated.version).toBe(4);
    const history = await store.history(ref, 'd.md');
    expect(history.map((h) => [h.version, h.content, h.deleted, h.author])).toEqual([
      [4, 'again', false, 'alice'],
      [3, null, true, 'bob'],
      [2, 'two', false, 'alice'],
      [1, 'one', false, 'alice'],
    ]);
    expect(history[0]?.createdAt).toBeInstanceOf(Date);
    expect(await store.history(ref, 'never-existed.md')).toEqual([]);
  });

  it('lets exactly one of 20 concurrent writers with the same expectedVersion win', async () => {
    await put('race.md', 'base');
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => put('race.md', `writer ${i}`, 1)));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const r of lost) expect(r.reason).toBeInstanceOf(VersionConflictError);
    expect((await store.find(ref, 'race.md'))?.version).toBe(2);
    expect(await store.history(ref, 'race.md')).toHaveLength(2);
  });

  it('loses no update among 20 concurrent unconditional writers', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => put('many.md', `writer ${i}`)));
    const doc = await store.find(ref, 'many.md');
    expect(doc?.version).toBe(20);
    const history = await store.history(ref, 'many.md');
    expect(history.map((h) => h.version)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(history[0]?.content).toBe(doc?.content);
  });

  it('lets exactly one of 20 concurrent creators with expectedVersion 0 win', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => put('create-race.md', `c${i}`, 0)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await store.history(ref, 'create-race.md')).toHaveLength(1);
  });
});
