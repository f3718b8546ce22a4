import { describe, expect, it } from 'vitest';
import { parseRecipe } from './parse-recipe';
import { FakeTemplateEngine } from './testing';

const PATH = '_vance/recipes/analyze.yaml';
const parse = (content: string, templates = new FakeTemplateEngine()) => parseRecipe({ name: 'analyze', path: PATH, content }, templates);
const only = (content: string) => {
  const result = parse(content);
  expect(result.diagnostics).toHaveLength(1);
  return result.diagnostics[0]!;
};

describe('parseRecipe — YAML', () => {
  it('resolves anchors and aliases, honours merge keys, and ignores _-prefixed anchor holders', () => {
    const { recipe, diagnostics } = parse(`description: d
engine: ford
_excludes: &excludes
  - doc_purge
  - doc_delete
_stance: &stance |
  Be bold.
_base: &base
  allowedToolsRemove: *excludes
  promptPrefixAppend: *stance
allowedToolsRemove: *excludes
profiles:
  web:
    <<: *base
    params: { maxIterations: 4 }
  default: *base
`);
    expect(diagnostics).toEqual([]);
    expect(recipe?.allowedToolsRemove).toEqual(['doc_purge', 'doc_delete']);
    expect(recipe?.profiles.get('web')).toMatchObject({ allowedToolsRemove: ['doc_purge', 'doc_delete'], promptPrefixAppend: 'Be bold.\n', params: { maxIterations: 4 } });
    expect(recipe?.profiles.get('default')).toMatchObject({ allowedToolsRemove: ['doc_purge', 'doc_delete'], promptPrefixAppend: 'Be bold.\n' });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefg'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill('*' + 'abcdefg'[i]).join(', ')}]`)].join('\n');
    const { recipe, diagnostics } = parse(`description: d\nengine: ford\n${bomb}\n`);
    expect(recipe).toBeNull();
    expect(diagnostics[0]).toMatchObject({ severity: 'ERROR', message: expect.stringContaining('YAML') });
  });

  it('reports a syntax error at its line and column', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\nparams:\n  a: [1, 2\n  b: 3\n');
    expect(recipe).toBeNull();
    // Issue 15: at the `[` left open (line 4), not at the next line, where the parser noticed it.
    expect(diagnostics).toMatchObject([{ severity: 'ERROR', path: PATH, line: 4, column: 6, message: expect.stringContaining('YAML syntax') }]);
  });

  it.each([
    ['an unclosed flow map', 'description: d\nengine: ford\nparams: {maxIterations: 3\ntags: [a]\n', 3, 9],
    ['an unclosed quote', 'description: "d\nengine: ford\ntags: [a]\n', 1, 14],
    ['an unclosed inner list', 'description: d\nengine: ford\ntags: [a, [b, c]\nlisted: true\n', 3, 7],
    ['a bad indentation (already on its line)', 'description: d\nengine: ford\nparams:\n  a: 1\n b: 2\n', 5, 1],
  ])('reports %s where it is written (issue 15)', (_, content, line, column) => {
    expect(parse(content).diagnostics[0]).toMatchObject({ severity: 'ERROR', line, column });
  });

  it('reports a duplicate key', () => {
    expect(parse('description: d\nengine: ford\nengine: arthur\n').diagnostics[0]).toMatchObject({ severity: 'ERROR', line: 3 });
  });

  it.each([
    ['an empty file', '', 'empty'],
    ['a list', '- a\n- b\n', 'a YAML map'],
    ['a scalar', 'just text\n', 'a YAML map'],
  ])('rejects %s with a specific message', (_what, content, message) => {
    expect(only(content)).toMatchObject({ severity: 'ERROR', line: 1, column: 1, message: expect.stringContaining(message) });
  });

  it('hides a disabled recipe without asking for its other fields', () => {
    expect(parse('enabled: false\n')).toEqual({ recipe: null, diagnostics: [], tenants: [], enabled: false });
  });

  it('keeps the tenants barrier readable on a broken recipe', () => {
    const result = parse('engine: ford\ntenants: [acme]\n');
    expect(result.recipe).toBeNull();
    expect(result.tenants).toEqual(['acme']);
  });

  it('accepts CRLF line endings', () => {
    expect(parse('description: d\r\nengine: ford\r\nlocked: true\r\n').recipe?.locked).toBe(true);
  });
});

describe('parseRecipe — templates (seed 004 §5.4)', () => {
  it('reports a promptPrefix syntax error at the file line of a block scalar', () => {
    expect(only('description: d\nengine: ford\npromptPrefix: |\n  line one\n\n  {% frobnicate %}\n')).toMatchObject({
      severity: 'ERROR', field: 'promptPrefix', line: 6, column: 3, message: expect.stringContaining("unknown tag 'frobnicate'"),
    });
  });

  it('reports a syntax error of a one-line template at its column', () => {
    expect(only('description: d\nengine: ford\npromptPrefix: "Hi {{ name"\n')).toMatchObject({ line: 3, column: 19 });
  });

  it("reports a profile append's error at its file line", () => {
    expect(only('description: d\nengine: ford\nprofiles:\n  foot:\n    promptPrefixAppend: |\n      ok\n      {% nope %}\n')).toMatchObject({
      severity: 'ERROR', field: 'profiles.foot.promptPrefixAppend', line: 7, column: 7,
    });
  });

  it('locates an error in an aliased template at the anchored text', () => {
    const result = parse('description: d\nengine: ford\n_s: &s |\n  fine\n  {% bad %}\nprofiles:\n  web:\n    promptPrefixAppend: *s\n');
    expect(result.diagnostics).toMatchObject([{ field: 'profiles.web.promptPrefixAppend', line: 5, column: 3 }]);
  });

  it('skips the compile check when no template engine is given', () => {
    expect(parseRecipe({ name: 'x', path: 'x', content: 'description: d\nengine: ford\npromptPrefix: "{% bad %}"\n' }).diagnostics).toEqual([]);
  });
});
