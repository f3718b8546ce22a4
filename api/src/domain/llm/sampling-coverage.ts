import type { SamplingKey, SamplingParams } from '../recipes/sampling-params';

/**
 * Which sampling params (seed 004 §5c) each provider takes, and what a provider needs that is not
 * set (Anthropic requires a token cap). Here, in the domain, so that the request a turn builds
 * (turns/model-request.ts) — and the preview that shows it — already holds what the provider gets;
 * the AI SDK adapter (llm/ai-sdk-provider.ts) maps the same values onto the SDK's settings.
 *
 *   topK: not for openai / openai-compatible / lmstudio;  seed, frequencyPenalty, presencePenalty:
 *   not for anthropic;  frequencyPenalty, presencePenalty: not for ollama.  seed is cast to a 32-bit
 *   integer (Java's (int) cast: values beyond 2^31 keep their low bits).  Anthropic: maxTokens 4096
 *   when none is set.  offline and unknown providers take everything.
 */
export interface SamplingCoverage {
  readonly topK: boolean;
  readonly seed: boolean;
  readonly frequencyPenalty: boolean;
  readonly presencePenalty: boolean;
  /** A maxTokens the provider needs when none is set (Anthropic: required). */
  readonly defaultMaxTokens: number | null;
}

export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

const FULL: SamplingCoverage = { topK: true, seed: true, frequencyPenalty: true, presencePenalty: true, defaultMaxTokens: null };

export const SAMPLING_COVERAGE: Readonly<Record<string, SamplingCoverage>> = {
  openai: { ...FULL, topK: false },
  'openai-compatible': { ...FULL, topK: false },
  lmstudio: { ...FULL, topK: false },
  anthropic: { ...FULL, seed: false, frequencyPenalty: false, presencePenalty: false, defaultMaxTokens: ANTHROPIC_DEFAULT_MAX_TOKENS },
  gemini: FULL,
  google: FULL,
  ollama: { ...FULL, frequencyPenalty: false, presencePenalty: false },
};

export function coverageOf(provider: string): SamplingCoverage {
  return SAMPLING_COVERAGE[provider.toLowerCase()] ?? FULL;
}

/** Java's (int) cast of a long: keep the low 32 bits, two's complement. */
export function toInt32(value: number): number {
  return Number(BigInt.asIntN(32, BigInt(Math.trunc(value))));
}

/** The sampling params as `provider` receives them, and the keys that were set but are not sent. */
export function samplingAsSent(provider: string, sampling: SamplingParams): { sampling: SamplingParams; dropped: SamplingKey[] } {
  const coverage = coverageOf(provider);
  const dropped: SamplingKey[] = [];
  const keep = <K extends 'topK' | 'seed' | 'frequencyPenalty' | 'presencePenalty'>(key: K): SamplingParams[K] => {
    if (sampling[key] === null || coverage[key]) return sampling[key];
    dropped.push(key);
    return null;
  };
  const seed = keep('seed');
  return {
    sampling: {
      ...sampling,
      maxTokens: sampling.maxTokens ?? coverage.defaultMaxTokens,
      topK: keep('topK'),
      seed: seed === null ? null : toInt32(seed),
      frequencyPenalty: keep('frequencyPenalty'),
      presencePenalty: keep('presencePenalty'),
      stopSequences: sampling.stopSequences !== null && sampling.stopSequences.length > 0 ? sampling.stopSequences : null,
    },
    dropped,
  };
}
