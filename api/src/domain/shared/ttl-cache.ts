/**
 * A small bounded map whose entries expire. Used for identity lookups on the request path
 * (tokens, projects, memberships), where a few seconds of staleness across instances is the
 * accepted price for not querying the database on every request; local writes invalidate at once.
 *
 * Kept as a thin wrapper over lru-cache for what the library does not do the same way: a `null`
 * answer (a known miss) is cached like any value, `getOrLoad` loads with the caller's closure, and a
 * TTL of 0 means "do not cache" (lru-cache reads it as "never expires").
 */
import { LRUCache } from 'lru-cache';

interface Box<V> {
  readonly value: V;
}

export class TtlCache<K extends NonNullable<unknown>, V> {
  private readonly entries: LRUCache<K, Box<V>> | null;

  constructor(ttlMs: number, maxEntries = 10_000, now: () => number = Date.now) {
    // ttlResolution 0: the clock is read on every check, so an injected clock is seen at once.
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now } }) : null;
  }

  get(key: K): V | undefined {
    return this.entries?.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.entries?.set(key, { value });
  }

  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries?.get(key);
    if (hit) return hit.value;
    const value = await load();
    this.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.entries?.delete(key);
  }

  clear(): void {
    this.entries?.clear();
  }
}
