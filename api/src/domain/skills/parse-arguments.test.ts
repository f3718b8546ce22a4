import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import { parseSkill } from './parse-skill';

// Issue 15: `arguments: scope`, a bare `- scope` entry and `type: Integer` loaded without a word.
const PATH = '_vance/skills/review/SKILL.md';
/** Three lines (file lines 2–4); the fields under test start on file line 5. */
const HEAD = ['title: Review', 'description: Review changes', 'version: 1.0.0'];

function parse(fields: string[]) {
  return parseSkill({ name: 'review', path: PATH, content: ['---', ...HEAD, ...fields, '---', 'Body'].join('\n') });
}

const bySeverity = (d: readonly Diagnostic[], severity: Diagnostic['severity']) => d.filter((x) => x.severity === severity);
const string = (name: string) => ({ name, type: 'string', description: null, required: false });

describe('arguments: the forms outside true/false/a list of arguments', () => {
  it('reads `arguments: scope` as the names it lists, with a warning at its line saying so', () => {
    const { skill, diagnostics } = parse(['arguments: scope']);
    expect(skill?.arguments).toEqual({ mode: 'NAMED', list: [string('scope')] });
    expect(diagnostics).toEqual([{
      severity: 'WARNING', path: PATH, line: 5, column: 12, field: 'arguments',
      message: "`arguments` is text, read as the argument name 'scope'. Write `true`, `false` or a list of arguments (`- name: scope`).",
    }]);
  });

  it('names every name of a text with several', () => {
    const { skill, diagnostics } = parse(['arguments: issue, branch']);
    expect(skill?.arguments).toEqual({ mode: 'NAMED', list: [string('issue'), string('branch')] });
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', line: 5, field: 'arguments', message: expect.stringContaining("the argument names 'issue', 'branch'") }]);
  });

  it('warns about a bare name in the list, at its own line', () => {
    const { skill, diagnostics } = parse(['arguments:', '  - name: scope', '  - depth']);
    expect(skill?.arguments).toEqual({ mode: 'NAMED', list: [string('scope'), string('depth')] });
    expect(diagnostics).toEqual([{
      severity: 'WARNING', path: PATH, line: 7, column: 5, field: 'arguments[1]',
      message: "`arguments[1]` is a bare name, read as the string argument 'depth'. Write it as a map: `- name: depth`.",
    }]);
  });

  it('warns the same way in a script\'s params', () => {
    const { diagnostics } = parse(['scripts:', '  - name: s', '    file: s.js', '    params: [range]']);
    expect(diagnostics).toMatchObject([{ severity: 'WARNING', line: 8, field: 'scripts[0].params[0]', message: expect.stringContaining('is a bare name') }]);
  });

  it('still refuses a bare name that is no name', () => {
    const { skill, diagnostics } = parse(['arguments:', '  - two words']);
    expect(skill).toBeNull();
    expect(bySeverity(diagnostics, 'ERROR')).toMatchObject([{ line: 6, field: 'arguments[0]', message: expect.stringContaining("Invalid name 'two words'") }]);
  });
});

describe('arguments: type is spelt as listed', () => {
  it.each(['string', 'number', 'integer', 'boolean', 'object', 'array'])('accepts %s', (type) => {
    const { skill, diagnostics } = parse(['arguments:', '  - name: x', `    type: ${type}`]);
    expect(diagnostics).toEqual([]);
    expect(skill?.arguments).toEqual({ mode: 'NAMED', list: [{ name: 'x', type, description: null, required: false }] });
  });

  it.each([['Integer', 'integer'], ['STRING', 'string'], [' Boolean', 'boolean']])('refuses %j at its line, naming the field and the spelling', (written, meant) => {
    const { skill, diagnostics } = parse(['arguments:', '  - name: x', `    type: ${written}`]);
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([{
      severity: 'ERROR', path: PATH, line: 7, column: expect.any(Number), field: 'arguments[0].type',
      message: `\`arguments[0].type\` must be one of string, number, integer, boolean, object, array (JSON Schema type names, lower case), found the text '${written.trim()}'. Did you mean \`${meant}\`?`,
    }]);
  });

  it('refuses the same in a script param', () => {
    const { diagnostics } = parse(['scripts:', '  - name: s', '    file: s.js', '    params:', '      - name: n', '        type: Number']);
    expect(bySeverity(diagnostics, 'ERROR')).toMatchObject([{ line: 10, field: 'scripts[0].params[0].type', message: expect.stringContaining('Did you mean `number`?') }]);
  });
});

describe('arguments: messages', () => {
  it('cite no specification section in what authors read', () => {
    const { diagnostics } = parse(['arguments:', '  - name: text', '  - name: x', '    type: float', '  - y z', '  - name: a-b']);
    expect(diagnostics.length).toBeGreaterThan(3);
    for (const d of diagnostics) expect(d.message).not.toMatch(/seed|§/);
  });
});
