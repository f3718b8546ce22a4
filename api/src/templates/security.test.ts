import { afterAll, describe, expect, it } from 'vitest';
import { TemplateRenderError } from '../domain/templates/errors';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { NO_TIME_CAP, SANDBOXES } from './testing';

/** Outcomes that count as failing closed: an error with a reason, or nothing rendered. */
async function outcome(engine: NunjucksTemplateEngine, source: string, context: Record<string, unknown> = {}): Promise<string> {
  try {
    return `rendered:${await engine.render(source, context)}`;
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    return error.reason;
  }
}

describe.each(SANDBOXES)('template security boundary, DESIGN §6 (%s)', (sandbox) => {
  // Load: with the 50 ms / 100 ms defaults a busy machine stopped the output-cap loop with TIMEOUT
  // before it reached the cap; only the time-cap block below runs under the default clock.
  const engine = new NunjucksTemplateEngine({ sandbox, limits: NO_TIME_CAP });
  const capped = new NunjucksTemplateEngine({ sandbox });
  afterAll(() => {
    engine.dispose();
    capped.dispose();
  });

  describe('no function or method call, no prototype or constructor access (SSTI)', () => {
    it.each([
      ['range.constructor(...)()', '{{ range.constructor("return process")() }}'],
      ['"".constructor.constructor(...)()', '{{ "".constructor.constructor("return 1")() }}'],
      ['cycler.constructor(...)() (cycler is gone)', '{{ cycler.constructor("return process")() }}'],
      ['joiner.constructor(...)()', '{{ joiner.constructor("return 1")() }}'],
      ['a method on a string literal', '{{ "abc".toUpperCase() }}'],
      ['through a loop variable', '{% for f in [range] %}{{ f.constructor("return 1")() }}{% endfor %}'],
      ['through | first', '{{ ([range] | first).constructor("return 1")() }}'],
      ['through set f = range', '{% set f = range %}{{ f.constructor("return 1")() }}'],
      ['through a bracket lookup', '{{ range["constructor"]("return 1")() }}'],
      ['a macro\'s constructor', '{% macro m() %}{% endmacro %}{{ m.constructor("return 1")() }}'],
      ['lipsum()', '{{ lipsum(1) }}'],
    ])('refuses %s as FORBIDDEN', async (_name, source) => {
      await expect(outcome(engine, source)).resolves.toBe('FORBIDDEN');
    });

    it.each([
      ['cycler.__proto__', '{{ cycler.__proto__ }}'],
      ['x["constructor"]', '{{ x["constructor"] }}'],
      ['x.__proto__.constructor', '{{ x.__proto__.constructor }}'],
      ['range.prototype walk', '{{ range.prototype.constructor.constructor }}'],
      ['set f = range; f.constructor', '{% set f = range %}{{ f.constructor }}'],
      ['loop variable .constructor', '{% for v in [1] %}{{ v.constructor }}{{ loop.constructor }}{% endfor %}'],
      ['| first .constructor', '{{ (xs | first).constructor }}'],
      ['top-level constructor / toString / __proto__ / valueOf', '{{ constructor }}{{ toString }}{{ __proto__ }}{{ valueOf }}{{ hasOwnProperty }}'],
      ['a method read without calling it', '{{ "abc".toUpperCase }}{{ xs.push }}'],
    ])('resolves %s to nothing', async (_name, source) => {
      await expect(outcome(engine, source, { x: {}, xs: [{}] })).resolves.toBe('rendered:');
    });

    it('never calls a method of a context object', async () => {
      let called = false;
      const o = { method: () => { called = true; return 'ran'; } };
      await expect(outcome(engine, '{{ o.method() }}', { o })).resolves.toBe('FORBIDDEN');
      await expect(outcome(engine, '{{ o.method }}', { o })).resolves.toBe('rendered:');
      expect(called).toBe(false);
    });

    it('never invokes a getter of a context object', async () => {
      let invoked = 0;
      const o = Object.defineProperty({ plain: 'p' }, 'secret', { enumerable: true, get: () => { invoked++; return 's'; } });
      class WithGetter { get computed() { invoked++; return 'c'; } }
      await expect(outcome(engine, '{{ o.secret }}|{{ o.plain }}|{{ w.computed }}|{% for k, v in o %}{{ k }}={{ v }};{% endfor %}', { o, w: new WithGetter() }))
        .resolves.toBe('rendered:|p||plain=p;');
      expect(invoked).toBe(0);
    });

    it('refuses calling a function passed in the context', async () => {
      await expect(outcome(engine, '{{ f() }}', { f: () => 'x' })).resolves.toBe('FORBIDDEN');
    });

    it('knows no filter or test named like an Object member', async () => {
      await expect(outcome(engine, '{{ "return 1" | constructor }}')).resolves.toBe('SYNTAX');
      await expect(outcome(engine, '{{ x is __proto__ }}')).resolves.toBe('SYNTAX');
    });

    it('refuses regex literals, a nunjucks-only syntax', async () => {
      await expect(outcome(engine, '{{ "aaa" | replace(r/a+/g, "b") }}')).resolves.toBe('SYNTAX');
    });

    it('still renders normal templates after the runtime was patched', async () => {
      await expect(engine.render('{% for x in xs %}{{ loop.index }}:{{ x.name | upper }} {% endfor %}{{ range(2) | join("-") }}', { xs: [{ name: 'a' }, { name: 'b' }] }))
        .resolves.toBe('1:A 2:B 0-1');
    });
  });

  // Default limits. Load-proof: the work is unbounded (or far beyond every cap), and whichever stops
  // it first — the clock, the hard isolate timeout, the work budget, range() or the call depth —
  // answers TIMEOUT, so a slow machine only changes which cap fires, not the reason.
  describe('time cap (each stopped with TIMEOUT)', () => {
    it.each([
      ['range(0, 1e8)', '{% for i in range(0, 100000000) %}x{% endfor %}'],
      ['nested 10k × 10k loops', '{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}'],
      ['a macro bomb f(40) = 2^40 calls', '{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}'],
      ['unbounded macro recursion', '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}'],
      ['loops over a huge list', '{% for a in xs %}{% for b in xs %}{% for c in xs %}{% endfor %}{% endfor %}{% endfor %}'],
    ])('%s', async (_name, source) => {
      await expect(outcome(capped, source, { xs: Array.from({ length: 2000 }, (_, i) => i) })).resolves.toBe('TIMEOUT');
    });
  });

  // Load: the clock is lifted (NO_TIME_CAP) so only the output cap can stop these; the work budget
  // that remains is counted in steps, not milliseconds, and none of them comes near it.
  describe('output cap of 1,000,000 characters (each stopped with OUTPUT_LIMIT, before allocating)', () => {
    it.each([
      ['string doubling then output', '{% set s = "ab" %}{% for i in range(30) %}{% set s = s ~ s %}{% endfor %}{{ s }}'],
      ['string doubling with +', '{% set s = "ab" %}{% for i in range(30) %}{% set s = s + s %}{% endfor %}{{ s | length }}'],
      ['one expression of many copies', '{% set s = "ab" %}{% for i in range(18) %}{% set s = s ~ s %}{% endfor %}{% if (s ~ s ~ s ~ s) == (s ~ s ~ s ~ s) %}same{% endif %}'],
      ['a loop printing 2,000 × 1,000 characters', '{% for i in range(2000) %}{{ chunk }}{% endfor %}'],
      ['indent(50000000)', '{{ "a\\nb" | indent(50000000) }}'],
      ['center(100000000)', '{{ "a" | center(100000000) }}'],
      ['replace("", long)', '{{ chunk | replace("", chunk) }}'],
      ['yamlIndent of many lines', '{{ lines | yamlIndent(100) }}'],
      ['join of many large items', `{% set s = chunk ~ chunk ~ chunk ~ chunk %}{{ [${Array(300).fill('s').join(', ')}] | join }}`],
      ['dump of many large items', `{% set s = chunk ~ chunk ~ chunk ~ chunk %}{{ [${Array(300).fill('s').join(', ')}] | dump }}`],
      ['batch with a huge count', '{{ [1] | batch(100000000, "x") | length }}'],
      ['slice with a huge count', '{{ [1] | slice(100000000) | length }}'],
    ])('%s', async (_name, source) => {
      const context = { chunk: 'x'.repeat(1000), lines: Array.from({ length: 20_000 }, () => 'l').join('\n') };
      await expect(outcome(engine, source, context)).resolves.toBe('OUTPUT_LIMIT');
    });

    it('renders exactly 1,000,000 characters and refuses one more', async () => {
      const chunk = 'y'.repeat(1000);
      await expect(engine.render('{% for i in range(1000) %}{{ c }}{% endfor %}', { c: chunk })).resolves.toHaveLength(1_000_000);
      await expect(outcome(engine, '{% for i in range(1000) %}{{ c }}{% endfor %}!', { c: chunk })).resolves.toBe('OUTPUT_LIMIT');
    });
  });

  describe('bounded regular expressions in "is matching"', () => {
    it.each([
      ['a nested quantifier', '(a+)+$'],
      ['a repeated alternation', '(a|aa)*$'],
      ['a backreference', '(a)\\\\1'],
    ])('refuses %s as FORBIDDEN', async (_name, pattern) => {
      await expect(outcome(engine, `{{ t is matching("${pattern}") }}`, { t: 'aaaa' })).resolves.toBe('FORBIDDEN');
    });

    it('refuses an over-long tested text', async () => {
      await expect(outcome(engine, '{{ t is matching("a") }}', { t: 'a'.repeat(20_000) })).resolves.toBe('RUNTIME');
    });
  });

  describe('the render context', () => {
    it('refuses circular data instead of crashing', async () => {
      const loop: Record<string, unknown> = { a: 1 };
      loop.self = loop;
      await expect(outcome(engine, '{{ c.a }}', { c: loop })).resolves.toBe('RUNTIME');
    });

    it('refuses a context nested too deeply', async () => {
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 100; i++) deep = { next: deep };
      await expect(outcome(engine, '{{ d }}', { d: deep })).resolves.toBe('RUNTIME');
    });
  });
});
