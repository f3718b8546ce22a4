import { describe, expect, it } from 'vitest';
import { resolveSampling } from '../recipes/sampling-params';
import { samplingAsSent } from './sampling-coverage';

const all = resolveSampling({ params: { temperature: 0.3, topK: 40, seed: 2 ** 32 + 5, frequencyPenalty: 0.2, presencePenalty: 0.1, stopSequences: [] } }).sampling;

describe('samplingAsSent', () => {
  it('leaves out what a provider does not take and says which (seed 004 §5c)', () => {
    expect(samplingAsSent('openai', all)).toMatchObject({ sampling: { topK: null, seed: 5, frequencyPenalty: 0.2 }, dropped: ['topK'] });
    expect(samplingAsSent('anthropic', all)).toMatchObject({
      sampling: { topK: 40, seed: null, frequencyPenalty: null, presencePenalty: null, maxTokens: 4096 },
      dropped: ['seed', 'frequencyPenalty', 'presencePenalty'],
    });
    expect(samplingAsSent('ollama', all).dropped).toEqual(['frequencyPenalty', 'presencePenalty']);
    expect(samplingAsSent('offline', all)).toMatchObject({ sampling: { topK: 40, maxTokens: null }, dropped: [] });
  });

  it('sends no empty stop list and casts the seed like Java (int)', () => {
    expect(samplingAsSent('gemini', all).sampling).toMatchObject({ stopSequences: null, seed: 5 });
  });
});
