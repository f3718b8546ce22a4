import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import { parseSkill } from './parse-skill';
import { DEFAULT_ACTIVATION } from './skill';

const PATH = '_vance/skills/lore/SKILL.md';
/** Three lines (file lines 2–4); the fields under test start on file line 5. */
const HEAD = ['title: Lore', 'description: Sword lore', 'version: 1.0.0'];

function parse(fields: string[]) {
  return parseSkill({ name: 'lore', path: PATH, content: ['---', ...HEAD, ...fields, '---', 'Body'].join('\n') });
}

const errors = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'ERROR');
const warnings = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'WARNING');

describe('parseSkill: activation fields (issue 8, seed 003)', () => {
  it('gives a skill without any of them DEFAULT_ACTIVATION (today\'s matching)', () => {
    expect(parse(['triggers: [sword]']).skill?.activation).toEqual(DEFAULT_ACTIVATION);
  });

  it('reads every field, seed-003 style, with lorebook string triggers and regexes', () => {
    const { skill, diagnostics } = parse([
      'when: Mentioned',
      'triggers: [sword, "/bla+de/i"]',
      'secondaryTriggers: [moon, "/night|dark/"]',
      'selectiveLogic: and_all',
      'caseSensitive: yes',
      'matchWholeWords: off',
      'scanDepth: 3',
      'frequency: 2',
      'probability: 50',
    ]);
    expect(diagnostics).toEqual([]);
    expect(skill!.triggers).toMatchObject([
      { type: 'KEYWORDS', keywords: ['sword'], minMatch: null },
      { type: 'PATTERN', pattern: 'bla+de', ignoreCase: true },
    ]);
    expect(skill!.activation).toMatchObject({
      when: 'mentioned',
      secondaryTriggers: [{ type: 'KEYWORDS', keywords: ['moon'] }, { type: 'PATTERN', pattern: 'night|dark' }],
      selectiveLogic: 'AND ALL',
      caseSensitive: true,
      matchWholeWords: false,
      scanDepth: 3,
      frequency: 2,
      probability: 50,
      closeWhenUnmentioned: false,
    });
    expect(skill!.activation.secondaryTriggers[1]).not.toHaveProperty('ignoreCase');
  });

  it('accepts the four selectiveLogic spellings in any case', () => {
    for (const [written, logic] of [['AND ANY', 'AND ANY'], ['and all', 'AND ALL'], ['NOT_ANY', 'NOT ANY'], ['Not-All', 'NOT ALL']] as const) {
      expect(parse(['triggers: [a1]', 'secondaryTriggers: [b2]', `selectiveLogic: ${written}`]).skill?.activation.selectiveLogic).toBe(logic);
    }
  });

  it('reports each invalid value at its line, naming the field', () => {
    const { skill, diagnostics } = parse([
      'when: sometimes',
      'selectiveLogic: OR',
      'caseSensitive: maybe',
      'matchWholeWords: 2',
      'scanDepth: -1',
      'probability: 150',
      'frequency: often',
      'closeWhenUnmentioned: perhaps',
      'secondaryTriggers: {a: 1}',
    ]);
    expect(skill).toBeNull();
    expect(errors(diagnostics).map((d) => [d.field, d.line])).toEqual([
      ['when', 5],
      ['selectiveLogic', 6],
      ['caseSensitive', 7],
      ['matchWholeWords', 8],
      ['scanDepth', 9],
      ['probability', 10],
      ['frequency', 11],
      ['closeWhenUnmentioned', 12],
      ['secondaryTriggers', 13],
    ]);
    expect(errors(diagnostics)[0]!.message).toMatch(/must be one of always, mentioned, picked/);
    expect(errors(diagnostics)[4]!.message).toMatch(/whole number of at least 0/);
  });

  it('refuses a scanDepth that is not whole and warns about an unknown neighbour key', () => {
    const { diagnostics } = parse(['triggers: [a1]', 'scanDepth: 1.5', 'scandepht: 2']);
    expect(errors(diagnostics)).toMatchObject([{ field: 'scanDepth', line: 6 }]);
    expect(warnings(diagnostics)).toMatchObject([{ field: 'scandepht', message: expect.stringMatching(/Did you mean `scanDepth`/) }]);
  });

  it('warns about combinations that do nothing', () => {
    const fields = (d: readonly Diagnostic[]) => warnings(d).map((x) => x.field);
    expect(fields(parse(['when: always', 'triggers: [a1]']).diagnostics)).toEqual(['triggers']);
    expect(fields(parse(['when: mentioned']).diagnostics)).toEqual(['when']);
    expect(fields(parse(['when: mentioned', 'triggers: [a1]', 'closeWhenUnmentioned: true']).diagnostics)).toEqual(['closeWhenUnmentioned']);
    expect(fields(parse(['secondaryTriggers: [b2]']).diagnostics)).toEqual(['secondaryTriggers']);
    expect(fields(parse(['triggers: [a1]', 'scanDepth: 0']).diagnostics)).toEqual(['scanDepth']);
    expect(fields(parse(['when: picked', 'triggers: [a1]', 'closeWhenUnmentioned: true']).diagnostics)).toEqual([]);
  });

  it('refuses unknown regex flags and keeps one-letter keywords silent under matchWholeWords: false', () => {
    expect(errors(parse(['triggers: ["/a/x"]']).diagnostics)).toMatchObject([{ field: 'triggers[0]', message: expect.stringMatching(/flag 'x'/) }]);
    expect(warnings(parse(['triggers: [x]', 'matchWholeWords: false']).diagnostics)).toEqual([]);
    expect(warnings(parse(['triggers: [x]']).diagnostics)).toMatchObject([{ message: expect.stringMatching(/can never match/) }]);
  });
});
