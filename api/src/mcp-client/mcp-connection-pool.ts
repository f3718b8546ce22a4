/**
 * MCP connections, pooled per tenant (issue 19 part 2): a turn reuses the connection an earlier turn
 * opened for the same pack document version and headers; a changed document (or a changed header
 * setting) opens a new connection and closes the one it replaces; idle connections are closed; a
 * tenant holds at most `maxPerTenant` connections (the least recently used goes first), so no tenant's
 * packs can hold the instance's sockets or processes. A failed connect is remembered for a short
 * while, so a pack that is down costs each turn nothing, not a connect timeout every time.
 */
import { McpConnection, type McpConnectionOptions } from './mcp-connection';

export interface McpPoolOptions {
  readonly maxPerTenant?: number;
  readonly idleMs?: number;
  /** How long a failed connect is answered from memory. */
  readonly retryAfterMs?: number;
  /** Tests: counts connects. */
  readonly open?: (options: McpConnectionOptions) => Promise<McpConnection>;
}

interface Entry {
  /** The pack document this connection is for (tenant + layer project + path): one live version each. */
  readonly slot: string;
  readonly opening: Promise<McpConnection>;
  lastUsed: number;
  failedAt: number | null;
}

export class McpConnectionPool {
  private readonly tenants = new Map<string, Map<string, Entry>>();
  private readonly maxPerTenant: number;
  private readonly idleMs: number;
  private readonly retryAfterMs: number;
  private readonly open: (options: McpConnectionOptions) => Promise<McpConnection>;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: McpPoolOptions = {}) {
    this.maxPerTenant = options.maxPerTenant ?? 16;
    this.idleMs = options.idleMs ?? 300_000;
    this.retryAfterMs = options.retryAfterMs ?? 10_000;
    this.open = options.open ?? ((o) => McpConnection.open(o));
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(1_000, Math.floor(this.idleMs / 2)));
    this.sweeper.unref();
  }

  /**
   * The connection for `key` (the pack document version and its resolved endpoint), opening it when
   * needed. `slot` names the document regardless of version: a new key for a slot replaces the old.
   */
  async connection(tenantId: string, slot: string, key: string, options: McpConnectionOptions): Promise<McpConnection> {
    const entries = this.tenantEntries(tenantId);
    const now = Date.now();
    let entry = entries.get(key);
    if (entry && entry.failedAt !== null && now - entry.failedAt >= this.retryAfterMs) entry = this.drop(entries, key);
    if (entry && entry.failedAt === null) {
      const live = await entry.opening.catch(() => null);
      if (live?.closed) entry = this.drop(entries, key);
    }
    if (!entry) {
      for (const [other, e] of entries) if (e.slot === slot) this.drop(entries, other);
      while (entries.size >= this.maxPerTenant) this.drop(entries, this.leastRecentlyUsed(entries));
      const opening = this.open(options);
      const created: Entry = { slot, opening, lastUsed: now, failedAt: null };
      opening.catch(() => { created.failedAt = Date.now(); });
      entries.set(key, created);
      entry = created;
    }
    entry.lastUsed = now;
    return entry.opening;
  }

  /** Live connections of a tenant (tests, diagnostics). */
  size(tenantId: string): number {
    return this.tenants.get(tenantId)?.size ?? 0;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.tenants.values()].flatMap((entries) => [...entries.values()]);
    this.tenants.clear();
    await Promise.all(all.map((e) => e.opening.then((c) => c.close(), () => undefined)));
  }

  private closeIdle(): void {
    const before = Date.now() - this.idleMs;
    for (const [tenantId, entries] of this.tenants) {
      for (const [key, entry] of entries) if (entry.lastUsed < before) this.drop(entries, key);
      if (entries.size === 0) this.tenants.delete(tenantId);
    }
  }

  private tenantEntries(tenantId: string): Map<string, Entry> {
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = new Map()));
    return entries;
  }

  private leastRecentlyUsed(entries: Map<string, Entry>): string {
    let oldest: [string, number] | null = null;
    for (const [key, e] of entries) if (!oldest || e.lastUsed < oldest[1]) oldest = [key, e.lastUsed];
    return oldest![0];
  }

  private drop(entries: Map<string, Entry>, key: string): undefined {
    const entry = entries.get(key);
    entries.delete(key);
    // A call still running on it fails as a tool error; the turn goes on.
    entry?.opening.then((c) => c.close(), () => undefined);
    return undefined;
  }
}

