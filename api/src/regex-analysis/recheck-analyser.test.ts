import { describe, expect, it } from 'vitest';
import type { Diagnostics } from 'recheck';
import { skillDocumentKind } from '../domain/skills';
import { compileJavaRegex } from '../domain/skills/java-regex';
import type { JsRegexSource } from '../domain/skills/trigger-regex';
import { COOL_DOWN_MS, RecheckAnalyser, type CheckSync } from './recheck-analyser';

/**
 * The recheck adapter (issue 13). The real analyser gets a generous per-pattern limit here, so that a
 * loaded machine still reaches the verdicts; the limits themselves are tested with a stand-in checker
 * and a stand-in clock, and the real time cap with an analysis that cannot finish within it.
 */
const twin = (javaPattern: string): JsRegexSource => {
  const compiled = compileJavaRegex(javaPattern);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.regex.analysis;
};

const patient = new RecheckAnalyser({ timeoutMs: 30_000, budgetMsPerMinute: 600_000 });

describe('RecheckAnalyser on recheck', () => {
  it.each(['(a{1,5})+b', '(日+)+x', '(a+)+b', '([a-z]+|\\d+)+x'])('classifies %s as exponential (the hand-written check let the first two through)', (source) => {
    expect(patient.analyse(twin(source))).toMatchObject({ kind: 'EXPONENTIAL', degree: null });
  });

  it.each([['please.*deploy.*prod', 3], ['.*a.*x', 3], ['(?i)schau.*(diff|PR|änderung)', 2]])('classifies %s as polynomial of degree %i', (source, degree) => {
    expect(patient.analyse(twin(source))).toMatchObject({ kind: 'POLYNOMIAL', degree });
  });

  it.each(['deploy(ment)? to (prod|staging)', '(?i)(\\.(ts|tsx|mts|cts)\\b|\\btsc\\b|\\bts[0-9]{4}\\b)', 'colou?r[- ]?scheme'])('classifies %s as safe', (source) => {
    expect(patient.analyse(twin(source))).toEqual({ kind: 'SAFE' });
  });

  it('names the backtracking part of the pattern', () => {
    expect(patient.analyse(twin('(a{1,5})+b'))).toMatchObject({ hotspots: ['a'] });
  });

  it('gives up at its time limit with UNKNOWN: an analysis of seconds against a limit of one millisecond', () => {
    // Forty unbounded gaps: recheck needs seconds of fuzzing for this on an idle machine.
    const source = Array.from({ length: 40 }, (_, i) => `(?:${String.fromCharCode(97 + (i % 26))}.*)`).join('');
    const hasty = new RecheckAnalyser({ timeoutMs: 1, budgetMsPerMinute: 600_000 });
    expect(hasty.analyse({ source, flags: 'iu' })).toEqual({ kind: 'UNKNOWN', reason: 'timeout' });
  });

  it('warns through the skill validator, located at the pattern', () => {
    const path = '_vance/skills/lore/SKILL.md';
    const kind = skillDocumentKind(undefined, patient);
    const content = ['---', 'title: Lore', 'description: D', 'version: 1.0.0', 'triggers:', '  - type: PATTERN', "    pattern: '(a{1,5})+b'", '---', 'Body'].join('\n');
    expect(kind.validate(path, kind.pattern.exec(path)!, content)).toEqual([
      expect.objectContaining({ severity: 'WARNING', line: 7, column: 14, field: 'triggers[0].pattern', message: expect.stringMatching(/^`triggers\[0\]\.pattern` has exponential backtracking \(at `a`\): harmless here/) }),
    ]);
  });
});

describe('RecheckAnalyser limits (stand-in checker and clock)', () => {
  const safe: Diagnostics = { source: '', flags: '', status: 'safe', checker: 'automaton', complexity: { type: 'safe', summary: 'safe', isFuzz: false } };

  function rig(options: { timeoutMs?: number; budgetMsPerMinute?: number; costMs?: number; fail?: boolean } = {}) {
    let clock = 0;
    const calls: { source: string; timeout: number | null | undefined }[] = [];
    const check: CheckSync = (source, _flags, params) => {
      calls.push({ source, timeout: params.timeout });
      clock += options.costMs ?? 100;
      if (options.fail) throw new Error('Internal error: Atomics.wait() failed: timed-out');
      return safe;
    };
    const analyser = new RecheckAnalyser({ timeoutMs: options.timeoutMs ?? 300, budgetMsPerMinute: options.budgetMsPerMinute ?? 1_000, check, now: () => clock });
    return { analyser, calls, advance: (ms: number) => (clock += ms) };
  }
  const pattern = (i: number): JsRegexSource => ({ source: `p${i}`, flags: 'iu' });

  it('asks recheck once per pattern and flags, with the per-pattern limit', () => {
    const { analyser, calls } = rig();
    expect(analyser.analyse(pattern(1))).toEqual({ kind: 'SAFE' });
    expect(analyser.analyse(pattern(1))).toEqual({ kind: 'SAFE' });
    analyser.analyse({ source: 'p1', flags: 'isu' });
    expect(calls).toEqual([{ source: 'p1', timeout: 300 }, { source: 'p1', timeout: 300 }]);
  });

  it('spends at most its budget per minute, shortening the last limit, then answers UNKNOWN until the minute is over', () => {
    const { analyser, calls, advance } = rig({ timeoutMs: 300, budgetMsPerMinute: 1_000, costMs: 300 });
    for (let i = 0; i < 3; i++) expect(analyser.analyse(pattern(i)).kind).toBe('SAFE');
    expect(analyser.analyse(pattern(3)).kind).toBe('SAFE');
    expect(calls.map((c) => c.timeout)).toEqual([300, 300, 300, 100]);
    expect(analyser.analyse(pattern(4))).toEqual({ kind: 'UNKNOWN', reason: 'the analysis budget of this minute is spent' });
    expect(calls).toHaveLength(4);
    advance(60_000);
    expect(analyser.analyse(pattern(4)).kind).toBe('SAFE');
  });

  it('rests after a failure (synckit gave up waiting), then tries again', () => {
    const { analyser, calls, advance } = rig({ fail: true });
    expect(analyser.analyse(pattern(1))).toMatchObject({ kind: 'UNKNOWN', reason: expect.stringMatching(/^the analyser failed: /) });
    expect(analyser.analyse(pattern(2))).toEqual({ kind: 'UNKNOWN', reason: 'the analyser failed recently' });
    expect(calls).toHaveLength(1);
    advance(COOL_DOWN_MS);
    analyser.analyse(pattern(2));
    expect(calls).toHaveLength(2);
  });

  it('analyses nothing when turned off, and nothing too long to be a trigger', () => {
    const off = rig({ timeoutMs: 0 });
    expect(off.analyser.analyse(pattern(1)).kind).toBe('UNKNOWN');
    const { analyser, calls } = rig();
    expect(analyser.analyse({ source: 'a'.repeat(5_000), flags: 'iu' })).toEqual({ kind: 'UNKNOWN', reason: 'the pattern is too long to analyse' });
    expect([...off.calls, ...calls]).toEqual([]);
  });
});
