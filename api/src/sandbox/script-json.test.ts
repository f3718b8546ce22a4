import { describe, expect, it } from 'vitest';
import { capText, hostErrorMessage, jsonDepthExceeds } from './script-json';

describe('jsonDepthExceeds', () => {
  it('counts nesting of arrays and objects', () => {
    expect(jsonDepthExceeds('[[{"a":[1]}]]', 4)).toBe(false);
    expect(jsonDepthExceeds('[[{"a":[1]}]]', 3)).toBe(true);
    expect(jsonDepthExceeds('[1,[2],[3],[4]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(['a\\"[[[', 'b\\\\', ['c']]), 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(['\\', [['x']]]), 2)).toBe(true);
  });
});

describe('messages', () => {
  it('caps long text and says how much was cut', () => {
    expect(capText('abcdef', 3)).toBe('abc… (3 more characters)');
    expect(capText('abc', 3)).toBe('abc');
  });

  it('takes only an Error message or a string from a host failure', () => {
    expect(hostErrorMessage(new Error('boom'))).toBe('boom');
    expect(hostErrorMessage('plain')).toBe('plain');
    expect(hostErrorMessage({ toString: () => 'never called' })).toBe('the host function failed with a non-Error value');
  });
});
