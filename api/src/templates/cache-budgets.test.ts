import { describe, expect, it } from 'vitest';
import { NODE_NUNJUCKS } from './in-process-renderer';
import { DEFAULT_TEMPLATE_LIMITS, renderLimitsOf } from './limits';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { createRenderCore, DEFAULT_COMPILE_CACHE_CHARS } from './render-core';
import { RENDER_CORE_PARTS } from './render-core-parts';
import { NO_TIME_CAP } from './testing';

/** A distinct template of exactly `length` characters. */
const template = (i: number, length: number) => `{{ n }}#${i}`.padEnd(length, '.');

describe('template caches keep to their character budgets (issue 18, memory that comes back)', () => {
  const core = (cacheChars?: number) => createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, {
    limits: renderLimitsOf({ ...DEFAULT_TEMPLATE_LIMITS, ...NO_TIME_CAP }), templates: {}, cacheSize: 100, ...(cacheChars === undefined ? {} : { cacheChars }),
  });

  it('the compile cache never holds more source characters than its budget, and still renders the newest', () => {
    const cache = core(1_000);
    for (let i = 0; i < 20; i++) {
      expect(cache.render(`t${i}`, template(i, 200), { n: i })).toMatchObject({ ok: true, output: expect.stringMatching(new RegExp(`^${i}#${i}\\.`)) });
      expect(cache.cachedChars()).toBeLessThanOrEqual(1_000);
    }
    expect(cache.cachedTemplates()).toBe(5);
    expect(cache.has('t19') && !cache.has('t14')).toBe(true);
  });

  it('a template larger than the whole budget renders, and leaves only itself in the cache', () => {
    const cache = core(1_000);
    cache.render('small', template(0, 100), { n: 0 });
    expect(cache.render('huge', template(1, 5_000), { n: 1 })).toMatchObject({ ok: true });
    expect([cache.cachedTemplates(), cache.has('huge')]).toEqual([1, true]);
  });

  it('the default budget is the exported one (the isolate copy spells it out)', () => {
    const cache = core();
    cache.render('big', template(0, DEFAULT_COMPILE_CACHE_CHARS / 2 + 1), { n: 0 });
    cache.render('big2', template(1, DEFAULT_COMPILE_CACHE_CHARS / 2), { n: 1 });
    expect([cache.cachedTemplates(), cache.has('big2')]).toEqual([1, true]);
  });

  it("the engine's remembered source hashes never exceed its character budget", async () => {
    const engine = new NunjucksTemplateEngine({ sandbox: 'in-process', cacheChars: 1_000, limits: NO_TIME_CAP });
    for (let i = 0; i < 20; i++) {
      expect(await engine.render(template(i, 200), { n: i })).toMatch(new RegExp(`^${i}#${i}\\.`));
      expect(engine.cacheUse().hashedChars).toBeLessThanOrEqual(1_000);
    }
    expect(engine.cacheUse().hashedChars).toBeGreaterThan(0);
  });
});
