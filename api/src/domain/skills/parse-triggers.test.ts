import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../errors';
import type { BacktrackingAnalyser, BacktrackingVerdict } from './backtracking-analyser';
import { parseSkill } from './parse-skill';
import { skillDocumentKind } from './skill-document-kind';
import type { JsRegexSource } from './trigger-regex';

/**
 * Trigger regexes that cannot run away (issue 13): every pattern runs on RE2, so shapes that hang a
 * backtracking engine load; what RE2 cannot run is a located ERROR naming the construct; and with a
 * BacktrackingAnalyser (save time) a vulnerable shape gets a located WARNING. The analyser here is a
 * stand-in with fixed verdicts; regex-analysis/ tests the real one.
 */
const PATH = '_vance/skills/lore/SKILL.md';
/** Three lines (file lines 2–4); the fields under test start on file line 5. */
const HEAD = ['title: Lore', 'description: Sword lore', 'version: 1.0.0'];
const content = (fields: string[]) => ['---', ...HEAD, ...fields, '---', 'Body'].join('\n');

function parse(fields: string[], analyser?: BacktrackingAnalyser) {
  return parseSkill({ name: 'lore', path: PATH, content: content(fields) }, undefined, analyser ? { analyser } : undefined);
}

const patternTrigger = (source: string) => ['triggers:', '  - type: PATTERN', `    pattern: '${source.replace(/'/g, "''")}'`];
const errors = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'ERROR');
const warnings = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 'WARNING');

class FixedAnalyser implements BacktrackingAnalyser {
  readonly seen: JsRegexSource[] = [];
  constructor(private readonly verdicts: Readonly<Record<string, BacktrackingVerdict>>) {}
  analyse(regex: JsRegexSource): BacktrackingVerdict {
    this.seen.push(regex);
    return this.verdicts[regex.source] ?? { kind: 'SAFE' };
  }
}

describe('parseSkill: trigger patterns run on RE2 (issue 13)', () => {
  // The shapes the hand-written hazard check refused, and the ones it let through.
  const shapes = ['(a{1,5})+b', '(日+)+x', 'please.*deploy.*prod', '.*a.*x', '(a+)+b', '(a*)*', '(a|a)*', '(.*a){20}', '(a|aa)+', '([a-z]+|\\d+)+', '(\\w|\\d)+x'];
  it.each(shapes)('loads %s without an error: it is matched in linear time', (source) => {
    const { skill, diagnostics } = parse(patternTrigger(source));
    expect(diagnostics).toEqual([]);
    expect(skill?.triggers[0]).toMatchObject({ type: 'PATTERN', pattern: source });
  });

  it.each([
    ['(?=.*secret)token', 'lookahead `(?=`', 1],
    ['token(?!s)', 'negative lookahead `(?!`', 6],
    ['(?<=my )token', 'lookbehind `(?<=`', 1],
    ['(?<!your )token', 'negative lookbehind `(?<!`', 1],
    ['(\\w+) \\1', 'backreference `\\1`', 7],
    ['(a)\\1+', 'backreference `\\1`', 4],
    ['(?<w>\\w+) \\k<w>', 'backreference `\\k<w>`', 11],
  ])('refuses %s with an ERROR at the pattern naming %s', (source, construct, character) => {
    const { skill, diagnostics } = parse(patternTrigger(source));
    expect(skill).toBeNull();
    expect(diagnostics).toEqual([{
      severity: 'ERROR',
      path: PATH,
      line: 7,
      column: 14,
      field: 'triggers[0].pattern',
      message: expect.stringContaining(`\`triggers[0].pattern\` is not a usable regular expression (at character ${character} of the pattern): ${construct} is not supported: trigger patterns run on a linear-time engine (RE2).`),
    }]);
  });

  it('refuses them as lorebook strings and as secondary triggers too, at their entries', () => {
    expect(errors(parse(['triggers: ["/(?=x)y/"]']).diagnostics)).toMatchObject([{ field: 'triggers[0]', line: 5, message: expect.stringMatching(/lookahead `\(\?=`/) }]);
    expect(errors(parse(['triggers: [a1]', 'secondaryTriggers: ["/(x)\\\\1/"]']).diagnostics)).toMatchObject([{ field: 'secondaryTriggers[0]', line: 6, message: expect.stringMatching(/backreference `\\1`/) }]);
  });

  it('says what to write instead of a lookahead', () => {
    const [error] = errors(parse(patternTrigger('(?=.*secret)token')).diagnostics);
    expect(error?.message).toMatch(/add it as a secondary trigger \(`secondaryTriggers` with `selectiveLogic: AND ALL`\)\.$/);
  });
});

describe('parseSkill: save-time backtracking advice (issue 13)', () => {
  const analyser = new FixedAnalyser({
    '(a{1,5})+b': { kind: 'EXPONENTIAL', degree: null, hotspots: ['a'] },
    '.*a.*x': { kind: 'POLYNOMIAL', degree: 3, hotspots: ['.', 'a.'] },
    'please.*deploy.*prod': { kind: 'POLYNOMIAL', degree: 3, hotspots: [] },
    'slow': { kind: 'UNKNOWN', reason: 'timeout' },
  });

  it('warns at the pattern about an exponential shape, and still loads the skill', () => {
    const { skill, diagnostics } = parse(patternTrigger('(a{1,5})+b'), analyser);
    expect(skill).not.toBeNull();
    expect(diagnostics).toEqual([{
      severity: 'WARNING',
      path: PATH,
      line: 7,
      column: 14,
      field: 'triggers[0].pattern',
      message: '`triggers[0].pattern` has exponential backtracking (at `a`): harmless here, where trigger patterns run on a linear-time engine (RE2), but on a backtracking engine (Java, JavaScript) a few dozen characters can hang it. Before using it elsewhere, rewrite it so a repeated part cannot match the same text in several ways (e.g. `a+b` rather than `(a+)+b`).',
    }]);
  });

  it('warns about a polynomial shape with its degree, in lorebook strings and secondary triggers too', () => {
    expect(warnings(parse(patternTrigger('.*a.*x'), analyser).diagnostics)).toMatchObject([{
      field: 'triggers[0].pattern',
      message: '`triggers[0].pattern` has 3rd-degree polynomial backtracking (at `.`, `a.`): harmless here, where trigger patterns run on a linear-time engine (RE2), but on a backtracking engine (Java, JavaScript) a long message costs time that grows with a power of its length. Before using it elsewhere, bound the gaps (e.g. `.{0,100}` rather than `.*`).',
    }]);
    expect(warnings(parse(['triggers: [a1]', 'secondaryTriggers: ["/please.*deploy.*prod/"]'], analyser).diagnostics)).toMatchObject([
      { field: 'secondaryTriggers[0]', line: 6, message: expect.stringMatching(/^`secondaryTriggers\[0\]` has 3rd-degree polynomial backtracking: harmless here/) },
    ]);
  });

  it('says nothing about a safe pattern or one the analyser could not judge in time', () => {
    expect(parse(patternTrigger('deploy(ment)? to (prod|staging)'), analyser).diagnostics).toEqual([]);
    expect(parse(patternTrigger('slow'), analyser).diagnostics).toEqual([]);
  });

  it('hands the analyser the JavaScript twin of the RE2 pattern, with its flags', () => {
    const seen = new FixedAnalyser({});
    parse(patternTrigger('(?s)\\Aa.b\\x{e4}'), seen);
    expect(seen.seen).toEqual([{ source: '(?<![\\s\\S])a.b\\u{E4}', flags: 'isu' }]);
  });

  it('runs only where documents are validated: the document kind passes it on, a plain parse does not ask', () => {
    const counted = new FixedAnalyser({ '(a{1,5})+b': { kind: 'EXPONENTIAL', degree: null, hotspots: [] } });
    const kind = skillDocumentKind(undefined, counted);
    const match = kind.pattern.exec(PATH)!;
    expect(warnings(kind.validate(PATH, match, content(patternTrigger('(a{1,5})+b'))))).toHaveLength(1);
    expect(parse(patternTrigger('(a{1,5})+b')).diagnostics).toEqual([]);
    expect(counted.seen).toHaveLength(1);
  });
});
