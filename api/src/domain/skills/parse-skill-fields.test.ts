import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import { parseSkill } from './parse-skill';

const PATH = '_vance/skills/review/SKILL.md';
/** Three lines (file lines 2–4); the fields under test start on file line 5. */
const HEAD = ['title: Review', 'description: Review changes', 'version: 1.0.0'];

function parse(fields: string[], body = 'Body') {
  return parseSkill({ name: 'review', path: PATH, content: ['---', ...HEAD, ...fields, '---', body].join('\n') });
}

const errors = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'ERROR');
const warnings = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'WARNING');

describe('parseSkill: triggers', () => {
  it('compiles a PATTERN trigger written for Java and reads a KEYWORDS trigger', () => {
    const { skill, diagnostics } = parse([
      'triggers:',
      '  - type: KEYWORDS',
      '    keywords: [review, diff, PR, pull request]',
      '  - type: PATTERN',
      '    pattern: "(?i)schau.*(diff|PR|änderung)"',
    ]);
    expect(diagnostics).toEqual([]);
    const [keywords, pattern] = skill!.triggers;
    expect(keywords).toEqual({ type: 'KEYWORDS', keywords: ['review', 'diff', 'PR', 'pull request'], minMatch: null });
    expect(pattern).toMatchObject({ type: 'PATTERN', pattern: '(?i)schau.*(diff|PR|änderung)' });
    expect(pattern?.type === 'PATTERN' && pattern.regex.test('Schau dir den Diff an')).toBe(true);
  });

  it('reports an invalid pattern at the pattern, naming triggers[1].pattern', () => {
    const { skill, diagnostics } = parse(['triggers:', '  - type: KEYWORDS', '    keywords: [x1]', '  - type: PATTERN', '    pattern: "a++"']);
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([
      {
        severity: 'ERROR',
        message: expect.stringMatching(/^`triggers\[1\]\.pattern` is not a usable regular expression \(at character 3 of the pattern\): possessive quantifier `\+\+` is not supported: trigger patterns run on a linear-time engine \(RE2\)/),
        path: PATH,
        line: 9,
        column: 14,
        field: 'triggers[1].pattern',
      },
    ]);
  });

  it('reads minMatch, refuses a non-positive one and warns when it exceeds the keyword count', () => {
    expect(parse(['triggers:', '  - type: KEYWORDS', '    keywords: [a1, b2]', '    minMatch: 1']).skill?.triggers[0]).toMatchObject({ minMatch: 1 });
    expect(errors(parse(['triggers:', '  - type: KEYWORDS', '    keywords: [a1]', '    minMatch: 0']).diagnostics)).toMatchObject([
      { field: 'triggers[0].minMatch', line: 8, column: 15 },
    ]);
    expect(errors(parse(['triggers:', '  - type: KEYWORDS', '    keywords: [a1]', '    minMatch: "two"']).diagnostics)).toMatchObject([{ field: 'triggers[0].minMatch' }]);
    const capped = parse(['triggers:', '  - type: KEYWORDS', '    keywords: [a1, b2]', '    minMatch: 3']);
    expect(capped.skill?.triggers[0]).toMatchObject({ minMatch: 3 });
    expect(warnings(capped.diagnostics)).toMatchObject([{ field: 'triggers[0].minMatch', message: expect.stringMatching(/capped at 2/) }]);
  });

  it('warns about a keyword listed twice and one that can never match', () => {
    const { skill, diagnostics } = parse(['triggers:', '  - type: KEYWORDS', '    keywords:', '      - Review', '      - review', '      - "a"']);
    expect(skill?.triggers[0]).toMatchObject({ keywords: ['Review', 'a'] });
    expect(diagnostics).toMatchObject([
      { severity: 'WARNING', field: 'triggers[0].keywords[1]', line: 9, message: expect.stringMatching(/listed twice/) },
      { severity: 'WARNING', field: 'triggers[0].keywords[2]', line: 10, message: expect.stringMatching(/can never match/) },
    ]);
  });

  it('refuses an unknown trigger type and a trigger without type or content', () => {
    const { diagnostics } = parse(['triggers:', '  - type: INTENT', '    pattern: x', '  - {}']);
    expect(errors(diagnostics)).toEqual([
      { severity: 'ERROR', message: "`triggers[0].type` must be one of PATTERN, KEYWORDS, found the text 'INTENT'.", path: PATH, line: 6, column: 11, field: 'triggers[0].type' },
      { severity: 'ERROR', message: expect.stringMatching(/needs `type: PATTERN`/), path: PATH, line: 8, column: 5, field: 'triggers[1]' },
    ]);
  });

  it('infers a missing type from pattern or keywords with a warning', () => {
    const { skill, diagnostics } = parse(['triggers:', '  - pattern: diff']);
    expect(skill?.triggers[0]).toMatchObject({ type: 'PATTERN' });
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', field: 'triggers[0]', message: expect.stringMatching(/Add `type: PATTERN`/) }]);
  });

  it('refuses a KEYWORDS trigger without keywords and a PATTERN trigger without pattern', () => {
    const { diagnostics } = parse(['triggers:', '  - type: KEYWORDS', '  - type: PATTERN']);
    expect(errors(diagnostics).map((d) => d.field)).toEqual(['triggers[0].keywords', 'triggers[1].pattern']);
  });

  // Issue 15: `triggers: review` became a keyword; seed 000 §2 makes triggers a list, so a single value is refused like a map.
  it('refuses triggers that are not a list, a single word included, at its line', () => {
    expect(errors(parse(['triggers: {type: KEYWORDS}']).diagnostics)).toMatchObject([{ field: 'triggers', line: 5, message: expect.stringMatching(/must be a list/) }]);
    const scalar = parse(['triggers: review']);
    expect(scalar.skill).toBeNull();
    expect(errors(scalar.diagnostics)).toMatchObject([{ field: 'triggers', line: 5, column: 11, message: expect.stringMatching(/must be a list.*\[review\]/) }]);
    expect(errors(parse(['secondaryTriggers: deep', 'triggers: [review]']).diagnostics)).toMatchObject([{ field: 'secondaryTriggers', line: 5 }]);
    expect(parse(['triggers: [review]']).skill?.triggers).toEqual([{ type: 'KEYWORDS', keywords: ['review'], minMatch: null }]);
  });
});

describe('parseSkill: lists, paths and flags', () => {
  it('reads tools and tags, accepting a single string as a one-element list', () => {
    const { skill } = parse(['tools: [file_read, shell_exec]', 'tags: review']);
    expect(skill).toMatchObject({ tools: ['file_read', 'shell_exec'], tags: ['review'] });
  });

  it('reports an empty list entry naming it', () => {
    expect(errors(parse(['tools:', '  - file_read', '  -']).diagnostics)).toMatchObject([{ field: 'tools[1]', line: 7 }]);
  });

  it('sanitises manualPaths like document paths: backslashes become slashes, a trailing slash stays', () => {
    expect(parse(['manualPaths: ["docs\\\\review\\\\", ./_vance/manuals/]']).skill?.manualPaths).toEqual(['docs/review/', '_vance/manuals/']);
  });

  it('refuses manualPaths that climb out or are absolute, naming the entry', () => {
    const { diagnostics } = parse(['manualPaths:', '  - _vance/manuals/', '  - ../secrets/', '  - /etc']);
    expect(errors(diagnostics)).toMatchObject([
      { field: 'manualPaths[1]', line: 7, column: 5, message: expect.stringMatching(/Manual path '\.\.\/secrets\/' is not allowed: '\.\.' segments/) },
      { field: 'manualPaths[2]', line: 8, column: 5, message: expect.stringMatching(/absolute paths/) },
    ]);
  });

  it.each([
    ['true', true], ['false', false], ['yes', true], ['no', false], ['on', true], ['off', false],
    ['1', true], ['0', false], ['TRUE', true], ['No', false], ['"Off"', false], ["'yes'", true],
  ])('reads enabled: %s as %s', (spelling, expected) => {
    const { skill, diagnostics } = parse([`enabled: ${spelling}`]);
    expect(diagnostics).toEqual([]);
    expect(skill?.enabled).toBe(expected);
  });

  it('refuses a value that is not a boolean spelling, naming the field', () => {
    expect(parse(['enabled: maybe']).diagnostics).toEqual([
      { severity: 'ERROR', message: "`enabled` must be a boolean (true/false, yes/no, on/off, 1/0), found the text 'maybe'.", path: PATH, line: 5, column: 10, field: 'enabled' },
    ]);
  });

  it('reads lifecycle sticky|shot and refuses anything else', () => {
    expect(parse(['lifecycle: shot']).skill?.lifecycle).toBe('shot');
    expect(errors(parse(['lifecycle: once']).diagnostics)).toMatchObject([{ field: 'lifecycle', message: expect.stringMatching(/one of sticky, shot/) }]);
  });

  // Issue 15: `activate: ["//"]` passed validation and failed only when the skill was activated.
  it('parses activate/deactivate entries at save with the command parser that runs them, each problem at its line', () => {
    const fields = ['activate:', '  - "//"', '  - guard clear', '  - guard frobnicate', '  - status.set busy', 'deactivate:', '  - guard script ../x.js'];
    const content = ['---', ...HEAD, ...fields, '---', 'Body'].join('\n');
    const { skill, diagnostics } = parseSkill({ name: 'review', path: PATH, content }, undefined, {});
    expect(skill).toBeNull();
    // Loading for a turn reads them as stored: a force-saved skill is refused when activated, as before.
    expect(parse(fields).skill?.activate).toEqual(['//', 'guard clear', 'guard frobnicate', 'status.set busy']);
    expect(errors(diagnostics).map((d) => [d.line, d.column, d.field])).toEqual([
      [6, 5, 'activate[0]'], [8, 5, 'activate[2]'], [9, 5, 'activate[3]'], [11, 5, 'deactivate[0]'],
    ]);
    expect(errors(diagnostics)[0]!.message).toMatch(/needs a verb right after '\/\/'/);
    expect(errors(diagnostics)[1]!.message).toMatch(/Unknown subcommand 'frobnicate' of 'guard'/);
    expect(errors(diagnostics)[2]!.message).toMatch(/Unknown command 'status.set'; known: guard/);
    expect(errors(diagnostics)[3]!.message).toMatch(/guard script/);
  });

  it('reads activate/deactivate as command lists, a multi-line block being one command', () => {
    const { skill } = parse(['activate:', '  - |', '    guard inline', '    vance.log("x");', 'deactivate: guard clear']);
    expect(skill).toMatchObject({ activate: ['guard inline\nvance.log("x");'], deactivate: ['guard clear'] });
  });

  it('reads action as written and treats a blank action as none', () => {
    expect(parse(['action: |', '  Review now.', '  Then report.']).skill?.action).toBe('Review now.\nThen report.');
    expect(parse(['action: "  "']).skill?.action).toBeNull();
  });

  it('refuses a list or map used as a key, at its position', () => {
    expect(parse(['? [a, b]', ': c']).diagnostics).toMatchObject([{ severity: 'ERROR', line: 5, column: 3, field: 'frontmatter' }]);
  });
});

describe('parseSkill: referenceDocs', () => {
  it('reads entries with INLINE as the default load mode and a summary for ON_DEMAND', () => {
    const { skill, diagnostics } = parse([
      'referenceDocs:',
      '  - file: references/checklist.md',
      '    title: Review Checklist',
      '  - file: references\\patterns.md',
      '    title: Patterns',
      '    summary: Common patterns',
      '    loadMode: on_demand',
    ]);
    expect(diagnostics).toEqual([]);
    expect(skill?.referenceDocs).toEqual([
      { title: 'Review Checklist', file: 'references/checklist.md', summary: null, loadMode: 'INLINE', location: { line: 6, column: 11 } },
      { title: 'Patterns', file: 'references/patterns.md', summary: 'Common patterns', loadMode: 'ON_DEMAND', location: { line: 8, column: 11 } },
    ]);
  });

  it('refuses a file outside the skill folder, a missing file and an unknown load mode', () => {
    const { diagnostics } = parse([
      'referenceDocs:',
      '  - file: ../other/SKILL.md',
      '    title: A',
      '  - title: B',
      '  - file: c.md',
      '    title: C',
      '    loadMode: LAZY',
    ]);
    expect(errors(diagnostics)).toMatchObject([
      { field: 'referenceDocs[0].file', line: 6, column: 11, message: expect.stringMatching(/not a path inside the skill folder: '\.\.' segments/) },
      { field: 'referenceDocs[1].file', line: 8, message: expect.stringMatching(/is required/) },
      { field: 'referenceDocs[2].loadMode', line: 11, message: expect.stringMatching(/one of INLINE, ON_DEMAND/) },
    ]);
  });

  it('warns about a missing title (the file is used) and a title used twice', () => {
    const { skill, diagnostics } = parse(['referenceDocs:', '  - file: a.md', '  - file: b.md', '    title: a.md']);
    expect(skill?.referenceDocs.map((d) => d.title)).toEqual(['a.md', 'a.md']);
    expect(warnings(diagnostics).map((d) => d.field)).toEqual(['referenceDocs[0]', 'referenceDocs[1].title']);
  });

  it('warns about unknown keys in an entry', () => {
    expect(warnings(parse(['referenceDocs:', '  - file: a.md', '    title: A', '    mode: INLINE']).diagnostics)).toMatchObject([
      { field: 'referenceDocs[0].mode', line: 8, column: 5, message: 'Unknown key `mode` in `referenceDocs[0]` is ignored.' },
    ]);
  });
});

describe('parseSkill: run', () => {
  it('reads a spawn block with the default inherit none', () => {
    const { skill, diagnostics } = parse(['run:', '  target: spawn', '  recipe: code-read', 'action: Review now.']);
    expect(diagnostics).toEqual([]);
    expect(skill?.run).toEqual({ target: 'spawn', recipe: 'code-read', inherit: 'none' });
  });

  it('requires run.recipe for spawn', () => {
    expect(errors(parse(['run: { target: spawn }', 'action: Go.']).diagnostics)).toMatchObject([{ field: 'run.recipe', line: 5, message: expect.stringMatching(/needs `run.recipe`/) }]);
  });

  it('refuses an unknown target and warns about spawn-only fields on an inline skill', () => {
    expect(errors(parse(['run: { target: remote }']).diagnostics)).toMatchObject([{ field: 'run.target' }]);
    const inline = parse(['run:', '  recipe: code-read']);
    expect(inline.skill?.run).toEqual({ target: 'inline' });
    expect(warnings(inline.diagnostics)).toMatchObject([{ field: 'run.recipe', line: 6 }]);
  });
});

describe('parseSkill: arguments', () => {
  it('reads true as the raw view and false (any spelling) or absence as none', () => {
    expect(parse(['arguments: true']).skill?.arguments).toEqual({ mode: 'RAW' });
    expect(parse(['arguments: "no"']).skill?.arguments).toEqual({ mode: 'NONE' });
    expect(parse([]).skill?.arguments).toEqual({ mode: 'NONE' });
  });

  it('reads a list with types, type defaulting to string and required to false', () => {
    const { skill, diagnostics } = parse([
      'arguments:',
      '  - name: scope',
      '    description: What to review',
      '  - name: depth',
      '    type: integer',
      '    required: yes',
    ]);
    expect(diagnostics).toEqual([]);
    expect(skill?.arguments).toEqual({
      mode: 'NAMED',
      list: [
        { name: 'scope', type: 'string', description: 'What to review', required: false },
        { name: 'depth', type: 'integer', description: null, required: true },
      ],
    });
  });

  it('refuses a duplicate name, an unknown type and a bad required flag, each located', () => {
    const { skill, diagnostics } = parse([
      'arguments:',
      '  - name: scope',
      '  - name: scope',
      '  - name: n',
      '    type: float',
      '  - name: m',
      '    required: sometimes',
    ]);
    expect(skill).toBeNull();
    expect(errors(diagnostics)).toMatchObject([
      { field: 'arguments[1].name', line: 7, column: 11, message: expect.stringMatching(/Duplicate name 'scope'/) },
      { field: 'arguments[2].type', line: 9, column: 11, message: expect.stringMatching(/one of string, number, integer, boolean, object, array/) },
      { field: 'arguments[3].required', line: 11, column: 15, message: expect.stringMatching(/must be a boolean/) },
    ]);
  });

  it('refuses the reserved names text and words', () => {
    expect(errors(parse(['arguments:', '  - name: text']).diagnostics)).toMatchObject([{ field: 'arguments[0].name', message: expect.stringMatching(/reserved/) }]);
  });

  it('accepts Claude Code name lists as string arguments', () => {
    const list = { mode: 'NAMED', list: [{ name: 'issue', type: 'string', description: null, required: false }, { name: 'branch', type: 'string', description: null, required: false }] };
    expect(parse(['arguments: [issue, branch]']).skill?.arguments).toEqual(list);
    expect(parse(['arguments: issue branch']).skill?.arguments).toEqual(list);
  });

  it('refuses a map or number as arguments', () => {
    expect(errors(parse(['arguments: { name: x }']).diagnostics)).toMatchObject([{ field: 'arguments', message: expect.stringMatching(/true, false or a list/) }]);
  });
});

describe('parseSkill: scripts', () => {
  it('reads scripts with the argument schema as params; no params block means free-form', () => {
    const { skill, diagnostics } = parse([
      'scripts:',
      '  - name: fetch-diff',
      '    target: BRAIN',
      '    file: scripts/fetch-diff.js',
      '    params:',
      '      - name: range',
      '        type: string',
      '        description: Git range for the diff.',
      '        required: true',
      '  - name: post-comment',
      '    target: FOOT',
      '    file: scripts\\post-comment.js',
    ]);
    expect(diagnostics).toEqual([]);
    expect(skill?.scripts).toEqual([
      {
        name: 'fetch-diff',
        target: 'BRAIN',
        file: 'scripts/fetch-diff.js',
        description: null,
        params: [{ name: 'range', type: 'string', description: 'Git range for the diff.', required: true }],
        location: { line: 8, column: 11 },
      },
      { name: 'post-comment', target: 'FOOT', file: 'scripts/post-comment.js', description: null, params: null, location: { line: 16, column: 11 } },
    ]);
  });

  it('refuses a missing or escaping file, a duplicate name, an unknown target and a bad param type', () => {
    const { diagnostics } = parse([
      'scripts:',
      '  - name: a',
      '  - name: b',
      '    file: ../../x.js',
      '  - name: c',
      '    file: c.js',
      '    target: CLOUD',
      '    params: [{ name: p, type: text }]',
      '  - name: d',
      '    file: d.js',
      '  - name: d',
      '    file: d2.js',
    ]);
    expect(errors(diagnostics).map((d) => d.field)).toEqual([
      'scripts[0].file',
      'scripts[1].file',
      'scripts[2].target',
      'scripts[2].params[0].type',
      'scripts[4].name',
    ]);
  });
});

// Issue 15: `tools: [shell_exec, web_search]` saved without a word, and neither reached the model.
describe('parseSkill: tools that select no tool of the catalog', () => {
  const TOOLS = [{ name: 'doc_read', labels: ['read'] }, { name: 'manual_read', labels: ['read', 'docs'] }];
  const withTools = (fields: string[]) => parseSkill({ name: 'review', path: PATH, content: ['---', ...HEAD, ...fields, '---', 'Body'].join('\n') }, undefined, { tools: TOOLS });

  it('warns at each entry that selects nothing, saying a name may still be a client tool, and still loads the skill', () => {
    const { skill, diagnostics } = withTools(['tools: [doc_read, shell_exec, "@web", "@docs"]']);
    expect(skill?.tools).toEqual(['doc_read', 'shell_exec', '@web', '@docs']);
    expect(diagnostics.map((d) => [d.severity, d.line, d.column, d.field])).toEqual([['WARNING', 5, 19, 'tools[1]'], ['WARNING', 5, 31, 'tools[2]']]);
    expect(diagnostics[0]!.message).toMatch(/^No built-in tool is called 'shell_exec'; it resolves only where a tool document or MCP pack .*, or a connected client, provides it/);
  });

  it('checks a single tool written as text, and nothing without a catalog', () => {
    expect(withTools(['tools: web_fetch']).diagnostics).toMatchObject([{ line: 5, field: 'tools' }]);
    expect(parse(['tools: web_fetch']).diagnostics).toEqual([]);
  });
});
