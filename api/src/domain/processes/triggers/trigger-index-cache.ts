import { LRUCache } from 'lru-cache';
import type { AvailableSkill } from '../../skills/skill-resolver';
import { TriggerIndex } from './trigger-index';
import type { TriggerIndexCore } from './trigger-index-core';

/**
 * Trigger indexes by skill set (DESIGN §4: built once, not per message). A list seen before — the
 * same array, as AvailableSkillsCache hands out until a skill document changes — gets its index back
 * from a WeakMap. A new array under the same `key` (e.g. a scope key, for callers that list per turn)
 * whose entries hold the very same parsed Skill objects (the resolver's parse cache keeps them per
 * document version) reuses the built index and only rebinds it to the new list: an O(n) identity
 * comparison instead of a rebuild. Anything else builds. Keys are kept least recently used out.
 */
export class TriggerIndexCache {
  private readonly byList = new WeakMap<readonly AvailableSkill[], TriggerIndex>();
  private readonly byKey: LRUCache<string, TriggerIndexCore>;
  private buildCount = 0;

  constructor(maxKeys = 1_000) {
    this.byKey = new LRUCache({ max: maxKeys });
  }

  indexFor(skills: readonly AvailableSkill[], key = ''): TriggerIndex {
    const known = this.byList.get(skills);
    if (known) return known;
    const core = this.byKey.get(key);
    let index: TriggerIndex;
    if (core && sameParsedSkills(core.parsed, skills)) {
      index = new TriggerIndex(skills, core);
    } else {
      index = new TriggerIndex(skills);
      this.buildCount++;
    }
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
