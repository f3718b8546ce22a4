import { isolatedVm } from './isolated-vm';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATE_LIMITS, renderLimitsOf, type TemplateLimits } from '../templates/limits';
import { bootstrapSource, IsolatedTemplateRenderer } from './isolated-template-renderer';

function rendererWith(overrides: Partial<TemplateLimits> = {}): IsolatedTemplateRenderer {
  const limits = { ...DEFAULT_TEMPLATE_LIMITS, ...overrides };
  const renderer = new IsolatedTemplateRenderer({ limits: renderLimitsOf(limits), templates: {}, cacheSize: 10 }, limits);
  afterAll(() => renderer.dispose());
  return renderer;
}

describe('IsolatedTemplateRenderer', () => {
  it('renders with the injected hardening', () => {
    const renderer = rendererWith();
    expect(renderer.render('a', '{% for x in xs %}{{ loop.index }}{{ x }}{% endfor %}', { xs: ['a', 'b'] })).toEqual({ ok: true, output: '1a2b' });
    expect(renderer.render('b', '{{ range.constructor("return 1")() }}', {})).toMatchObject({ ok: false, reason: 'FORBIDDEN' });
  });

  it('stops with its hard time limit what the cooperative budget cannot see, then boots a fresh isolate', () => {
    const renderer = rendererWith({ hardTimeoutMs: 100 });
    // One polynomial regex evaluation: no hook runs inside it.
    expect(renderer.render('slow', '{{ t is matching(".*.*.*.*.*x") }}', { t: 'a'.repeat(4000) }))
      .toEqual({ ok: false, reason: 'TIMEOUT', message: 'the template ran longer than 100 ms' });
    expect(renderer.render('ok', '{{ 1 + 1 }}', {})).toEqual({ ok: true, output: '2' });
  });

  // Retried: on a 2-core box running other suites, even the trivial render can miss a 40 ms limit.
  it('compiles a large template under its own, longer limit', { retry: 2 }, () => {
    const renderer = rendererWith({ hardTimeoutMs: 40 });
    // Heavy to compile, trivial to render (one false condition skips it all), so only the compile
    // limit is exercised — a render that evaluated every branch could pass 40 ms on a loaded CI box.
    const body = Array.from({ length: 1500 }, (_, i) => `{% if n > ${i} %}line ${i} {{ n }}{% endif %}\n`).join('');
    const large = `{% if n > 5000 %}${body}{% endif %}done {{ n }}`;
    const outcome = renderer.render('large', large, { n: 1 });
    expect(outcome).toEqual({ ok: true, output: 'done 1' });
  });

  it('is disposed by its memory limit instead of growing the service heap, then boots a fresh isolate', () => {
    // Output caps lifted so only the heap limit can stop the allocation.
    const renderer = rendererWith({ memoryLimitMb: 16, maxOutput: 1e9, maxWorkUnits: 1e9, timeLimitMs: 10_000, hardTimeoutMs: 10_000 });
    const bomb = '{% set s = "ab" %}{% for i in range(27) %}{% set s = s ~ s %}{% endfor %}{{ s | upper | length }}';
    expect(renderer.render('bomb', bomb, {})).toMatchObject({ ok: false, reason: 'OUTPUT_LIMIT', message: 'the template needed more than 16 MB' });
    expect(renderer.render('ok', 'fine', {})).toEqual({ ok: true, output: 'fine' });
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
