import { describe, expect, it } from 'vitest';
import { mergeParams } from './params-merge';

describe('mergeParams (seed 004 §4, §6a)', () => {
  it('merges recipe ⊕ profile ⊕ caller, last wins per key, and reports the applied caller keys', () => {
    const merged = mergeParams({ model: 'a', validation: true, rag: { topK: 5 } }, { maxIterations: 6, model: 'b' }, { model: 'c', rag: { topK: 1 } }, false);
    expect(merged).toEqual({
      params: { model: 'c', validation: true, rag: { topK: 1 }, maxIterations: 6 },
      overriddenKeys: ['model', 'rag'],
      droppedCallerKeys: [],
    });
  });

  it('drops every caller param of a locked recipe and reports them, but keeps the profile params', () => {
    const merged = mergeParams({ model: 'a' }, { maxIterations: 6 }, { model: 'c', temperature: 1 }, true);
    expect(merged).toEqual({ params: { model: 'a', maxIterations: 6 }, overriddenKeys: [], droppedCallerKeys: ['model', 'temperature'] });
  });

  it('treats missing caller params as none', () => {
    expect(mergeParams({ a: 1 }, {}, null, false)).toEqual({ params: { a: 1 }, overriddenKeys: [], droppedCallerKeys: [] });
  });

  it('keeps a caller key named __proto__ as plain data', () => {
    const caller = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = mergeParams({}, {}, caller, false);
    expect(Object.getPrototypeOf(merged.params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
