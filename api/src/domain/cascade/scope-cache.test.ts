import { describe, expect, it, vi } from 'vitest';
import { ScopeCache } from './scope-cache';
import type { CascadeScope } from './scope';

const scope = (tenantId: string, projectId: string | null, userProjectId: string | null = null): CascadeScope =>
  ({ tenantId, projectId, userProjectId, tenantProjectId: `${tenantId}-tenant` });

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('ScopeCache', () => {
  it('computes once per scope, shares a computation under way, and keeps scopes apart', async () => {
    const cache = new ScopeCache<{ n: number }>();
    const gate = deferred<{ n: number }>();
    const compute = vi.fn(() => gate.promise);
    const a = cache.get(scope('t1', 'p1'), compute);
    const b = cache.get(scope('t1', 'p1'), compute);
    gate.resolve({ n: 1 });
    expect(await a).toBe(await b);
    expect(await cache.get(scope('t1', 'p1'), compute)).toEqual({ n: 1 });
    expect(compute).toHaveBeenCalledTimes(1);
    expect(await cache.get(scope('t1', 'p2'), async () => ({ n: 2 }))).toEqual({ n: 2 });
    expect(cache.loads).toBe(2);
  });

  it('drops the scopes backed by a changed project, the tenant project included, and no others', async () => {
    const cache = new ScopeCache<{ v: string }>();
    await cache.get(scope('t1', 'p1'), async () => ({ v: 'p1' }));
    await cache.get(scope('t1', 'p2'), async () => ({ v: 'p2' }));
    await cache.get(scope('t1', 'p3', 'u1'), async () => ({ v: 'p3' }));
    cache.invalidateProject('p1');
    expect(await cache.get(scope('t1', 'p1'), async () => ({ v: 'p1 again' }))).toEqual({ v: 'p1 again' });
    expect(await cache.get(scope('t1', 'p2'), async () => ({ v: 'not asked' }))).toEqual({ v: 'p2' });
    cache.invalidateProject('u1');
    expect(await cache.get(scope('t1', 'p3', 'u1'), async () => ({ v: 'p3 again' }))).toEqual({ v: 'p3 again' });
    cache.invalidateProject('t1-tenant');
    expect(await cache.get(scope('t1', 'p2'), async () => ({ v: 'p2 again' }))).toEqual({ v: 'p2 again' });
  });

  it('does not keep a value computed while its project changed, nor one computed across a clear', async () => {
    const cache = new ScopeCache<{ v: string }>();
    const gate = deferred<{ v: string }>();
    const stale = cache.get(scope('t1', 'p1'), () => gate.promise);
    cache.invalidateProject('p1');
    gate.resolve({ v: 'stale' });
    expect(await stale).toEqual({ v: 'stale' });
    expect(await cache.get(scope('t1', 'p1'), async () => ({ v: 'fresh' }))).toEqual({ v: 'fresh' });

    const second = deferred<{ v: string }>();
    const racing = cache.get(scope('t1', 'p2'), () => second.promise);
    cache.clear();
    second.resolve({ v: 'stale' });
    await racing;
    expect(await cache.get(scope('t1', 'p2'), async () => ({ v: 'fresh' }))).toEqual({ v: 'fresh' });
  });

  it('drops one tenant\'s scopes only', async () => {
    const cache = new ScopeCache<{ v: string }>();
    await cache.get(scope('t1', 'p1'), async () => ({ v: 't1' }));
    await cache.get(scope('t2', 'p9'), async () => ({ v: 't2' }));
    cache.invalidateTenant('t1');
    expect(await cache.get(scope('t1', 'p1'), async () => ({ v: 't1 again' }))).toEqual({ v: 't1 again' });
    expect(await cache.get(scope('t2', 'p9'), async () => ({ v: 'not asked' }))).toEqual({ v: 't2' });
  });

  it('keeps a value only as long as ttlOf says', async () => {
    // lru-cache reads its clock at import, so real time: a wait longer than the ttl, never a cap.
    const cache = new ScopeCache<{ v: string; brief: boolean }>({ ttlOf: (value) => (value.brief ? 20 : undefined) });
    await cache.get(scope('t1', 'p1'), async () => ({ v: 'brief', brief: true }));
    await cache.get(scope('t1', 'p2'), async () => ({ v: 'kept', brief: false }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await cache.get(scope('t1', 'p1'), async () => ({ v: 'again', brief: true }))).toMatchObject({ v: 'again' });
    expect(await cache.get(scope('t1', 'p2'), async () => ({ v: 'not asked', brief: false }))).toMatchObject({ v: 'kept' });
  });
});
