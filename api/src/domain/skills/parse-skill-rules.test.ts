import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import type { TemplateEngine, TemplateProblem } from '../templates/template-engine';
import { parseSkill } from './parse-skill';

const PATH = '_vance/skills/review/SKILL.md';
const HEAD = ['title: Review', 'description: Review changes', 'version: 1.0.0'];

/** Reports `{% bad %}` wherever it occurs (1-based line/column within the template), and counts checks. */
function fakeEngine(): TemplateEngine & { checked: string[] } {
  const checked: string[] = [];
  return {
    checked,
    check(source: string): TemplateProblem[] {
      checked.push(source);
      return source.split('\n').flatMap((text, index) => {
        const column = text.indexOf('{% bad %}');
        return column === -1 ? [] : [{ message: 'unknown block tag: bad', line: index + 1, column: column + 1 }];
      });
    },
    render: async () => '',
    referencedVariables: () => new Set<string>(),
  };
}

function parse(fields: string[], body = 'Body', templates?: TemplateEngine) {
  return parseSkill({ name: 'review', path: PATH, content: ['---', ...HEAD, ...fields, '---', body].join('\n') }, templates);
}

const errors = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'ERROR');
const warnings = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'WARNING');

describe('parseSkill: spawn rules (seed 000 §2c)', () => {
  it('refuses a spawn skill without action:, located at run.target', () => {
    const { skill, diagnostics } = parse(['run:', '  target: spawn', '  recipe: code-read']);
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: expect.stringMatching(/needs `action:`/), path: PATH, line: 6, column: 11, field: 'action' },
    ]);
  });

  it('refuses spawn combined with lifecycle: shot', () => {
    const { diagnostics } = parse(['lifecycle: shot', 'run: { target: spawn, recipe: code-read }', 'action: Go.']);
    expect(errors(diagnostics)).toMatchObject([{ field: 'lifecycle', line: 5, message: expect.stringMatching(/cannot be combined/) }]);
  });

  it('loads a spawn skill with triggers but warns that they never spawn', () => {
    const { skill, diagnostics } = parse(['run: { target: spawn, recipe: code-read }', 'action: Go.', 'triggers: [{ type: KEYWORDS, keywords: [review] }]']);
    expect(skill?.run).toMatchObject({ target: 'spawn' });
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', field: 'triggers', line: 7 }]);
  });
});

describe('parseSkill: shot rules (seed 000 §2a, §5b)', () => {
  it('warns that tools, manualPaths, referenceDocs, scripts and deactivate never apply to a shot skill', () => {
    const { skill, diagnostics } = parse([
      'lifecycle: shot',
      'tools: [file_read]',
      'manualPaths: [docs/]',
      'referenceDocs: [{ file: a.md, title: A }]',
      'scripts: [{ name: s, file: s.js }]',
      'deactivate: guard clear',
    ]);
    expect(skill?.lifecycle).toBe('shot');
    expect(warnings(diagnostics).map((d) => [d.field, d.line])).toEqual([
      ['tools', 6],
      ['manualPaths', 7],
      ['referenceDocs', 8],
      ['scripts', 9],
      ['deactivate', 10],
    ]);
  });

  it('warns about a shot skill that does nothing, and accepts a pure configuration macro', () => {
    expect(warnings(parse(['lifecycle: shot'], '').diagnostics)).toMatchObject([{ field: 'lifecycle', message: expect.stringMatching(/does nothing/) }]);
    expect(parse(['lifecycle: shot', 'activate: [guard clear]'], '').diagnostics).toEqual([]);
  });
});

describe('parseSkill: template checks', () => {
  it('reports a body syntax error at the file line (body offset + template line) and column', () => {
    const engine = fakeEngine();
    const { skill, diagnostics } = parse([], '\nIntro\n  {% bad %}', engine);
    expect(skill).toBeNull();
    // File: 1 fence, 2–4 head, 5 fence, 6 blank, 7 Intro, 8 the tag.
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: 'Template syntax error in the body: unknown block tag: bad', path: PATH, line: 8, column: 3, field: 'body' },
    ]);
  });

  it('reports an action: block-scalar syntax error at its file line and column', () => {
    const { diagnostics } = parse(['action: |', '  Review now.', '    {% bad %}'], 'Body', fakeEngine());
    expect(diagnostics).toEqual([
      { severity: 'ERROR', message: 'Template syntax error in `action`: unknown block tag: bad', path: PATH, line: 7, column: 5, field: 'action' },
    ]);
  });

  it('reports an inline quoted action: syntax error on its line', () => {
    const { diagnostics } = parse(['action: "Go {% bad %}"'], 'Body', fakeEngine());
    expect(diagnostics).toMatchObject([{ field: 'action', line: 5, column: 13 }]);
  });

  it('checks the body and action only when an engine is given, and never the reference docs', () => {
    expect(parse([], '{% bad %}').skill).not.toBeNull();
    const engine = fakeEngine();
    parse(['action: Go.', 'referenceDocs: [{ file: a.md, title: A }]'], 'Body', engine);
    expect(engine.checked).toEqual(['Body', 'Go.']);
  });

  it('turns a failing template checker into a located error instead of throwing', () => {
    const broken: TemplateEngine = { ...fakeEngine(), check: () => { throw new Error('boom'); } };
    expect(parse([], 'Body', broken).diagnostics).toMatchObject([{ severity: 'ERROR', field: 'body', line: 6, message: expect.stringMatching(/could not be checked \(boom\)/) }]);
  });
});
