import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TtlCache', () => {
  it('returns an entry for its whole TTL, then forgets it', () => {
    const c = clock();
    const cache = new TtlCache<string, number>(100, 10, c.now);
    cache.set('a', 1);
    c.advance(100); // lru-cache: stale once the age is *over* the TTL
    expect(cache.get('a')).toBe(1);
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('restarts the TTL when an entry is set again', () => {
    const c = clock();
    const cache = new TtlCache<string, number>(100, 10, c.now);
    cache.set('a', 1);
    c.advance(60);
    cache.set('a', 2);
    c.advance(60);
    expect(cache.get('a')).toBe(2);
  });

  it('loads a missing key once and reuses it within the TTL', async () => {
    const c = clock();
    const cache = new TtlCache<string, string>(100, 10, c.now);
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.getOrLoad('k', load)).toBe('v1');
    expect(await cache.getOrLoad('k', load)).toBe('v1');
    c.advance(101);
    expect(await cache.getOrLoad('k', load)).toBe('v2');
    expect(loads).toBe(2);
  });

  it('caches a null answer (a known miss) like any other value', async () => {
    const cache = new TtlCache<string, string | null>(100, 10, clock().now);
    let loads = 0;
    const load = async () => {
      loads++;
      return null;
    };
    await cache.getOrLoad('k', load);
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(loads).toBe(1);
  });

  it('does not cache a failed load', async () => {
    const cache = new TtlCache<string, string>(100, 10, clock().now);
    await expect(cache.getOrLoad('k', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.getOrLoad('k', async () => 'ok')).toBe('ok');
  });

  it('asks every time with a TTL of 0 (lru-cache alone would keep such entries forever)', async () => {
    const cache = new TtlCache<string, string>(0, 10, clock().now);
    let loads = 0;
    const load = async () => `v${++loads}`;
    await cache.getOrLoad('k', load);
    expect(await cache.getOrLoad('k', load)).toBe('v2');
    expect(cache.get('k')).toBeUndefined();
  });

  it('drops the least recently used entry beyond maxEntries', () => {
    const cache = new TtlCache<string, number>(1_000, 2, clock().now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual([1, 3]);
  });

  it('drops the oldest entry beyond maxEntries when none was read', () => {
    const cache = new TtlCache<string, number>(1_000, 2, clock().now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c')]).toEqual([2, 3]);
  });

  it('replaces an existing key at capacity without dropping another', () => {
    const cache = new TtlCache<string, number>(1_000, 2, clock().now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    expect([cache.get('a'), cache.get('b')]).toEqual([3, 2]);
  });

  it('forgets deleted and cleared entries', () => {
    const cache = new TtlCache<string, number>(1_000, 10, clock().now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.clear();
    expect(cache.get('b')).toBeUndefined();
  });

  it('shares one load among concurrent callers of a missing key (100 subscriptions opened at once made 100 loads)', async () => {
    const cache = new TtlCache<string, string>(1_000, 10, clock().now);
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return `v${loads}`;
    };
    const answers = Array.from({ length: 100 }, () => cache.getOrLoad('k', load));
    release();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 100 }, () => 'v1'));
    expect(loads).toBe(1);
  });

  it('shares a failed load with the callers that waited for it, and loads again after', async () => {
    const cache = new TtlCache<string, string>(1_000, 10, clock().now);
    let loads = 0;
    const failing = async () => {
      loads++;
      throw new Error('db down');
    };
    const both = [cache.getOrLoad('k', failing), cache.getOrLoad('k', failing)];
    await expect(Promise.all(both)).rejects.toThrow('db down');
    await Promise.allSettled(both);
    expect(loads).toBe(1);
    expect(await cache.getOrLoad('k', async () => 'ok')).toBe('ok');
  });

  it('does not keep what a load read before a delete or clear (it may be stale): the next caller loads again', async () => {
    const cache = new TtlCache<string, string>(1_000, 10, clock().now);
    for (const invalidate of [(c: TtlCache<string, string>) => c.delete('k'), (c: TtlCache<string, string>) => c.clear()]) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const before = cache.getOrLoad('k', async () => {
        await gate;
        return 'old';
      });
      invalidate(cache);
      const after = cache.getOrLoad('k', async () => 'new');
      release();
      expect(await before).toBe('old');
      expect(await after).toBe('new');
      expect(cache.get('k')).toBe('new');
      cache.clear();
    }
  });
});

