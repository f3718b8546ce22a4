import { describe, expect, it } from 'vitest';
import type { DocumentStore } from '../cascade/document-store';
import { VersionConflictError } from '../cascade/errors';
import { InMemoryDocumentStore } from './in-memory-document-store';

/**
 * The DocumentStore port's contract (cascade/document-store.ts). Written as a suite over a factory
 * so the database adapter can be run through the same cases.
 */
const adapters: Array<[string, () => DocumentStore]> = [['in-memory', () => new InMemoryDocumentStore()]];

const ref = { tenantId: 't1', projectId: 'p1' };
const put = (store: DocumentStore, path: string, content: string, expectedVersion?: number) =>
  store.put({ ...ref, path, content, author: 'alice', ...(expectedVersion === undefined ? {} : { expectedVersion }) });

describe.each(adapters)('DocumentStore contract (%s)', (_name, create) => {
  it('writes unconditionally without expectedVersion and counts versions from 1', async () => {
    const store = create();
    expect((await put(store, 'a.md', 'one')).version).toBe(1);
    const second = await put(store, 'a.md', 'two');
    expect(second).toMatchObject({ version: 2, content: 'two', updatedBy: 'alice', path: 'a.md', ...ref });
    expect(await store.find(ref, 'a.md')).toMatchObject({ version: 2, content: 'two' });
  });

  it('creates with expectedVersion 0 only when nothing live is there', async () => {
    const store = create();
    await put(store, 'a.md', 'one', 0);
    await expect(put(store, 'a.md', 'again', 0)).rejects.toBeInstanceOf(VersionConflictError);
    expect((await store.find(ref, 'a.md'))?.content).toBe('one');
  });

  it('updates with expectedVersion n only when the live document is at n, else writes nothing', async () => {
    const store = create();
    await put(store, 'a.md', 'one');
    await put(store, 'a.md', 'two', 1);
    const error = await put(store, 'a.md', 'stale', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect(error).toMatchObject({ expected: 1, actual: 2, category: 'CONFLICT' });
    await expect(put(store, 'missing.md', 'x', 3)).rejects.toMatchObject({ actual: null });
    expect(await store.history(ref, 'a.md')).toHaveLength(2);
    expect(await store.find(ref, 'missing.md')).toBeNull();
  });

  it('soft-deletes with a history row and continues versions when re-created', async () => {
    const store = create();
    await put(store, 'a.md', 'one');
    await put(store, 'a.md', 'two');
    expect(await store.delete({ ...ref, path: 'a.md', author: 'bob' })).toBe(3);
    expect(await store.find(ref, 'a.md')).toBeNull();
    expect(await store.delete({ ...ref, path: 'a.md', author: 'bob' })).toBeNull();
    expect((await put(store, 'a.md', 'three', 0)).version).toBe(4);
    const history = await store.history(ref, 'a.md');
    expect(history.map((r) => [r.version, r.content, r.deleted, r.author])).toEqual([
      [4, 'three', false, 'alice'],
      [3, null, true, 'bob'],
      [2, 'two', false, 'alice'],
      [1, 'one', false, 'alice'],
    ]);
  });

  it('deletes only at the expected version', async () => {
    const store = create();
    await put(store, 'a.md', 'one');
    await expect(store.delete({ ...ref, path: 'a.md', author: null, expectedVersion: 2 })).rejects.toBeInstanceOf(VersionConflictError);
    expect(await store.find(ref, 'a.md')).not.toBeNull();
    expect(await store.delete({ ...ref, path: 'a.md', author: null, expectedVersion: 1 })).toBe(2);
  });

  it('returns an empty history for a path that never existed', async () => {
    expect(await create().history(ref, 'never.md')).toEqual([]);
  });

  it('lists live documents under a prefix ordered by path', async () => {
    const store = create();
    for (const path of ['s/b.md', 's/a/x.md', 'z.md', 's/a.md', 's/gone.md']) await put(store, path, path);
    await store.delete({ ...ref, path: 's/gone.md', author: null });
    expect((await store.listByPrefix(ref, 's/')).map((d) => d.path)).toEqual(['s/a.md', 's/a/x.md', 's/b.md']);
    expect((await store.listByPrefix(ref, '')).map((d) => d.path)).toEqual(['s/a.md', 's/a/x.md', 's/b.md', 'z.md']);
  });

  it('scopes every call to tenant and project', async () => {
    const store = create();
    await put(store, 'a.md', 'mine');
    const otherProject = { tenantId: 't1', projectId: 'p2' };
    const otherTenant = { tenantId: 't2', projectId: 'p1' };
    for (const other of [otherProject, otherTenant]) {
      expect(await store.find(other, 'a.md')).toBeNull();
      expect(await store.listByPrefix(other, '')).toEqual([]);
      expect(await store.history(other, 'a.md')).toEqual([]);
      expect(await store.delete({ ...other, path: 'a.md', author: null })).toBeNull();
      expect((await store.put({ ...other, path: 'a.md', content: 'theirs', author: null })).version).toBe(1);
    }
    expect(await store.find(ref, 'a.md')).toMatchObject({ content: 'mine', version: 1 });
  });
});

describe('InMemoryDocumentStore test hooks', () => {
  it('counts calls per method', async () => {
    const store = new InMemoryDocumentStore();
    await store.find(ref, 'a.md');
    await store.listByPrefix(ref, '');
    await store.listByPrefix(ref, 'x');
    expect(store.calls).toMatchObject({ find: 1, listByPrefix: 2, put: 0 });
    store.resetCalls();
    expect(store.calls.listByPrefix).toBe(0);
  });

  it('holds a read open after it has read, so a later write does not change its answer', async () => {
    const store = new InMemoryDocumentStore();
    await put(store, 'a.md', 'old');
    const held = store.hold('find');
    const read = store.find(ref, 'a.md');
    await held.started;
    await put(store, 'a.md', 'new');
    held.release();
    expect((await read)?.content).toBe('old');
  });
});
