import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../skills/java-regex';
import { requiredLiterals, scanText } from './required-literals';

function literalsOf(javaPattern: string): string[] | null {
  const compiled = compileJavaRegex(javaPattern);
  if (!compiled.ok) throw new Error(compiled.message);
  return requiredLiterals(compiled.regex);
}

describe('requiredLiterals', () => {
  it('takes the longest plain run of a sequence, lower-cased, through a leading (?i)', () => {
    expect(literalsOf('(?i)schau.*diff')).toEqual(['schau']);
    expect(literalsOf('Review the PR')).toEqual(['review the pr']);
    expect(literalsOf('\\bdeploy\\b to (prod|staging)')).toEqual(['deploy']);
  });

  it('ends a run at an optional or repeated character, keeping what is still required', () => {
    expect(literalsOf('colou?r scheme')).toEqual(['r scheme']);
    expect(literalsOf('ab+cd')).toEqual(['bcd']);
    expect(literalsOf('x*yz')).toEqual(['yz']);
  });

  it('unions the branches of an alternation and gives up when one branch has nothing', () => {
    expect(literalsOf('review|audit')).toEqual(['review', 'audit']);
    expect(literalsOf('(?i)(\\.(ts|tsx|mts|cts)\\b|\\btsc\\b|\\bts[0-9]{4}\\b)')).toEqual(['ts', 'tsx', 'mts', 'cts', 'tsc']);
    expect(literalsOf('review|a')).toBeNull();
    expect(literalsOf('foo|')).toBeNull();
  });

  it('uses a group that must match, and ignores optional groups', () => {
    expect(literalsOf('(?:pull|merge) request')).toEqual([' request']);
    expect(literalsOf('x(?:abc)?y')).toBeNull();
    expect(literalsOf('(?<word>alpha)+')).toEqual(['alpha']);
  });

  it('reads escapes: an escaped syntax character is a literal, a class escape ends the run', () => {
    expect(literalsOf('file\\.ts')).toEqual(['file.ts']);
    expect(literalsOf('\\Qa+b\\E!')).toEqual(['a+b!']);
    expect(literalsOf('v\\d+\\.\\d+')).toBeNull();
    expect(literalsOf('\\p{L}+ing\\b')).toEqual(['ing']);
    expect(literalsOf('\\x41bc')).toEqual(['bc']);
    // Code points the translation writes as \x{…} (RE2 syntax) end the run without breaking the parse.
    expect(literalsOf('ab\\u00e4cd\\x{1F600}ef')).toEqual(['ab']);
    expect(literalsOf('\\Areview\\z')).toEqual(['review']);
    expect(literalsOf('\\Rdone')).toEqual(['done']);
  });

  it('has nothing to offer for patterns without a required literal of two characters', () => {
    expect(literalsOf('^[0-9a-f]{40}$')).toBeNull();
    expect(literalsOf('.*')).toBeNull();
    expect(literalsOf('a.b')).toBeNull();
  });

  it('keeps non-ASCII characters out of literals (case folding beyond ASCII is not modelled)', () => {
    expect(literalsOf('(?i)schau.*änderung')).toEqual(['nderung']);
    expect(literalsOf('größe')).toEqual(['gr']);
    expect(literalsOf('öä')).toBeNull();
  });

  it('refuses a regex that is not case-insensitive', () => {
    expect(requiredLiterals({ source: 'review', ignoreCase: false })).toBeNull();
    expect(requiredLiterals({ source: 'review', ignoreCase: true })).toEqual(['review']);
  });
});

describe('scanText', () => {
  it('maps the long s onto s, the one lower-case letter outside ASCII that folds onto an ASCII letter', () => {
    const compiled = compileJavaRegex('class');
    expect(compiled.ok && compiled.regex.test('claſſ')).toBe(true);
    expect(scanText('claſſ')).toBe('class');
    expect(scanText('plain')).toBe('plain');
    // The Kelvin sign folds onto k too, but lower-casing the input already turns it into k.
    expect('\u212a'.toLowerCase()).toBe('k');
  });
});
