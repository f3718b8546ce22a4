import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from './java-regex';

function regex(pattern: string): RegExp {
  const result = compileJavaRegex(pattern);
  if (!result.ok) throw new Error(`expected ${pattern} to compile: ${result.message}`);
  return result.regex;
}

function failure(pattern: string): { message: string; index: number } {
  const result = compileJavaRegex(pattern);
  if (result.ok) throw new Error(`expected ${pattern} to be rejected, got /${result.regex.source}/${result.regex.flags}`);
  return result;
}

describe('compileJavaRegex', () => {
  it('compiles the seed trigger with a leading (?i) and matches a German request case-insensitively', () => {
    const re = regex('(?i)schau.*(diff|PR|änderung)');
    expect(re.test('Schau dir den Diff an')).toBe(true);
    expect(re.test('schau mal die Änderung')).toBe(true);
    expect(re.test('look at the diff')).toBe(false);
  });

  it('always compiles with the i and u flags, matching case-insensitively without (?i) too (seed 000 §4a)', () => {
    const re = regex('review (the )?PR');
    expect(re.flags).toBe('iu');
    expect(re.test('please REVIEW the pr')).toBe(true);
  });

  it('compiles the decision-frame pattern of the original platform', () => {
    const re = regex('(?i)\\b(was|which|welche[ns]?)\\b.*\\b(better|besser|sinnvoll|sinnvoller)\\b');
    expect(re.test('Which option is better?')).toBe(true);
    expect(re.test('welches ist sinnvoller')).toBe(true);
  });

  it('turns leading (?s) and (?m) into the dotAll and multiline flags, also combined as (?ism)', () => {
    expect(regex('(?s)a.b').flags).toBe('isu');
    expect(regex('(?s)a.b').test('a\nb')).toBe(true);
    expect(regex('(?m)^b$').test('a\nb\nc')).toBe(true);
    expect(regex('(?ism)x').flags).toBe('imsu');
    expect(regex('(?i)(?s)x').flags).toBe('isu');
  });

  it('accepts (?iu), (?U), (?d) and (?-i) at the start as no-ops: matching is case-insensitive on lowercased input anyway', () => {
    expect(regex('(?iu)straße').test('STRAßE')).toBe(true);
    expect(regex('(?U)\\w+').flags).toBe('iu');
    expect(regex('(?-i)abc').test('ABC')).toBe(true);
  });

  it('expands comments mode (?x): whitespace and #-comments are dropped, escaped spaces kept', () => {
    const re = regex('(?x) review \\  (the)?   # the verb\n  code');
    expect(re.source).toBe('review (the)?code');
    expect(regex('(?x)a\\ b').test('a b')).toBe(true);
  });

  it('turns a mid-pattern (?i) into nothing and (?i:…) into a plain group', () => {
    expect(regex('foo(?i)bar').source).toBe('foobar');
    expect(regex('foo(?i:bar|baz)').source).toBe('foo(?:bar|baz)');
  });

  it('rejects (?s) after the start with a message that says where it is supported', () => {
    expect(failure('a(?s).b').message).toMatch(/only supported at the very start/);
    expect(failure('a(?s:.)b').index).toBe(1);
  });

  it('translates \\A, \\z and \\Z anchors', () => {
    expect(regex('\\Areview').test('review it')).toBe(true);
    expect(regex('\\Areview').test('a review')).toBe(false);
    expect(regex('done\\z').test('all done')).toBe(true);
    expect(regex('done\\z').test('done\n')).toBe(false);
    expect(regex('done\\Z').test('done\n')).toBe(true);
  });

  it('rejects possessive quantifiers and atomic groups with a clear message and position', () => {
    expect(failure('a++b')).toMatchObject({ message: expect.stringMatching(/possessive quantifier 'a\+\+'|possessive quantifier '\+\+'/), index: 2 });
    expect(failure('x{2,3}+').message).toMatch(/possessive/);
    expect(failure('(?>abc)').message).toMatch(/atomic groups/);
  });

  it('keeps lazy quantifiers', () => {
    expect(regex('a+?b').source).toBe('a+?b');
  });

  it('maps POSIX classes like \\p{Alpha} to ASCII ranges, inside and outside a class, negated too', () => {
    expect(regex('\\p{Alpha}+').test('abc')).toBe(true);
    expect(regex('^\\p{Digit}+$').test('123')).toBe(true);
    expect(regex('^[\\p{Alpha}_]+$').test('a_b')).toBe(true);
    expect(regex('^\\P{Digit}$').test('x')).toBe(true);
    expect(regex('^\\P{Digit}$').test('1')).toBe(false);
  });

  it('maps Unicode scripts and categories: \\p{IsLatin}, \\p{L}, \\pL, \\p{javaLowerCase}', () => {
    expect(regex('^\\p{IsLatin}+$').test('Über')).toBe(true);
    expect(regex('^\\p{L}+$').test('änderung')).toBe(true);
    expect(regex('^\\pL+$').test('abc')).toBe(true);
    expect(regex('\\p{javaLowerCase}').source).toBe('\\p{Lowercase}');
  });

  it('rejects Unicode blocks (\\p{InGreek}) that JavaScript cannot express', () => {
    expect(failure('\\p{InGreek}').message).toMatch(/Unicode blocks/);
  });

  it('accepts Java escapes of punctuation that the u flag refuses, and \\Q…\\E quoting', () => {
    expect(regex('say \\"hi\\" \\<now\\>').test('say "hi" <now>')).toBe(true);
    expect(regex('\\Qa.b*c\\E').test('a.b*c')).toBe(true);
    expect(regex('\\Qa.b*c\\E').test('aXbbc')).toBe(false);
    expect(regex('[\\Q-]\\E]').test(']')).toBe(true);
  });

  it('reads a ] right after [ as a literal like Java, and a lone ] or } as literals', () => {
    expect(regex('[]a]').test(']')).toBe(true);
    expect(regex('a]').test('a]')).toBe(true);
    expect(regex('a}').test('a}')).toBe(true);
  });

  it('translates \\h, \\R, \\e, \\0nn and \\x{…}', () => {
    expect(regex('a\\hb').test('a\tb')).toBe(true);
    expect(regex('a\\Rb').test('a\r\nb')).toBe(true);
    expect(regex('\\e').test('\x1B')).toBe(true);
    expect(regex('\\011').test('\t')).toBe(true);
    expect(regex('\\x{1F600}').test('😀')).toBe(true);
  });

  it('rejects class intersection and nested classes, \\G and unknown escapes', () => {
    expect(failure('[a-z&&[^aeiou]]').message).toMatch(/intersection/);
    expect(failure('[a[bc]]').message).toMatch(/nested character classes/);
    expect(failure('\\Gfoo').message).toMatch(/\\G/);
    expect(failure('\\y').message).toMatch(/unknown escape '\\y'/);
  });

  it('reports what JavaScript itself refuses (an unbalanced group) as an invalid regular expression', () => {
    expect(failure('schau(diff').message).toMatch(/^invalid regular expression: /);
    expect(failure('[abc').message).toMatch(/unclosed character class/);
    expect(failure('abc\\').message).toMatch(/lone backslash/);
  });
});
