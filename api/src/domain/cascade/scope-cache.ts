/**
 * A value computed per cascade scope and kept until a document it depends on changes (DESIGN §4):
 * the skill sets of the trigger path (SkillSetCache) and the tool sets of the tool universe
 * (ToolUniverse) are both this. A scope's value depends on the documents of its projects (user,
 * project, tenant); `invalidateProject` drops every scope backed by a project whose documents
 * changed (local writes and, through the bus, other instances' writes), `clear` drops all when the
 * bus reports missed events. A generation per project (and an epoch for `clear`) keeps a
 * computation that raced with a change from being stored. Concurrent asks for one scope share one
 * computation.
 */
import { LRUCache } from 'lru-cache';
import type { CascadeScope } from './scope';

export interface ScopeCacheOptions<T> {
  /** Scopes kept (LRU). */
  readonly maxScopes?: number;
  /** How long a value is kept (ms); undefined keeps it until a change or eviction. */
  readonly ttlOf?: (value: T) => number | undefined;
}

interface Entry<T> {
  readonly projects: readonly string[];
  readonly value: T;
}

export class ScopeCache<T extends object> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly pending = new Map<string, { readonly stamp: string; readonly promise: Promise<T> }>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private computations = 0;

  constructor(private readonly options: ScopeCacheOptions<T> = {}) {
    this.entries = new LRUCache({ max: options.maxScopes ?? 1_000, ttlAutopurge: false });
  }

  /** The kept value of `scope`, or `compute`'s, kept when nothing changed while it ran. */
  get(scope: CascadeScope, compute: () => Promise<T>): Promise<T> {
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (entry) return Promise.resolve(entry.value);
    const projects = projectsOf(scope);
    const stamp = this.stamp(projects);
    const pending = this.pending.get(key);
    if (pending?.stamp === stamp) return pending.promise;
    const promise = this.compute(key, projects, stamp, compute);
    this.pending.set(key, { stamp, promise });
    return promise;
  }

  /** Drops the scopes backed by `projectId`; a computation under way for them is not stored. */
  invalidateProject(projectId: string): void {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
    // Collected first: the cache is not changed while it is walked.
    const stale = [...this.entries.entries()].filter(([, entry]) => entry.projects.includes(projectId));
    for (const [key] of stale) this.entries.delete(key);
  }

  /** Drops every scope of `tenantId` (a change no document write announces); nothing under way is stored. */
  invalidateTenant(tenantId: string): void {
    this.epoch++;
    for (const [key] of [...this.entries.entries()]) if (key.startsWith(`${tenantId}\u0000`)) this.entries.delete(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** How many times a value was computed — for tests and benchmarks. */
  get loads(): number {
    return this.computations;
  }

  private async compute(key: string, projects: readonly string[], stamp: string, compute: () => Promise<T>): Promise<T> {
    try {
      this.computations++;
      const value = await compute();
      if (this.stamp(projects) === stamp) {
        const ttl = this.options.ttlOf?.(value);
        this.entries.set(key, { projects, value }, ttl !== undefined ? { ttl } : {});
      }
      return value;
    } finally {
      if (this.pending.get(key)?.stamp === stamp) this.pending.delete(key);
    }
  }

  private stamp(projects: readonly string[]): string {
    return `${this.epoch}:${projects.map((p) => this.generations.get(p) ?? 0).join(',')}`;
  }
}

/** One string per scope: the tenant and the three projects that back its stored layers. */
export function scopeKey(scope: CascadeScope): string {
  return `${scope.tenantId}\u0000${scope.userProjectId ?? ''}\u0000${scope.projectId ?? ''}\u0000${scope.tenantProjectId}`;
}

function projectsOf(scope: CascadeScope): string[] {
  return [scope.userProjectId, scope.projectId, scope.tenantProjectId].filter((p): p is string => p !== null);
}
