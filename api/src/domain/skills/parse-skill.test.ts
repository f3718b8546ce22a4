import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import { parseSkill } from './parse-skill';
import { DEFAULT_ACTIVATION } from './skill';

const PATH = '_vance/skills/code-review/SKILL.md';
const VANCE_HEAD = ['title: Code Review', 'description: Review the current changes', 'version: 1.0.0'];

function parse(content: string, name = 'code-review') {
  return parseSkill({ name, path: PATH, content });
}

/** A SKILL.md with the given frontmatter lines (starting on file line 2) and body. */
function file(frontmatter: string[], body = 'You review code.'): string {
  return ['---', ...frontmatter, '---', body].join('\n');
}

const errors = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity === 'ERROR');
const warnings = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity === 'WARNING');

describe('parseSkill: a well-formed Vance skill', () => {
  it('reads title, description, version and the body, and fills every default', () => {
    const { skill, diagnostics } = parse(file(VANCE_HEAD, '\n\n# Method\n\nBe terse.\n\n'));
    expect(diagnostics).toEqual([]);
    expect(skill).toEqual({
      name: 'code-review',
      title: 'Code Review',
      description: 'Review the current changes',
      version: '1.0.0',
      triggers: [],
      activation: DEFAULT_ACTIVATION,
      tools: [],
      manualPaths: [],
      referenceDocs: [],
      tags: [],
      enabled: true,
      lifecycle: 'sticky',
      run: { target: 'inline' },
      arguments: { mode: 'NONE' },
      activate: [],
      deactivate: [],
      action: null,
      scripts: [],
      invocation: { modelInvocable: true, userInvocable: true },
      promptExtension: '# Method\n\nBe terse.',
      bodyLine: 8,
      extra: {},
    });
  });

  it('allows an empty body (a config-only skill, seed 000 §2a)', () => {
    const { skill } = parse(['---', ...VANCE_HEAD, 'activate: guard clear', '---'].join('\n'));
    expect(skill?.promptExtension).toBe('');
    expect(skill?.activate).toEqual(['guard clear']);
  });

  it('keeps a `---` line inside the body as Markdown (only the first closing fence counts)', () => {
    const { skill } = parse(file(VANCE_HEAD, 'Part one\n---\nPart two'));
    expect(skill?.promptExtension).toBe('Part one\n---\nPart two');
  });
});

describe('parseSkill: file structure', () => {
  it('loads a CRLF file from Windows without a diagnostic and with the same line numbers', () => {
    const lf = file([...VANCE_HEAD, 'lifecycle: forever']);
    const crlf = parse(lf.replace(/\n/g, '\r\n'));
    expect(crlf.diagnostics).toEqual(parse(lf).diagnostics);
    expect(crlf.diagnostics).toMatchObject([{ severity: 'ERROR', line: 5, column: 12, field: 'lifecycle' }]);
    const ok = parse(file(VANCE_HEAD, 'line one\nline two').replace(/\n/g, '\r\n'));
    expect(ok.diagnostics).toEqual([]);
    expect(ok.skill?.promptExtension).toBe('line one\nline two');
  });

  it('strips a UTF-8 byte-order mark and warns at line 1', () => {
    const { skill, diagnostics } = parse(`\uFEFF${file(VANCE_HEAD)}`);
    expect(skill?.title).toBe('Code Review');
    expect(diagnostics).toEqual([
      { severity: 'WARNING', message: expect.stringMatching(/byte-order mark/), path: PATH, line: 1, column: 1, field: 'frontmatter' },
    ]);
  });

  it('reports an empty file', () => {
    expect(parse('  \n\n').diagnostics).toMatchObject([{ severity: 'ERROR', line: 1, column: 1, message: expect.stringMatching(/empty/) }]);
  });

  it('reports a missing opening fence at line 1', () => {
    const { skill, diagnostics } = parse('title: x\ndescription: y\n---\nbody');
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: expect.stringMatching(/^Missing opening `---` fence/), path: PATH, line: 1, column: 1, field: 'frontmatter' },
    ]);
  });

  it('loads a file whose opening fence follows blank lines, with a warning', () => {
    const { skill, diagnostics } = parse(`\n\n${file(VANCE_HEAD)}`);
    expect(skill?.version).toBe('1.0.0');
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', line: 1, message: expect.stringMatching(/line 3/) }]);
  });

  it('reports a missing closing fence at the opening fence', () => {
    const { diagnostics } = parse(['---', ...VANCE_HEAD, '', '# Body without fence'].join('\n'));
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: expect.stringMatching(/^Missing closing `---` fence/), path: PATH, line: 1, column: 1, field: 'frontmatter' },
    ]);
  });

  it('reports an empty frontmatter, also when it holds only comments', () => {
    for (const content of ['---\n---\nbody', '---\n\n# just a comment\n---\nbody']) {
      expect(parse(content).diagnostics).toMatchObject([{ severity: 'ERROR', line: 1, field: 'frontmatter', message: expect.stringMatching(/frontmatter is empty/) }]);
    }
  });

  it('reports a list or a single value as frontmatter, located at its start', () => {
    expect(parse(file(['- title: x', '- version: 1.0.0'])).diagnostics).toEqual([
      { severity: 'ERROR', message: 'The frontmatter must be a map of `key: value` fields, found a list.', path: PATH, line: 2, column: 1, field: 'frontmatter' },
    ]);
    expect(parse(file(['just a sentence'])).diagnostics).toMatchObject([{ line: 2, message: expect.stringMatching(/found a single value/) }]);
  });

  it('reports a YAML syntax error at its file line and column, without the parser\'s frontmatter-relative position', () => {
    const { skill, diagnostics } = parse(file([...VANCE_HEAD, 'tags: [a, b', 'tools: []']));
    expect(skill).toBeNull();
    expect(diagnostics).toHaveLength(1);
    // Issue 15: at the `[` left open on line 5, not where the parser noticed it (line 6, one line late).
    expect(diagnostics[0]).toMatchObject({ severity: 'ERROR', path: PATH, line: 5, column: 7, field: 'frontmatter' });
    expect(diagnostics[0]!.message).toMatch(/^YAML syntax error in the frontmatter: /);
    expect(diagnostics[0]!.message).not.toMatch(/at line/);
  });

  it('reports an unclosed quote at its opening quote, not at the end of the frontmatter (issue 15)', () => {
    const { diagnostics } = parse(file([...VANCE_HEAD, 'tags: "review', 'tools: []', 'enabled: true']));
    expect(diagnostics).toMatchObject([{ severity: 'ERROR', line: 5, column: 7, message: expect.stringMatching(/quote/) }]);
  });

  it('reports a duplicate key at its line', () => {
    const { diagnostics } = parse(file([...VANCE_HEAD, 'title: Again']));
    expect(diagnostics).toMatchObject([{ severity: 'ERROR', line: 5, message: expect.stringMatching(/unique/) }]);
  });

  it('never throws, whatever the input', () => {
    for (const content of ['---\n: :\n---', '---\n? [a]\n: b\n---', '---\n*alias\n---', '---\n"unterminated\n---', '\u0000---']) {
      expect(() => parse(content)).not.toThrow();
    }
  });
});

describe('parseSkill: identity fields', () => {
  it('requires title, description and version on a Vance skill, each as a located error naming the field', () => {
    const { skill, diagnostics } = parse(file(['tags: [x]']));
    expect(skill).toBeNull();
    expect(errors(diagnostics).map((d) => d.field).sort()).toEqual(['description', 'title', 'version']);
    expect(diagnostics.every((d) => d.path === PATH && d.line === 2 && d.column === 1)).toBe(true);
  });

  it('refuses a blank or non-text title', () => {
    expect(errors(parse(file(['title: "  "', ...VANCE_HEAD.slice(1)])).diagnostics)).toMatchObject([{ field: 'title', line: 2, message: expect.stringMatching(/may not be empty/) }]);
    expect(errors(parse(file(['title: [a]', ...VANCE_HEAD.slice(1)])).diagnostics)).toMatchObject([{ field: 'title', line: 2, column: 8, message: expect.stringMatching(/must be text, found a list/) }]);
  });

  it('keeps a YAML-number version as written and warns that it is not semver', () => {
    const { skill, diagnostics } = parse(file(['title: T', 'description: D', 'version: 1.0']));
    expect(skill?.version).toBe('1.0');
    expect(diagnostics).toEqual([
      { severity: 'WARNING', message: expect.stringMatching(/`version: 1\.0` is not a semantic version/), path: PATH, line: 4, column: 10, field: 'version' },
    ]);
  });

  it('accepts semver with pre-release and build metadata', () => {
    expect(parse(file(['title: T', 'description: D', 'version: 2.3.1-beta.1+build.5'])).diagnostics).toEqual([]);
  });

  it('loads a Claude-style skill (name + description): title defaults to the name, one warning, no error', () => {
    const { skill, diagnostics } = parse(file(['name: code-review', 'description: Review code', 'license: MIT']));
    expect(skill).toMatchObject({ name: 'code-review', title: 'code-review', version: null, description: 'Review code', extra: { license: 'MIT' } });
    expect(diagnostics).toEqual([
      {
        severity: 'WARNING',
        message: "Claude-style skill without `title` and `version`: the title defaults to 'code-review' and the version stays empty. Add `title` and `version` for the Vance skill picker.",
        path: PATH,
        line: 2,
        column: 1,
        field: 'title',
      },
    ]);
  });

  it('warns only about the version when a Claude-style skill has a title', () => {
    const { diagnostics } = parse(file(['name: code-review', 'title: Review', 'description: Review code']));
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', field: 'version', message: expect.stringMatching(/without `version`/) }]);
  });

  it('still requires a description on a Claude-style skill', () => {
    expect(errors(parse(file(['name: code-review', 'title: T', 'version: 1.0.0'])).diagnostics)).toMatchObject([{ field: 'description' }]);
  });

  it('names the skill after its folder and warns at `name:` when it differs', () => {
    const { skill, diagnostics } = parse(file(['name: template-skill', 'title: T', 'description: D', 'version: 1.0.0']), 'template');
    expect(skill?.name).toBe('template');
    expect(diagnostics).toEqual([
      {
        severity: 'WARNING',
        message: "`name: template-skill` does not match the folder 'template'; the folder name is the skill's name. Rename the folder or write `name: template`.",
        path: PATH,
        line: 2,
        column: 7,
        field: 'name',
      },
    ]);
  });

  it('refuses a folder name that cannot be a skill name', () => {
    const { skill, diagnostics } = parse(file(VANCE_HEAD), 'bad name');
    expect(skill).toBeNull();
    expect(diagnostics).toMatchObject([{ severity: 'ERROR', field: 'name', line: 1, column: 1, message: expect.stringMatching(/folder name 'bad name'/) }]);
  });

  it('accepts the documented Claude keys silently and keeps them as extra', () => {
    const { skill, diagnostics } = parse(
      file([
        'name: code-review',
        'title: T',
        'version: 1.0.0',
        'description: D',
        'license: Apache-2.0',
        'compatibility: Needs git',
        'metadata: { author: me }',
        'allowed-tools: Bash(git:*) Read',
        'argument-hint: "[scope]"',
        'when_to_use: after a change',
        'model: sonnet',
        'effort: high',
        'context: fork',
        'agent: general-purpose',
        'hooks: {}',
        'paths: ["src/**"]',
        'shell: bash',
      ]),
    );
    expect(diagnostics).toEqual([]);
    expect(Object.keys(skill!.extra).sort()).toEqual(
      ['agent', 'allowed-tools', 'argument-hint', 'compatibility', 'context', 'effort', 'hooks', 'license', 'metadata', 'model', 'paths', 'shell', 'when_to_use'].sort(),
    );
    expect(skill!.extra['metadata']).toEqual({ author: 'me' });
  });

  it('warns about an unknown key at the key, suggesting the known one', () => {
    const { skill, diagnostics } = parse(file([...VANCE_HEAD, 'trigger: []', 'reference_docs: []', 'colour: blue']));
    expect(skill).not.toBeNull();
    expect(warnings(diagnostics)).toEqual([
      { severity: 'WARNING', message: 'Unknown key `trigger` is ignored. Did you mean `triggers`?', path: PATH, line: 5, column: 1, field: 'trigger' },
      { severity: 'WARNING', message: 'Unknown key `reference_docs` is ignored. Did you mean `referenceDocs`?', path: PATH, line: 6, column: 1, field: 'reference_docs' },
      { severity: 'WARNING', message: 'Unknown key `colour` is ignored.', path: PATH, line: 7, column: 1, field: 'colour' },
    ]);
  });

  it('sorts diagnostics by position', () => {
    const { diagnostics } = parse(file(['colour: blue', 'title: T', 'description: D', 'version: 1.0', 'enabled: maybe']));
    expect(diagnostics.map((d) => d.line)).toEqual([2, 5, 6]);
  });
});
