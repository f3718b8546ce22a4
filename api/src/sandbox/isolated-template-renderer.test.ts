import { isolatedVm } from './isolated-vm';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TEMPLATE_LIMITS, renderLimitsOf, type TemplateLimits } from '../templates/limits';
import { InProcessTemplateRenderer } from '../templates/in-process-renderer';
import { PreparedContext } from '../templates/prepared-context';
import { NO_TIME_CAP } from '../templates/testing';
import { bootstrapSource, IsolatedTemplateRenderer } from './isolated-template-renderer';

function rendererWith(overrides: Partial<TemplateLimits> = {}): IsolatedTemplateRenderer {
  const limits = { ...DEFAULT_TEMPLATE_LIMITS, ...overrides };
  const renderer = new IsolatedTemplateRenderer({ limits: renderLimitsOf(limits), templates: {}, cacheSize: 10 }, limits);
  afterAll(() => renderer.dispose());
  return renderer;
}

describe('IsolatedTemplateRenderer', () => {
  it('renders with the injected hardening', () => {
    // Load: the clock is lifted; these renders are about the hardening, not the time limit.
    const renderer = rendererWith(NO_TIME_CAP);
    expect(renderer.render('a', '{% for x in xs %}{{ loop.index }}{{ x }}{% endfor %}', { xs: ['a', 'b'] })).toEqual({ ok: true, output: '1a2b' });
    expect(renderer.render('b', '{{ range.constructor("return 1")() }}', {})).toMatchObject({ ok: false, reason: 'FORBIDDEN' });
  });

  it('stops with its hard time limit what the cooperative budget cannot see, then boots a fresh isolate', () => {
    // Load: the regex is unbounded (O(n^5) on 4000 characters), so only the hard limit can stop it;
    // 1 s keeps the test short and leaves the fresh isolate's first, trivial render plenty of room.
    const renderer = rendererWith({ ...NO_TIME_CAP, hardTimeoutMs: 1000 });
    // One polynomial regex evaluation: no hook runs inside it.
    expect(renderer.render('slow', '{{ t is matching(".*.*.*.*.*x") }}', { t: 'a'.repeat(4000) }))
      .toEqual({ ok: false, reason: 'TIMEOUT', message: 'the template ran longer than 1000 ms' });
    expect(renderer.render('ok', '{{ 1 + 1 }}', {})).toEqual({ ok: true, output: '2' });
  });

  // Load: this used to need a trivial render to beat a 40 ms limit while the compile outran it (and
  // was retried). Now each direction is load-proof: a compile far heavier than its tiny limit is
  // stopped by compileTimeoutMs (a slower machine only makes that more certain), and with both
  // limits generous the same template compiles and renders.
  it('compiles a large template under its own limit, not the render limit', () => {
    // Heavy to compile, trivial to render (one false condition skips it all).
    const body = Array.from({ length: 1500 }, (_, i) => `{% if n > ${i} %}line ${i} {{ n }}{% endif %}\n`).join('');
    const large = `{% if n > 5000 %}${body}{% endif %}done {{ n }}`;
    const tight = rendererWith({ ...NO_TIME_CAP, compileTimeoutMs: 5 });
    expect(tight.render('large', large, { n: 1 }))
      .toEqual({ ok: false, reason: 'TIMEOUT', message: 'the template took longer than 5 ms to compile' });
    const roomy = rendererWith(NO_TIME_CAP);
    expect(roomy.render('large', large, { n: 1 })).toEqual({ ok: true, output: 'done 1' });
  });

  it('is disposed by its memory limit instead of growing the service heap, then boots a fresh isolate', () => {
    // Output caps and (load) the clock lifted, so only the heap limit can stop the allocation.
    const renderer = rendererWith({ ...NO_TIME_CAP, memoryLimitMb: 16, maxOutput: 1e9, maxWorkUnits: 1e9 });
    const bomb = '{% set s = "ab" %}{% for i in range(27) %}{% set s = s ~ s %}{% endfor %}{{ s | upper | length }}';
    expect(renderer.render('bomb', bomb, {})).toMatchObject({ ok: false, reason: 'OUTPUT_LIMIT', message: 'the template needed more than 16 MB' });
    expect(renderer.render('ok', 'fine', {})).toEqual({ ok: true, output: 'fine' });
  });

  it('replaces an isolate whose heap a large render left over recycleHeapMb, and keeps one that stayed small', () => {
    const renderer = rendererWith({ ...NO_TIME_CAP, recycleHeapMb: 12 });
    expect(renderer.render('n', '{{ rows | length }}', { rows: [1, 2] })).toEqual({ ok: true, output: '2' });
    expect(renderer.recycled).toBe(0);
    // About 200 000 parsed objects in the isolate: its heap grows far past 12 MB for this render.
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ name: `row ${i}` }));
    expect(renderer.render('n', '{{ rows | length }}', { rows })).toEqual({ ok: true, output: '200000' });
    expect(renderer.recycled).toBe(1);
    expect(renderer.render('n', '{{ rows | length }}', { rows: [1] })).toEqual({ ok: true, output: '1' });
    expect(renderer.recycled).toBe(1);
  });

  it('copies a context into the isolate once for renders with the same context, and never shows one render another\'s data', () => {
    const renderer = rendererWith(NO_TIME_CAP);
    const tenantA = { secret: 'A-only', n: 1 };
    expect(renderer.render('t', '{{ secret }}|{{ n }}', tenantA)).toEqual({ ok: true, output: 'A-only|1' });
    expect(renderer.render('u', '{{ n }}{{ secret }}', { ...tenantA })).toEqual({ ok: true, output: '1A-only' });
    expect(renderer.contextsSent).toBe(1);
    // Another context replaces the kept one whole: nothing of the first is merged in.
    expect(renderer.render('t', '{{ secret }}|{{ n }}', { n: 1 })).toEqual({ ok: true, output: '|1' });
    expect(renderer.contextsSent).toBe(2);
    // What a render sets is its own: the next render with the same context reads the context.
    expect(renderer.render('s', '{% set n = 99 %}{% set secret = "x" %}{{ n }}', { n: 1 })).toEqual({ ok: true, output: '99' });
    expect(renderer.render('t', '{{ secret }}|{{ n }}', { n: 1 })).toEqual({ ok: true, output: '|1' });
    expect(renderer.contextsSent).toBe(2);
    // A failed render keeps nothing it could pass on either.
    expect(renderer.render('f', '{{ n }}{{ range.constructor("return 1")() }}', { n: 2 })).toMatchObject({ ok: false, reason: 'FORBIDDEN' });
    expect(renderer.render('t', '{{ secret }}|{{ n }}', { n: 2 })).toEqual({ ok: true, output: '|2' });
    // A large context is sent again each render, not kept on the host.
    const large = { n: 4, text: 'x'.repeat(300_000) };
    const sent = renderer.contextsSent;
    expect(renderer.render('t', '{{ secret }}|{{ n }}', large)).toEqual({ ok: true, output: '|4' });
    expect(renderer.render('t', '{{ secret }}|{{ n }}', large)).toEqual({ ok: true, output: '|4' });
    expect(renderer.contextsSent - sent).toBe(2);
  });

  it('renders a context the isolate holds without serialising or sending it again; extra values cross with each render', () => {
    const renderer = rendererWith(NO_TIME_CAP);
    const turn = new PreparedContext({ n: 1, s: 'x' });
    const json = vi.spyOn(turn, 'json');
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', turn, null)).toEqual({ ok: true, output: '1x' });
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', turn, { s: 'y' })).toEqual({ ok: true, output: '1y' });
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', turn, { s: 'z' })).toEqual({ ok: true, output: '1z' });
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', turn, null)).toEqual({ ok: true, output: '1x' });
    expect(renderer.contextsSent).toBe(1);
    expect(json).toHaveBeenCalledTimes(1);
    // Equal text needs no copy either; another context replaces it whole, and the first is sent again.
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', new PreparedContext({ n: 1, s: 'x' }), null)).toEqual({ ok: true, output: '1x' });
    expect(renderer.contextsSent).toBe(1);
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', new PreparedContext({ n: 2 }), { s: 'y' })).toEqual({ ok: true, output: '2y' });
    expect(renderer.renderPrepared('a', '{{ n }}{{ s }}', turn, { s: 'y' })).toEqual({ ok: true, output: '1y' });
    expect(renderer.contextsSent).toBe(3);
  });

  it('in-process, deep-freezes a context it renders, so no render can change it for the next', () => {
    const renderer = new InProcessTemplateRenderer({ limits: renderLimitsOf({ ...DEFAULT_TEMPLATE_LIMITS, ...NO_TIME_CAP }), templates: {}, cacheSize: 10 });
    const turn = new PreparedContext({ o: { list: [1] } });
    expect(renderer.renderPrepared('a', '{{ o.list | join }}{{ x }}', turn, { x: 2 })).toEqual({ ok: true, output: '12' });
    expect(Object.isFrozen(turn.data) && Object.isFrozen(turn.data.o) && Object.isFrozen((turn.data.o as { list: unknown }).list)).toBe(true);
  });

  it('sends the context again after an isolate was replaced', () => {
    const renderer = rendererWith({ ...NO_TIME_CAP, hardTimeoutMs: 1000 });
    const context = { t: 'a'.repeat(4000), n: 3 };
    expect(renderer.render('n', '{{ n }}', context)).toEqual({ ok: true, output: '3' });
    expect(renderer.render('slow', '{{ t is matching(".*.*.*.*.*x") }}', context)).toMatchObject({ ok: false, reason: 'TIMEOUT' });
    expect(renderer.render('n', '{{ n }}', context)).toEqual({ ok: true, output: '3' });
    expect(renderer.contextsSent).toBe(2);
  });

  it('deep-freezes the context it keeps, so code inside the isolate cannot change what the next render reads', () => {
    const isolate = new (isolatedVm().Isolate)({ memoryLimit: 32 });
    try {
      const context = isolate.createContextSync();
      context.evalSync(readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8'));
      context.evalSync(bootstrapSource({ limits: renderLimitsOf({ ...DEFAULT_TEMPLATE_LIMITS, ...NO_TIME_CAP }), templates: {}, cacheSize: 10 }));
      // Stands in for a gap in the hardening: whatever the parse made is caught and then attacked.
      context.evalSync(`var parse = JSON.parse; JSON.parse = function (t) { return globalThis.kept = parse(t); };
        __vanceCompile('t', '{{ xs | join(",") }}|{{ o.k }}');
        __vanceRender('t', ['{"xs":[1,2],"o":{"k":"v"}}']);
        try { kept.xs.push(3); } catch (e) {}
        try { kept.o.k = 'changed'; } catch (e) {}
        try { kept.extra = 1; } catch (e) {}`);
      expect(context.evalSync('__vanceRender("t")')).toBe('o1,2|v');
      expect(context.evalSync('Object.isFrozen(kept) && Object.isFrozen(kept.xs) && Object.isFrozen(kept.o)')).toBe(true);
      // A render's extra values (and the merged context, reused while they stay the same) are frozen too.
      context.evalSync(`__vanceRender('t', undefined, '{"o":{"k":"w"}}');
        try { kept.o.k = 'changed'; } catch (e) {}`);
      expect(context.evalSync(`__vanceRender('t', undefined, '{"o":{"k":"w"}}')`)).toBe('o1,2|w');
      expect(context.evalSync('__vanceRender("t")')).toBe('o1,2|v');
    } finally {
      isolate.dispose();
    }
  });

  it('merges a few extras over the kept context once each, and never over a replaced context', () => {
    const isolate = new (isolatedVm().Isolate)({ memoryLimit: 32 });
    try {
      const context = isolate.createContextSync();
      context.evalSync(readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8'));
      context.evalSync(bootstrapSource({ limits: renderLimitsOf({ ...DEFAULT_TEMPLATE_LIMITS, ...NO_TIME_CAP }), templates: {}, cacheSize: 10 }));
      context.evalSync(`var parse = JSON.parse; globalThis.parses = 0; JSON.parse = function (t) { parses++; return parse(t); };
        __vanceCompile('t', '{{ c }}|{{ e }}');`);
      const render = (json: string | null, extra: string) =>
        context.evalSync(`__vanceRender('t', ${json === null ? 'undefined' : JSON.stringify([json])}, ${JSON.stringify(extra)})`) as string;
      // A turn's renders: no append, then the append twice; the next turn with the same context again.
      expect(render('{"c":1}', '{"e":""}')).toBe('o1|');
      expect(render(null, '{"e":"a"}')).toBe('o1|a');
      expect(render(null, '{"e":"a"}')).toBe('o1|a');
      expect(render(null, '{"e":""}')).toBe('o1|');
      expect(render(null, '{"e":"a"}')).toBe('o1|a');
      expect(context.evalSync('parses')).toBe(3); // the context, and each extra once
      // A replaced context drops every merged view: the same extra text now merges over the new one.
      expect(render('{"c":2}', '{"e":"a"}')).toBe('o2|a');
      expect(render(null, '{"e":""}')).toBe('o2|');
      expect(context.evalSync('parses')).toBe(6);
      // A bounded number is kept: five other extras push the first one out.
      for (let i = 0; i < 5; i++) expect(render(null, `{"e":"x${i}"}`)).toBe(`o2|x${i}`);
      expect(render(null, '{"e":"a"}')).toBe('o2|a');
      expect(context.evalSync('parses')).toBe(12);
    } finally {
      isolate.dispose();
    }
  });

  it('gives templates nothing of the host even without the hardening (no process, no require)', () => {
    const isolate = new (isolatedVm().Isolate)({ memoryLimit: 32 });
    try {
      const context = isolate.createContextSync();
      context.evalSync(readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8'));
      // Default (unhardened) nunjucks: the classic payload runs JavaScript, but only inside the isolate.
      expect(context.evalSync('new nunjucks.Environment([]).renderString(\'{{ "".constructor.constructor("return typeof process")() }}\', {})'))
        .toBe('undefined');
      context.evalSync(bootstrapSource({ limits: renderLimitsOf(DEFAULT_TEMPLATE_LIMITS), templates: {}, cacheSize: 10 }));
      expect(context.evalSync('[typeof process, typeof require, typeof module, typeof __vanceRender].join()')).toBe('undefined,undefined,undefined,function');
    } finally {
      isolate.dispose();
    }
  });
});
