import { describe, expect, it } from 'vitest';
import { resolveSampling } from './sampling-params';

describe('resolveSampling (seed 004 §5c)', () => {
  it('reads numbers of any kind and numeric text, and wraps a single stop string', () => {
    const { sampling, dropped } = resolveSampling({
      params: { temperature: '0.4', maxTokens: 2048, topP: 0.1, topK: '40', stopSequences: 'END', seed: '1', frequencyPenalty: 0.3, presencePenalty: -0.2 },
    });
    expect(dropped).toEqual([]);
    expect(sampling).toEqual({ temperature: 0.4, maxTokens: 2048, topP: 0.1, topK: 40, stopSequences: ['END'], seed: 1, frequencyPenalty: 0.3, presencePenalty: -0.2 });
  });

  it('defaults temperature to 0.7 and everything else to unset', () => {
    expect(resolveSampling({ params: {} }).sampling).toEqual({
      temperature: 0.7, maxTokens: null, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null,
    });
  });

  it('filters empty stop sequences', () => {
    expect(resolveSampling({ params: { stopSequences: ['A', '', 'B'] } }).sampling.stopSequences).toEqual(['A', 'B']);
  });

  it('drops invalid values and reports them instead of failing', () => {
    const { sampling, dropped } = resolveSampling({ params: { temperature: 'hot', topP: 1.5, maxTokens: 10.5, stopSequences: [1], seed: true } });
    expect(sampling).toMatchObject({ temperature: 0.7, topP: null, maxTokens: null, stopSequences: null, seed: null });
    expect(dropped.map((d) => [d.key, d.reason])).toEqual([
      ['temperature', 'not a number'],
      ['maxTokens', 'not a whole number'],
      ['topP', 'outside 0..1'],
      ['stopSequences', 'not a string or a list of strings'],
      ['seed', 'not a number'],
    ]);
  });

  it('lets the recipe temperature win over a caller option, but a caller option win for nullable fields', () => {
    const { sampling } = resolveSampling({ params: { temperature: 0.2, topP: 0.5 }, options: { temperature: 1, topP: 0.9 } });
    expect(sampling).toMatchObject({ temperature: 0.2, topP: 0.9 });
    expect(resolveSampling({ params: {}, options: { temperature: 1 } }).sampling.temperature).toBe(1);
  });

  it('lets the runtime overlay win over everything', () => {
    const { sampling } = resolveSampling({ params: { temperature: 0.2, topP: 0.5 }, overrides: { temperature: '1.5', topP: 0.3 }, options: { topP: 0.9 } });
    expect(sampling).toMatchObject({ temperature: 1.5, topP: 0.3 });
  });
});
