import { describe, expect, it } from 'vitest';
import { available, keywords, NO_FILTER, triggers } from './testing';
import { TriggerIndexCache } from './trigger-index-cache';

const alpha = available('alpha', { frontmatter: triggers(keywords(['alpha'])) });
const beta = available('beta', { frontmatter: triggers(keywords(['beta'])) });

describe('TriggerIndexCache (DESIGN §4: built once per skill set, not per message)', () => {
  it('builds once for the same list and returns the same index', () => {
    const cache = new TriggerIndexCache();
    const skills = [alpha, beta];
    const first = cache.indexFor(skills);
    for (let i = 0; i < 5; i++) expect(cache.indexFor(skills)).toBe(first);
    expect(cache.builds).toBe(1);
  });

  it('rebinds instead of rebuilding when a new list under the same key holds the same parsed skills', () => {
    const cache = new TriggerIndexCache();
    cache.indexFor([alpha, beta], 'scope-1');
    // listAvailable returns fresh AvailableSkill objects around the cached Skill objects.
    const relisted = [{ ...alpha, shadowed: ['RESOURCE' as const] }, { ...beta }];
    const index = cache.indexFor(relisted, 'scope-1');
    expect(cache.builds).toBe(1);
    expect(index.skills).toBe(relisted);
    const [m] = index.match('alpha', NO_FILTER);
    expect(m?.available).toBe(relisted[0]);
    expect(index.find('beta')).toBe(relisted[1]);
  });

  it('rebuilds when a skill changed, was added or removed, or under another key', () => {
    const cache = new TriggerIndexCache();
    cache.indexFor([alpha, beta], 'k');
    const edited = available('beta', { frontmatter: triggers(keywords(['gamma'])) });
    expect(cache.indexFor([alpha, edited], 'k').match('gamma', NO_FILTER).map((m) => m.skill)).toEqual(['beta']);
    cache.indexFor([alpha], 'k');
    cache.indexFor([alpha], 'other');
    expect(cache.builds).toBe(4);
  });
});
