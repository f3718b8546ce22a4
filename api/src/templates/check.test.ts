import { afterAll, describe, expect, it } from 'vitest';
import { TemplateRenderError } from '../domain/templates/errors';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { NO_TIME_CAP, positionOf } from './testing';

describe('check(): syntax problems with 1-based positions relative to the source (seed 004 §5.4)', () => {
  const engine = new NunjucksTemplateEngine({ sandbox: 'in-process', limits: { maxSourceLength: 1000 } });

  it('returns no problems for a template that compiles', () => {
    expect(engine.check('Hello {{ name }}{% if a %}x{% elseif b %}y{% endif %}{{ m is matching("^c") }}{{ xs | join(", ") | slug }}')).toEqual([]);
  });

  it('points an unclosed block at its opening tag', () => {
    expect(engine.check('Hello\n  {% if tier == "small" %}\nshort\n')).toEqual([
      { message: '{% if %} is not closed (parseIf: expected elif, else, or endif, got end of file)', line: 2, column: 3 },
    ]);
  });

  it('points an end tag that closes over an open block at the open block', () => {
    expect(engine.check('a\n{% if x %}\n{% for y in z %}\n{% endif %}')).toEqual([
      { message: '{% for %} is not closed (unknown block tag: endif)', line: 3, column: 1 },
    ]);
  });

  it('points an unterminated output tag or comment at where it starts', () => {
    expect(engine.check('Hello {{ name')).toEqual([{ message: '{{ is not closed (expected variable end)', line: 1, column: 7 }]);
    expect(engine.check('a\n  {# note')).toEqual([{ message: '{# is not closed (expected end of comment, got end of file)', line: 2, column: 3 }]);
  });

  it('reports an unknown tag at the tag name', () => {
    expect(engine.check('x\n  {% frobnicate %}')).toEqual([{ message: 'unknown block tag: frobnicate', line: 2, column: 6 }]);
  });

  it('reports a bad expression at the offending token', () => {
    expect(engine.check('x\n\n   {{ a + }}')).toEqual([{ message: 'unexpected token: }}', line: 3, column: 11 }]);
    expect(engine.check('{% if %}{% endif %}')).toEqual([{ message: 'unexpected token: %}', line: 1, column: 7 }]);
  });

  it('reports unknown filters and tests at their names', () => {
    expect(engine.check('line\n  {{ a | nosuch }}')).toEqual([{ message: 'unknown filter "nosuch"', line: 2, column: 10 }]);
    expect(engine.check('{% if a is frobbed %}{% endif %}')).toEqual([{ message: 'unknown test "frobbed"', line: 1, column: 12 }]);
  });

  it('reports regex literals', () => {
    expect(engine.check('{{ r/x+/ }}')).toEqual([{ message: expect.stringContaining('regular expression literals'), line: 1, column: 4 }]);
  });

  it('is syntax-only: a forbidden call compiles and fails at render time (seed 004 §5.4)', async () => {
    const source = '{{ range.constructor("return process")() }}';
    expect(engine.check(source)).toEqual([]);
    await expect(engine.render(source, {})).rejects.toMatchObject({ reason: 'FORBIDDEN' });
  });

  it('refuses an over-long source without compiling it', () => {
    expect(engine.check('x'.repeat(1001))).toEqual([{ message: 'the template is longer than 1000 characters', line: 1, column: 1 }]);
  });

  it('reports a template nested too deeply instead of overflowing', () => {
    const deep = new NunjucksTemplateEngine({ sandbox: 'in-process' });
    expect(deep.check(`{{ ${'('.repeat(20_000)}`)).toHaveLength(1);
  });
});

describe('render(): the reason and the position where nunjucks knows it', () => {
  // Load: the clock is lifted, so the OUTPUT_LIMIT case cannot turn into a TIMEOUT on a busy machine.
  const engine = new NunjucksTemplateEngine({ sandbox: 'isolate', limits: NO_TIME_CAP });
  afterAll(() => engine.dispose());

  const failure = async (source: string, context: Record<string, unknown> = {}) => {
    try {
      await engine.render(source, context);
    } catch (error) {
      if (error instanceof TemplateRenderError) return { reason: error.reason, message: error.message, ...positionOf(error) };
      throw error;
    }
    throw new Error('rendered');
  };

  it('gives SYNTAX problems the same positions as check()', async () => {
    await expect(failure('Hello\n  {% if x %}\nshort')).resolves.toEqual({
      reason: 'SYNTAX', message: '{% if %} is not closed (parseIf: expected elif, else, or endif, got end of file)', line: 2, column: 3,
    });
  });

  it('locates a forbidden call and a failing filter', async () => {
    await expect(failure('a\n  {{ "x".toUpperCase() }}')).resolves.toMatchObject({ reason: 'FORBIDDEN', line: 2, column: 21 }) // the call's "(";
    await expect(failure('a\nb {{ xs | slice(5000) }}', { xs: [1] })).resolves.toMatchObject({ reason: 'OUTPUT_LIMIT', line: 2, column: 11 });
  });

  it('is a BAD_INPUT domain error with the code TEMPLATE_RENDER_FAILED', async () => {
    const error = await engine.render('{{ f() }}', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect(error).toMatchObject({ code: 'TEMPLATE_RENDER_FAILED', category: 'BAD_INPUT', reason: 'FORBIDDEN' });
  });
});

describe('referencedVariables()', () => {
  const engine = new NunjucksTemplateEngine({ sandbox: 'in-process' });
  const names = (source: string) => [...engine.referencedVariables(source)].sort();

  it('finds profileAppend where it is used', () => {
    expect(names('Rules.\n{{ profileAppend }}\nMore.')).toContain('profileAppend');
    expect(names('{% if profileAppend is not empty %}{{ profileAppend | yamlIndent }}{% endif %}')).toEqual(['profileAppend']);
  });

  it('does not find a name that only appears in a string literal, a comment or raw text', () => {
    expect(names('{{ "profileAppend" }}{# profileAppend #}{% raw %}{{ profileAppend }}{% endraw %}')).not.toContain('profileAppend');
  });

  it('reports free variables only: not loop variables, set targets, macro parameters, filter or test names', () => {
    const source = [
      '{% set x = a %}{{ x }}',
      '{% for item in items %}{{ item.title }}{{ loop.index }}{% endfor %}',
      '{% for k, v in map %}{{ k }}{{ v }}{% endfor %}',
      '{% macro m(p, q=dflt) %}{{ p }}{{ q }}{{ caller() }}{% endmacro %}{{ m(1) }}',
      '{{ xs | join(", ") | upper }}{{ model is matching("x") }}{{ e is empty }}',
      '{{ {key: val} }}{{ range(3) }}{{ params.maxIterations }}',
    ].join('\n');
    expect(names(source)).toEqual(['a', 'dflt', 'e', 'items', 'map', 'model', 'params', 'val', 'xs']);
  });

  it('reads a variable used before it is set', () => {
    expect(names('{{ x }}{% set x = 1 %}{{ x }}')).toEqual(['x']);
  });

  it('finds nothing in an unparseable template', () => {
    expect(names('{% if %}')).toEqual([]);
  });
});
