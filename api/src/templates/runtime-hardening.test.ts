import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBudget } from './budget';
import { NODE_NUNJUCKS } from './in-process-renderer';
import { DEFAULT_TEMPLATE_LIMITS, renderLimitsOf } from './limits';
import { createRenderCore } from './render-core';
import { RENDER_CORE_PARTS } from './render-core-parts';
import { hardenRuntime } from './runtime-hardening';

const config = { limits: renderLimitsOf(DEFAULT_TEMPLATE_LIMITS), templates: {}, cacheSize: 10 };

describe('the process-wide runtime patch', () => {
  it('is applied once: a second hardening returns the same guard and wraps nothing twice', () => {
    const first = hardenRuntime(NODE_NUNJUCKS, createBudget, config.limits);
    const memberLookup = NODE_NUNJUCKS.runtime.memberLookup;
    const second = hardenRuntime(NODE_NUNJUCKS, createBudget, config.limits);
    expect(second).toBe(first);
    expect(NODE_NUNJUCKS.runtime.memberLookup).toBe(memberLookup);
  });

  it('lets several render cores share it, each with its own environment', () => {
    const a = createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, { ...config, templates: { p: 'A' } });
    const b = createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, { ...config, templates: { p: 'B' } });
    expect(a.render('1', '{% include "p" %}', {})).toEqual({ ok: true, output: 'A' });
    expect(b.render('1', '{% include "p" %}', {})).toEqual({ ok: true, output: 'B' });
  });

  it('leaves other nunjucks environments working for ordinary templates (no budget outside a render)', () => {
    const env = new NODE_NUNJUCKS.Environment([], { autoescape: false });
    const template = new NODE_NUNJUCKS.Template('{% for x in xs %}{{ loop.index }}{{ x.n }}{% endfor %}{{ "a" ~ "b" }}', env, undefined, true);
    expect(template.render({ xs: [{ n: 'a' }, { n: 'b' }] })).toBe('1a2bab');
  });

  it('bounds the compile cache (LRU)', () => {
    const core = createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, { ...config, cacheSize: 2 });
    for (const id of ['a', 'b', 'c', 'a']) core.render(id, `{{ "${id}" }}`, {});
    expect(core.cachedTemplates()).toBe(2);
  });
});

describe('the work budget', () => {
  const fail = (reason: string, message: string): never => {
    throw Object.assign(new Error(message), { vanceReason: reason });
  };

  it('stops after maxWorkUnits steps with TIMEOUT', () => {
    const budget = createBudget({ ...config.limits, maxWorkUnits: 10 }, fail);
    budget.charge(10);
    expect(() => budget.charge(1)).toThrow(expect.objectContaining({ vanceReason: 'TIMEOUT' }));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  // Load-proof: the clock is faked, so neither a slow machine nor an early timer decides the outcome.
  it('stops after the deadline with TIMEOUT, not before', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const budget = createBudget({ ...config.limits, timeLimitMs: 50 }, fail);
    vi.setSystemTime(1_000_050);
    expect(() => budget.charge(300)).not.toThrow(); // at the deadline: still inside it
    vi.setSystemTime(1_000_051);
    expect(() => budget.charge(300)).toThrow(/longer than 50 ms/);
  });

  it('stops runaway output with OUTPUT_LIMIT and deep calls with TIMEOUT', () => {
    const budget = createBudget({ ...config.limits, maxOutput: 10, maxCallDepth: 1 }, fail);
    expect(() => budget.emit(11)).toThrow(expect.objectContaining({ vanceReason: 'OUTPUT_LIMIT' }));
    budget.enterCall();
    expect(() => budget.enterCall()).toThrow(expect.objectContaining({ vanceReason: 'TIMEOUT' }));
  });
});
