import { LRUCache } from 'lru-cache';
import type { CascadeScope } from '../../cascade/scope';
import { SKILLS_PREFIX } from '../../skills/skill-paths';
import type { AvailableSkill } from '../../skills/skill-resolver';

/**
 * The available skills of a scope, kept between turns (DESIGN §4): `SkillResolver.listAvailable`
 * walks every SKILL.md of four layers (≈15 ms at 1,000 skills, even with its parse cache warm), far
 * too much for every message. This keeps the resolver's answer per scope — the same array until a
 * document under `_vance/skills/` changes in one of the scope's projects — so the trigger index
 * (TriggerIndexCache, keyed by that array) is not rebuilt either.
 *
 * Invalidation follows the document cache's: `onDocumentChanged` for every DocumentChanged (local
 * writes and, through the bus, other instances' writes), `clear` when the bus reports missed events.
 * A generation per project keeps a listing that raced with a write from being stored. The RESOURCE
 * layer is immutable while the process runs. The resolver remains the only place that materialises
 * skills; this only remembers its answer.
 */
export interface AvailableSkillLister {
  listAvailable(scope: CascadeScope): Promise<AvailableSkill[]>;
}

interface Entry {
  readonly projects: readonly string[];
  readonly skills: readonly AvailableSkill[];
}

interface Pending {
  readonly stamp: string;
  readonly promise: Promise<readonly AvailableSkill[]>;
}

export interface SkillSetCacheOptions {
  /** Scopes kept (LRU). */
  readonly maxScopes?: number;
}

export class SkillSetCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly pending = new Map<string, Pending>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private listings = 0;

  constructor(private readonly lister: AvailableSkillLister, options: SkillSetCacheOptions = {}) {
    this.entries = new LRUCache({ max: options.maxScopes ?? 1_000 });
  }

  /** The available skills of the scope, sorted by name; the same array until something changes. */
  list(scope: CascadeScope): Promise<readonly AvailableSkill[]> {
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (entry) return Promise.resolve(entry.skills);
    const projects = projectsOf(scope);
    const stamp = this.stamp(projects);
    const pending = this.pending.get(key);
    if (pending?.stamp === stamp) return pending.promise;
    const promise = this.load(key, scope, projects, stamp);
    this.pending.set(key, { stamp, promise });
    return promise;
  }

  /** Wire to DOCUMENT_CHANGED_TOPIC: drops the scopes of that project when a skill document changed. */
  onDocumentChanged(event: { readonly projectId: string; readonly path: string }): void {
    if (event.path.startsWith(SKILLS_PREFIX)) this.invalidateProject(event.projectId);
  }

  invalidateProject(projectId: string): void {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
    // Collected first: the cache is not changed while it is walked.
    const stale = [...this.entries.entries()].filter(([, entry]) => entry.projects.includes(projectId));
    for (const [key] of stale) this.entries.delete(key);
  }

  /** Wire to EventBus.onMissedEvents. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** How many times the resolver was asked — for tests and the benchmark. */
  get loads(): number {
    return this.listings;
  }

  private async load(key: string, scope: CascadeScope, projects: readonly string[], stamp: string): Promise<readonly AvailableSkill[]> {
    try {
      this.listings++;
      const skills = Object.freeze(await this.lister.listAvailable(scope));
      if (this.stamp(projects) === stamp) this.entries.set(key, { projects, skills });
      return skills;
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
