import { describe, expect, it } from 'vitest';
import { findUnstorable, storableValue, toStorable } from './storable-text';

describe('storable text', () => {
  it('finds a NUL and unpaired surrogates, and accepts pairs and noncharacters', () => {
    expect(findUnstorable('ok 😀 \uffff \ufffe')).toBeNull();
    expect(findUnstorable('ab\u0000')).toEqual({ index: 2, what: 'U+0000 (NUL)' });
    expect(findUnstorable('x\ud800')).toEqual({ index: 1, what: 'an unpaired UTF-16 surrogate (U+D800)' });
    expect(findUnstorable('\udc00x')?.index).toBe(0);
    expect(findUnstorable('😀\ude00')?.index).toBe(2);
  });

  it('replaces each unstorable character with U+FFFD and counts them', () => {
    expect(toStorable('a\u0000b\ud800c😀')).toEqual({ text: 'a\ufffdb\ufffdc😀', replaced: 2 });
    expect(toStorable('fine')).toEqual({ text: 'fine', replaced: 0 });
  });

  it('cleans strings and keys deep in a value and keeps unchanged parts as they are', () => {
    const untouched = { a: [1, 'x'] };
    const input = { untouched, list: ['ok', { ['k\u0000']: 'v\udc00' }] };
    const { value, replaced } = storableValue(input);
    expect(replaced).toBe(2);
    expect(value).toEqual({ untouched, list: ['ok', { 'k\ufffd': 'v\ufffd' }] });
    expect(value.untouched).toBe(untouched);
    expect(storableValue(untouched).value).toBe(untouched);
  });
});
