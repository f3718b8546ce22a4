import type { CascadeScope } from '../../cascade/scope';
import { ScopeCache } from '../../cascade/scope-cache';
import { SKILLS_PREFIX } from '../../skills/skill-paths';
import type { AvailableSkill } from '../../skills/skill-resolver';

/**
 * The available skills of a scope, kept between turns (DESIGN §4): `SkillResolver.listAvailable`
 * walks every SKILL.md of four layers (≈15 ms at 1,000 skills, even with its parse cache warm), far
 * too much for every message. This keeps the resolver's answer per scope — the same array until a
 * document under `_vance/skills/` changes in one of the scope's projects — so the trigger index
 * (TriggerIndexCache, keyed by that array) is not rebuilt either.
 *
 * Invalidation (ScopeCache): `onDocumentChanged` for every DocumentChanged (local writes and,
 * through the bus, other instances' writes), `clear` when the bus reports missed events. The
 * RESOURCE layer is immutable while the process runs. The resolver remains the only place that materialises
 * skills; this only remembers its answer.
 */
export interface AvailableSkillLister {
  listAvailable(scope: CascadeScope): Promise<AvailableSkill[]>;
}

export interface SkillSetCacheOptions {
  /** Scopes kept (LRU). */
  readonly maxScopes?: number;
}

export class SkillSetCache {
  private readonly sets: ScopeCache<readonly AvailableSkill[]>;

  constructor(private readonly lister: AvailableSkillLister, options: SkillSetCacheOptions = {}) {
    this.sets = new ScopeCache(options.maxScopes !== undefined ? { maxScopes: options.maxScopes } : {});
  }

  /** The available skills of the scope, sorted by name; the same array until something changes. */
  list(scope: CascadeScope): Promise<readonly AvailableSkill[]> {
    return this.sets.get(scope, async () => Object.freeze(await this.lister.listAvailable(scope)));
  }

  /** Wire to DOCUMENT_CHANGED_TOPIC: drops the scopes of that project when a skill document changed. */
  onDocumentChanged(event: { readonly projectId: string; readonly path: string }): void {
    if (event.path.startsWith(SKILLS_PREFIX)) this.invalidateProject(event.projectId);
  }

  invalidateProject(projectId: string): void {
    this.sets.invalidateProject(projectId);
  }

  /** Wire to EventBus.onMissedEvents. */
  clear(): void {
    this.sets.clear();
  }

  /** How many times the resolver was asked — for tests and the benchmark. */
  get loads(): number {
    return this.sets.loads;
  }
}

export { scopeKey } from '../../cascade/scope-cache';
