import { afterAll, describe, expect, it } from 'vitest';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { NO_TIME_CAP, SANDBOXES } from './testing';

describe.each(SANDBOXES)('template semantics (%s)', (sandbox) => {
  // Load: the clock is lifted, so an ordinary render cannot miss the 50 ms / 100 ms defaults on a busy machine.
  const engine = new NunjucksTemplateEngine({
    sandbox,
    limits: NO_TIME_CAP,
    templates: {
      'layout': 'Header|{% block body %}default body{% endblock %}|Footer',
      'macros': '{% macro item(label, mark="-") %}{{ mark }} {{ label }}{% endmacro %}',
      'partial': 'partial sees {{ who }}',
    },
  });
  afterAll(() => engine.dispose());
  const render = (source: string, context: Record<string, unknown> = {}) => engine.render(source, context);

  describe('nunjucks semantics', () => {
    it('numbers loop.index from 1 and exposes first/last/length', async () => {
      await expect(render('{% for x in xs %}{{ loop.index }}{{ x }}{% if loop.last %}/{{ loop.length }}{% endif %} {% endfor %}', { xs: ['a', 'b', 'c'] }))
        .resolves.toBe('1a 2b 3c/3 ');
    });

    it('excludes the end of range() and supports a step', async () => {
      await expect(render('{{ range(3) | join(",") }}|{{ range(2, 5) | join(",") }}|{{ range(10, 0, -4) | join(",") }}')).resolves.toBe('0,1,2|2,3,4|10,6,2');
    });

    it('iterates the keys and values of a map, and runs the else branch of an empty loop', async () => {
      await expect(render('{% for k, v in m %}{{ k }}={{ v }};{% endfor %}{% for x in none %}{% else %}empty{% endfor %}', { m: { a: 1, b: 'x' } }))
        .resolves.toBe('a=1;b=x;empty');
    });

    it('supports the operators real recipes use: ==, and/or/not, comparisons, in, ~, inline if', async () => {
      const out = await render(
        '{{ tier == "small" }} {{ a and not b }} {{ n > 2 or n <= 0 }} {{ "b" in "abc" }} {{ 3 in [1, 3] }} {{ "v" ~ n }} {{ "y" if a else "n" }} {{ n + 1 }}',
        { tier: 'small', a: true, b: false, n: 3 },
      );
      expect(out).toBe('true true true true true v3 y 4');
    });

    it('reads map and list members with dots and brackets', async () => {
      await expect(render('{{ params.maxIterations }} {{ params["model"] }} {{ xs[1] }} {{ xs.length }} {{ "abc".length }}', { params: { maxIterations: 8, model: 'm' }, xs: [1, 2] }))
        .resolves.toBe('8 m 2 2 3');
    });

    it('prints undefined and null as nothing', async () => {
      await expect(render('[{{ missing }}][{{ nothing }}][{{ obj.missing.deeper }}]', { nothing: null, obj: {} })).resolves.toBe('[][][]');
    });

    it('drops comments', async () => {
      await expect(render('a{# a comment with {{ braces }} #}b')).resolves.toBe('ab');
    });

    it('renders set, set blocks and macros with defaults and caller()', async () => {
      await expect(render('{% set x = "v" %}{% set y %}[{{ x }}]{% endset %}{{ y }}{% macro m(a, b="d") %}{{ a }}{{ b }}{% endmacro %}{{ m(1) }}{{ m(1, b=2) }}'))
        .resolves.toBe('[v]1d12');
      await expect(render('{% macro box() %}<{{ caller() }}>{% endmacro %}{% call box() %}in{% endcall %}')).resolves.toBe('<in>');
    });

    it('does not HTML-escape (prompts are text, not HTML)', async () => {
      await expect(render('{{ code }}', { code: 'if (a < b && c > "d") {}' })).resolves.toBe('if (a < b && c > "d") {}');
    });
  });

  describe('Pebble constructs (DESIGN §10)', () => {
    it('accepts elseif as well as elif', async () => {
      const source = '{% if tier == "small" %}S{% elseif tier == "large" %}L{% elif tier == "huge" %}H{% else %}?{% endif %}';
      await expect(render(source, { tier: 'large' })).resolves.toBe('L');
      await expect(render(source, { tier: 'huge' })).resolves.toBe('H');
      await expect(render(source, {})).resolves.toBe('?');
    });

    it('tests "is matching" as an unanchored regex search, with Java inline flags', async () => {
      const source = '{{ model is matching("sonnet") }} {{ model is matching("^gemini") }} {{ model is matching("(?i)^CLAUDE-.*-4") }} {{ model is not matching("gpt") }}';
      await expect(render(source, { model: 'claude-sonnet-4' })).resolves.toBe('true false true true');
    });

    it('never matches a missing value, and matches numbers as their text', async () => {
      await expect(render('{{ missing is matching(".*") }} {{ 42 is matching("^4") }}')).resolves.toBe('false true');
    });

    it('tests "is empty" / "is not empty" on strings, lists, maps, null and undefined', async () => {
      const source = [
        'str', 'blank', 'full', 'list', 'items', 'map', 'entries', 'nothing', 'missing', 'zero', 'no',
      ].map((name) => `${name}={{ ${name} is empty }}`).join(' ');
      const out = await render(source, { str: '', blank: '  \n', full: 'x', list: [], items: [0], map: {}, entries: { a: 1 }, nothing: null, zero: 0, no: false });
      expect(out).toBe('str=true blank=true full=false list=true items=false map=true entries=false nothing=true missing=true zero=false no=false');
      await expect(render('{% if xs is not empty %}has{% endif %}{% if ys is not empty %}never{% endif %}', { xs: ['a'] })).resolves.toBe('has');
    });

    it('tests "is null" true for null and for undefined', async () => {
      await expect(render('{{ a is null }} {{ b is null }} {{ c is null }} {{ c is not null }}', { a: null, c: '' })).resolves.toBe('true true false true');
    });

    it('tests "is map"', async () => {
      await expect(render('{{ m is map }} {{ l is map }} {{ s is map }}', { m: {}, l: [], s: 'x' })).resolves.toBe('true false false');
    });

    it('leaves raw blocks unrendered', async () => {
      await expect(render('{% raw %}{{ kept }} {% if %}{% endraw %}|{{ x }}', { x: 1 })).resolves.toBe('{{ kept }} {% if %}|1');
    });

    it('honours whitespace control on both sides of a tag', async () => {
      await expect(render('a\n  {%- if true -%}\n  b\n  {%- endif %}\nc')).resolves.toBe('ab\nc');
      await expect(render('Path: p\n{%- if title %}\nTitle: {{ title }}\n{%- endif %}\nend', { title: 'T' })).resolves.toBe('Path: p\nTitle: T\nend');
    });

    it('keeps the newline after a tag (nunjucks rules, no Pebble newline trimming)', async () => {
      await expect(render('{% if true %}\nx\n{% endif %}\n')).resolves.toBe('\nx\n\n');
    });
  });

  describe('filters', () => {
    it('joins lists, and gives the empty string for undefined and null', async () => {
      await expect(render('[{{ xs | join(", ") }}][{{ missing | join(", ") }}][{{ nothing | join }}][{{ xs | join }}]', { xs: ['a', 'b'], nothing: null }))
        .resolves.toBe('[a, b][][][ab]');
      await expect(render('{{ users | join(", ", "name") }}', { users: [{ name: 'x' }, { name: 'y' }] })).resolves.toBe('x, y');
    });

    it('slugs text: accents folded, lower case, runs of other characters become one dash', async () => {
      await expect(render('{{ "  Hello, Wörld! Déjà vu -- 2024  " | slug }}|{{ "Ünïcode_and_underscores" | slug }}|{{ "a b" | slug("_") }}'))
        .resolves.toBe('hello-world-deja-vu-2024|unicode-and-underscores|a_b');
    });

    it('indents every line after the first for YAML, leaving empty lines empty', async () => {
      await expect(render('key: |\n  {{ body | yamlIndent }}', { body: 'line 1\r\nline 2\n\nline 4\n' }))
        .resolves.toBe('key: |\n  line 1\n  line 2\n\n  line 4\n');
      await expect(render('{{ body | yamlIndent(4) }}|{{ missing | yamlIndent }}', { body: 'a\rb' })).resolves.toBe('a\n    b|');
    });

    it('refuses a yamlIndent width outside 0–100', async () => {
      await expect(render('{{ "a\\nb" | yamlIndent(101) }}')).rejects.toMatchObject({ reason: 'RUNTIME' });
    });

    it('keeps the usual nunjucks builtins', async () => {
      const out = await render(
        '{{ "hello world" | title }}|{{ "x" | upper }}|{{ "Y" | lower }}|{{ "abc" | capitalize }}|{{ xs | length }}|{{ xs | first }}|{{ xs | last }}|' +
        '{{ xs | sort | join(",") }}|{{ xs | reverse | join(",") }}|{{ missing | default("d") }}|{{ "" | default("e", true) }}|{{ "  t  " | trim }}|' +
        '{{ "a-b" | replace("-", "+") }}|{{ 3.7 | round }}|{{ "5" | int + 1 }}|{{ xs | sum }}|{{ m | dump }}|{{ "a\\nb" | indent(2) }}|{{ "abcdef" | truncate(3, true) }}|{{ "a b c" | wordcount }}',
        { xs: [3, 1, 2], m: { k: [1] } },
      );
      expect(out).toBe('Hello World|X|y|Abc|3|3|2|1,2,3|2,1,3|d|e|t|a+b|4|6|6|{"k":[1]}|a\n  b|abc...|3');
    });

    it('sorts, groups and selects by attribute', async () => {
      const users = [{ name: 'b', role: 'dev', admin: true }, { name: 'a', role: 'ops' }, { name: 'c', role: 'dev' }];
      await expect(render('{{ users | sort(false, false, "name") | join(",", "name") }}|{{ users | selectattr("admin") | join(",", "name") }}|{{ users | rejectattr("admin") | join(",", "name") }}', { users }))
        .resolves.toBe('a,b,c|b|a,c');
      await expect(render('{% for role, list in users | groupby("role") %}{{ role }}:{{ list | length }} {% endfor %}', { users })).resolves.toBe('dev:2 ops:1 ');
    });

    it('has no HTML-only filters', async () => {
      await expect(render('{{ "<b>x</b>" | striptags }}')).rejects.toMatchObject({ reason: 'SYNTAX' });
    });
  });

  describe('composition through registered templates only', () => {
    it('extends a registered layout and calls super()', async () => {
      await expect(render('{% extends "layout" %}{% block body %}child+{{ super() }}{% endblock %}')).resolves.toBe('Header|child+default body|Footer');
    });

    it('imports macros and includes partials with the caller context', async () => {
      await expect(render('{% import "macros" as m %}{{ m.item("one") }} {% from "macros" import item %}{{ item("two", "*") }}')).resolves.toBe('- one * two');
      await expect(render('{% include "partial" %}', { who: 'me' })).resolves.toBe('partial sees me');
    });

    it('fails closed for any name that is not registered', async () => {
      for (const name of ['/etc/passwd', '../../package.json', 'views/index.html', 'constructor', '__proto__']) {
        await expect(render(`{% include "${name}" %}`)).rejects.toMatchObject({ reason: 'RUNTIME', message: expect.stringContaining('template not found') });
      }
      await expect(render('{% extends "nope" %}')).rejects.toMatchObject({ reason: 'RUNTIME' });
    });
  });

  describe('variables are data', () => {
    it('never re-parses a variable as a template', async () => {
      await expect(render('{{ v }}|{{ v | upper }}', { v: '{{ 7*7 }}{% for x in y %}' })).resolves.toBe('{{ 7*7 }}{% for x in y %}|{{ 7*7 }}{% FOR X IN Y %}');
    });

    it('renders the same template again from the compile cache with new data', async () => {
      await expect(render('hi {{ n }}', { n: 1 })).resolves.toBe('hi 1');
      await expect(render('hi {{ n }}', { n: 2 })).resolves.toBe('hi 2');
    });
  });
});
