import { LRUCache } from 'lru-cache';
import type { AvailableSkill } from '../../skills/skill-resolver';
import { TriggerIndex } from './trigger-index';
import { yieldToEventLoop } from '../../shared/yield-to-event-loop';
import { triggerIndexCoreSteps, type TriggerIndexCore } from './trigger-index-core';

/**
 * Trigger indexes by skill set (DESIGN §4: built once, not per message). A list seen before — the
 * same array, as AvailableSkillsCache hands out until a skill document changes — gets its index back
 * from a WeakMap. A new array under the same `key` (e.g. a scope key, for callers that list per turn)
 * whose entries hold the very same parsed Skill objects (the resolver's parse cache keeps them per
 * document version) reuses the built index and only rebinds it to the new list: an O(n) identity
 * comparison instead of a rebuild. Anything else builds. Keys are kept least recently used out.
 *
 * Turns and the trigger bench `load`: a build there runs in steps with the event loop in between
 * (triggerIndexCoreSteps), and concurrent loads of one list share it. `indexFor` builds in one go.
 */
export class TriggerIndexCache {
  private readonly byList = new WeakMap<readonly AvailableSkill[], TriggerIndex>();
  private readonly byKey: LRUCache<string, TriggerIndexCore>;
  private readonly building = new WeakMap<readonly AvailableSkill[], Promise<TriggerIndex>>();
  private buildCount = 0;

  constructor(maxKeys = 1_000) {
    this.byKey = new LRUCache({ max: maxKeys });
  }

  indexFor(skills: readonly AvailableSkill[], key = ''): TriggerIndex {
    const kept = this.kept(skills, key);
    if (kept) return kept;
    this.buildCount++;
    return this.keep(skills, key, new TriggerIndex(skills));
  }

  /** As indexFor, but a build pauses for the event loop between its steps. */
  async load(skills: readonly AvailableSkill[], key = ''): Promise<TriggerIndex> {
    const kept = this.kept(skills, key);
    if (kept) return kept;
    let pending = this.building.get(skills);
    if (!pending) {
      pending = this.build(skills, key).finally(() => this.building.delete(skills));
      this.building.set(skills, pending);
    }
    return pending;
  }

  private async build(skills: readonly AvailableSkill[], key: string): Promise<TriggerIndex> {
    this.buildCount++;
    const steps = triggerIndexCoreSteps(skills);
    for (let next = steps.next(); ; next = steps.next()) {
      if (next.done) return this.keep(skills, key, new TriggerIndex(skills, next.value));
      await yieldToEventLoop();
    }
  }

  /** The index of this very list, or one rebound from the key's core when it holds the same parsed skills. */
  private kept(skills: readonly AvailableSkill[], key: string): TriggerIndex | undefined {
    const known = this.byList.get(skills);
    if (known) return known;
    const core = this.byKey.get(key);
    return core && sameParsedSkills(core.parsed, skills) ? this.keep(skills, key, new TriggerIndex(skills, core)) : undefined;
  }

  private keep(skills: readonly AvailableSkill[], key: string, index: TriggerIndex): TriggerIndex {
    this.byList.set(skills, index);
    this.byKey.set(key, index.shared);
    return index;
  }

  /** How many indexes were built (not rebound) — for tests and the benchmark. */
  get builds(): number {
    return this.buildCount;
  }

  clear(): void {
    this.byKey.clear();
  }
}

function sameParsedSkills(parsed: readonly object[], skills: readonly AvailableSkill[]): boolean {
  if (parsed.length !== skills.length) return false;
  for (let i = 0; i < skills.length; i++) if (parsed[i] !== skills[i]!.skill) return false;
  return true;
}
