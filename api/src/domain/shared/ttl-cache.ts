/**
 * A small bounded map whose entries expire. Used for identity lookups on the request path
 * (tokens, projects, memberships), where a few seconds of staleness across instances is the
 * accepted price for not querying the database on every request; local writes invalidate at once.
 *
 * Kept as a thin wrapper over lru-cache for what the library does not do the same way: a `null`
 * answer (a known miss) is cached like any value, `getOrLoad` loads with the caller's closure, and a
 * TTL of 0 means "do not cache" (lru-cache reads it as "never expires").
 *
 * Concurrent callers of a missing key share one load (100 subscriptions opened at once loaded the
 * same principal 100 times, 400 statements queued on PGlite's one session, and another tenant's
 * query waited 1.1 s behind them: issue 13). lru-cache's own `fetch()` does share loads, but a
 * delete() during one aborts it and rejects every waiting caller; here they get the value, and only
 * keeping it is refused (a delete or clear meanwhile means it may be stale).
 */
import { LRUCache } from 'lru-cache';

interface Box<V> {
  readonly value: V;
}

export class TtlCache<K extends NonNullable<unknown>, V> {
  private readonly entries: LRUCache<K, Box<V>> | null;
  /** Loads in flight, shared by the callers of their key. */
  private readonly loading = new Map<K, Promise<V>>();

  constructor(ttlMs: number, maxEntries = 10_000, now: () => number = Date.now) {
    // ttlResolution 0: the clock is read on every check, so an injected clock is seen at once.
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now } }) : null;
  }

  get(key: K): V | undefined {
    return this.entries?.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.loading.delete(key);
    this.entries?.set(key, { value });
  }

  getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const entries = this.entries;
    if (!entries) return load();
    const hit = entries.get(key);
    if (hit) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loaded: Promise<V> = load().then(
      (value) => {
        // Kept only if no set, delete or clear came in between (each drops the load from `loading`).
        if (this.loading.get(key) === loaded) {
          this.loading.delete(key);
          entries.set(key, { value });
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  delete(key: K): void {
    this.loading.delete(key);
    this.entries?.delete(key);
  }

  clear(): void {
    this.loading.clear();
    this.entries?.clear();
  }
}
