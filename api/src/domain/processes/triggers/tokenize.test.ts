import { describe, expect, it } from 'vitest';
import { distinctKeywords, tokenize } from './tokenize';

describe('tokenize (DESIGN §10)', () => {
  it('lower-cases and splits on runs of non-letters/digits, exactly [^a-z0-9]+ for ASCII', () => {
    expect(tokenize('Please REVIEW the diff, then merge: PR#42 (v1.2)!')).toEqual(['please', 'review', 'the', 'diff', 'then', 'merge', 'pr', '42', 'v1']);
    expect(tokenize('snake_case kebab-case dot.case')).toEqual(['snake', 'case', 'kebab', 'case', 'dot', 'case']);
  });

  it('keeps a German word with an umlaut as one token, precomposed or with a combining diaeresis', () => {
    expect(tokenize('Bitte Vor- und Nachteile abwägen.')).toEqual(['bitte', 'vor', 'und', 'nachteile', 'abwägen']);
    expect(tokenize('abwa\u0308gen')).toEqual(['abwägen']);
    expect(tokenize('ÜBERSICHT straße 東京 παράδειγμα')).toEqual(['übersicht', 'straße', '東京', 'παράδειγμα']);
  });

  it('drops tokens shorter than two characters, counting characters, not UTF-16 units', () => {
    expect(tokenize('a b c go x2 é')).toEqual(['go', 'x2']);
    expect(tokenize('𝐀 𝐀𝐁')).toEqual(['𝐀𝐁']);
  });

  it('returns nothing for punctuation, whitespace or an empty text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- ... !!')).toEqual([]);
  });
});

describe('distinctKeywords', () => {
  it('counts a keyword listed twice once, also when two spellings tokenise the same', () => {
    const distinct = distinctKeywords(['Pull Request', 'pull-request', 'review', 'REVIEW']);
    expect(distinct.map((k) => k.written)).toEqual(['Pull Request', 'review']);
    expect(distinct[0]!.tokens).toEqual(['pull', 'request']);
  });

  it('keeps keywords without any token as distinct entries that can never occur', () => {
    expect(distinctKeywords(['c', 'r', 'c', 'rust'])).toEqual([
      { written: 'c', tokens: [] },
      { written: 'r', tokens: [] },
      { written: 'rust', tokens: ['rust'] },
    ]);
  });
});
