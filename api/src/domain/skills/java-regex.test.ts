import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from './java-regex';
import type { TriggerRegex } from './trigger-regex';
import { randomPattern } from '../testing/random-pattern';

function regex(pattern: string): TriggerRegex {
  const result = compileJavaRegex(pattern);
  if (!result.ok) throw new Error(`expected ${pattern} to compile: ${result.message}`);
  return result.regex;
}

function failure(pattern: string): { message: string; index: number | null } {
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

  it('always compiles case-insensitively, without (?i) too (seed 000 §4a)', () => {
    const re = regex('review (the )?PR');
    expect(re.flags).toBe('i');
    expect(re.analysis.flags).toBe('iu');
    expect(re.test('please REVIEW the pr')).toBe(true);
  });

  it('compiles the decision-frame pattern of the original platform', () => {
    const re = regex('(?i)\\b(was|which|welche[ns]?)\\b.*\\b(better|besser|sinnvoll|sinnvoller)\\b');
    expect(re.test('Which option is better?')).toBe(true);
    expect(re.test('welches ist sinnvoller')).toBe(true);
  });

  it('turns leading (?s) and (?m) into the dotAll and multiline flags, also combined as (?ism)', () => {
    expect(regex('(?s)a.b').flags).toBe('is');
    expect(regex('(?s)a.b').test('a\nb')).toBe(true);
    expect(regex('(?m)^b$').test('a\nb\nc')).toBe(true);
    expect(regex('(?ism)x').flags).toBe('ims');
    expect(regex('(?i)(?s)x').flags).toBe('is');
  });

  it('keeps `.` stopping at \\n, \\r, U+2028 and U+2029 as the JavaScript translation did (RE2 alone stops only at \\n)', () => {
    for (const sep of ['\n', '\r', '\u2028', '\u2029']) expect(regex('a.b').test(`a${sep}b`)).toBe(false);
    expect(regex('a.b').test('a\u0085b')).toBe(true);
    expect(regex('(?s)a.b').test('a\rb')).toBe(true);
  });

  it('accepts (?iu), (?U), (?d) and (?-i) at the start as no-ops: matching is case-insensitive on lowercased input anyway', () => {
    expect(regex('(?iu)straße').test('STRAßE')).toBe(true);
    expect(regex('(?U)\\w+').flags).toBe('i');
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
    expect(regex('done\\Z').test('done\nmore')).toBe(false);
  });

  it('keeps lazy quantifiers and named groups', () => {
    expect(regex('a+?b').source).toBe('a+?b');
    expect(regex('<.+?>').find('<a> and <b>')).toBe('<a>');
    expect(regex('(?<verb>review|check) it').test('check it')).toBe(true);
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
    expect(regex('^\\p{IsGreek}+$').test('λόγος')).toBe(true);
    expect(regex('^\\p{L}+$').test('änderung')).toBe(true);
    expect(regex('^\\pL+$').test('abc')).toBe(true);
    expect(regex('\\p{javaLowerCase}').source).toBe('\\p{Lowercase}');
    expect(regex('\\p{IsLatin}').analysis.source).toBe('\\p{Script=Latin}');
  });

  it('rejects Unicode blocks (\\p{InGreek}) and properties RE2 lacks', () => {
    expect(failure('\\p{InGreek}').message).toMatch(/Unicode blocks/);
    expect(failure('\\p{IsIdeographic}').message).toMatch(/no RE2 equivalent/);
  });

  it('accepts Java escapes of punctuation and \\Q…\\E quoting', () => {
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

  it('translates \\h, \\R, \\e, \\cJ, \\0nn, \\uhhhh (a surrogate pair as one code point) and \\x{…}', () => {
    expect(regex('a\\hb').test('a\tb')).toBe(true);
    expect(regex('a\\Rb').test('a\r\nb')).toBe(true);
    expect(regex('\\e').test('\x1B')).toBe(true);
    expect(regex('a\\cJb').test('a\nb')).toBe(true);
    expect(regex('\\011').test('\t')).toBe(true);
    expect(regex('^\\u00e4$').test('ä')).toBe(true);
    expect(regex('^\\uD83D\\uDE00$').test('😀')).toBe(true);
    expect(regex('\\x{1F600}').test('😀')).toBe(true);
  });

  it('rejects class intersection and nested classes, \\G, unknown escapes and a { that starts no repetition', () => {
    expect(failure('[a-z&&[^aeiou]]').message).toMatch(/intersection/);
    expect(failure('[a[bc]]').message).toMatch(/nested character classes/);
    expect(failure('\\Gfoo').message).toMatch(/\\G/);
    expect(failure('\\y').message).toMatch(/unknown escape '\\y'/);
    expect(failure('a{,3}')).toMatchObject({ message: expect.stringMatching(/must start a repetition/), index: 1 });
  });

  it('reports what RE2 itself refuses (an unbalanced group) as an invalid regular expression, without the engine-added flags', () => {
    expect(failure('schau(diff')).toMatchObject({ message: 'invalid regular expression: missing closing ): `schau(diff`', index: null });
    expect(failure('[abc').message).toMatch(/unclosed character class/);
    expect(failure('abc\\').message).toMatch(/lone backslash/);
    expect(failure('a{1,1001}').message).toMatch(/counts past 1000, RE2's limit/);
  });
});

describe('compileJavaRegex: constructs RE2 cannot run in linear time are refused, named (issue 13)', () => {
  it.each([
    ['(?=.*secret)token', 'lookahead `(?=`', 0],
    ['token(?!s)', 'negative lookahead `(?!`', 5],
    ['(?<=my )token', 'lookbehind `(?<=`', 0],
    ['(?<!your )token', 'negative lookbehind `(?<!`', 0],
    ['(\\w+) \\1', 'backreference `\\1`', 6],
    ['(?<w>\\w+) \\k<w>', 'backreference `\\k<w>`', 10],
    ['a++b', 'possessive quantifier `++`', 2],
    ['x{2,3}+', 'possessive quantifier `{2,3}+`', 6],
    ['(?>abc)', 'atomic group `(?>`', 0],
  ])('%s: %s at character %i', (pattern, construct, index) => {
    const f = failure(pattern);
    expect(f.message.startsWith(`${construct} is not supported: trigger patterns run on a linear-time engine (RE2)`), f.message).toBe(true);
    expect(f.index).toBe(index);
  });
});

describe('compileJavaRegex: the RE2 regex and its JavaScript twin agree (property)', () => {
  function rng(seed: number): () => number {
    let state = seed;
    return () => (state = (state * 16807) % 2147483647) / 2147483647;
  }
  // Constructs whose meaning is the same in both dialects; \s, \w and \b differ by design (ASCII in RE2, as in Java).
  const ATOMS = ['a', 'b', 'ab', 'A', 'ä', 'Ä', '.', '\\.', '[ab]', '[^a]', '\\d', '\\D', ' ', '-', '^', '$', 'x', '\\x{e4}', '\\u00c4', '\\p{L}', '\\p{IsLatin}', '\\Qa.\\E'];
  const QUANTIFIERS = ['', '', '', '?', '*', '+', '{2}', '{0,2}', '{1,}', '??', '+?', '*?'];
  const LETTERS = ['a', 'b', 'A', 'B', 'ä', 'Ä', '.', ' ', '1', 'x', '-', '\n', '\r', '\u2028'];

  const ALPHABET = { atoms: ATOMS, quantifiers: QUANTIFIERS, anchors: ['^', '$'] };

  it('matches exactly where the JavaScript RegExp of the twin matches, with the same text, on 1,000 random patterns', () => {
    const random = rng(13);
    let matched = 0;
    let comparedText = 0;
    for (let i = 0; i < 1000; i++) {
      const prefix = random() < 0.2 ? '(?s)' : random() < 0.2 ? '(?m)' : '';
      const compiled = compileJavaRegex(prefix + randomPattern(random, ALPHABET));
      if (!compiled.ok) throw new Error(compiled.message);
      const { regex } = compiled;
      const js = new RegExp(regex.analysis.source, regex.analysis.flags);
      // ECMAScript fails an iteration of a quantified group that matched nothing (`(b??)?` on "b" gives "b");
      // RE2, like Perl and Java, accepts it (""). Only the evidence text can differ, so compare it elsewhere.
      const emptyIterations = /\)[*+?{]/.test(regex.analysis.source);
      for (let t = 0; t < 10; t++) {
        const text = Array.from({ length: Math.floor(random() * 10) }, () => LETTERS[Math.floor(random() * LETTERS.length)]!).join('');
        // (?m) differs by design at \r and U+2028 (RE2 ends lines only at \n); keep those texts out of its cases.
        if (prefix === '(?m)' && /[\r\u2028]/.test(text)) continue;
        const expected = js.exec(text)?.[0] ?? null;
        const found = regex.find(text);
        const what = `/${regex.source}/${regex.flags} vs /${js.source}/${js.flags} on ${JSON.stringify(text)}`;
        expect(found === null, what).toBe(expected === null);
        if (!emptyIterations) {
          expect(found, what).toBe(expected);
          comparedText++;
        }
        if (expected !== null) matched++;
      }
    }
    expect(matched).toBeGreaterThan(2500);
    expect(comparedText).toBeGreaterThan(3000);
  });
});
