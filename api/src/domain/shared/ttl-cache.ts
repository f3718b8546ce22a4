/**
 * A small bounded map whose entries expire. Used for identity lookups on the request path
 * (tokens, projects, memberships), where a few seconds of staleness across instances is the
 * accepted price for not querying the database on every request; local writes invalidate at once.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
