import { describe, expect, it } from 'vitest';
import { available, keywords, NO_FILTER, pattern, triggers } from './testing';
import { BUILD_STEP_UNITS } from './trigger-index-core';
import { TriggerIndex } from './trigger-index';
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

  describe('load: a build that lets other requests run (issue 13: a 20,000-trigger skill stalled everyone for a turn)', () => {
    // One skill with 5 steps of keyword triggers (one token each) and a PATTERN, as a tenant may save.
    const many = available('many', { frontmatter: triggers(...Array.from({ length: 5 * BUILD_STEP_UNITS }, (_v, i) => keywords([`w${i}`])), pattern('deploy\\s+prod')) });

    it('pauses for the event loop between steps and matches exactly as the one-go build', async () => {
      const cache = new TriggerIndexCache();
      let ticks = 0;
      let ticking = true;
      const tick = (): void => {
        ticks++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const index = await cache.load([alpha, many], 'k');
      ticking = false;
      // 5 steps of triggers, 5 of tokens: the old one-go build let the ticker run 0 times.
      expect(ticks).toBeGreaterThanOrEqual(8);
      const direct = new TriggerIndex([alpha, many]);
      for (const message of ['w4999 and alpha', 'please deploy   prod', 'w0', 'nothing']) {
        expect(index.match(message, NO_FILTER).map((m) => [m.skill, m.reason])).toEqual(direct.match(message, NO_FILTER).map((m) => [m.skill, m.reason]));
      }
      expect(index.match('w4999', NO_FILTER).map((m) => m.skill)).toEqual(['many']);
      expect(cache.builds).toBe(1);
    });

    it('shares one build among concurrent loads of a list, and keeps it for indexFor and relisted copies', async () => {
      const cache = new TriggerIndexCache();
      const skills = [alpha, many];
      const loads = await Promise.all(Array.from({ length: 5 }, () => cache.load(skills, 'k')));
      for (const index of loads) expect(index).toBe(loads[0]);
      expect(cache.indexFor(skills, 'k')).toBe(loads[0]);
      const relisted = await cache.load([{ ...alpha }, { ...many }], 'k');
      expect(relisted).not.toBe(loads[0]);
      expect(cache.builds).toBe(1);
    });

    it('a small set needs no pause', async () => {
      const cache = new TriggerIndexCache();
      let ticked = false;
      setImmediate(() => { ticked = true; });
      await cache.load([alpha, beta]);
      expect(ticked).toBe(false);
    });
  });
});
