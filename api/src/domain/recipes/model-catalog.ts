/**
 * Model size classes for the render context's `tier` (seed 004 §5.1): "small" or "large", from a
 * catalog (ModelInfo.size in the original). `params.modelSize` SMALL | LARGE forces it; AUTO (the
 * default) lets the catalog decide. The static catalog classifies by well-known name fragments; the
 * LLM issue may replace it with provider metadata behind the same port. Unclassified models count as
 * large — the full prompt variant is the safe choice.
 */
export type ModelTier = 'small' | 'large';
export type ModelSize = 'SMALL' | 'LARGE' | 'AUTO';

export interface ModelCatalog {
  /** undefined when the catalog does not know the model. */
  tierOf(provider: string, model: string): ModelTier | undefined;
}

const SMALL_MODEL = /(haiku|mini|nano|flash|lite|small|tiny|(?:^|[^0-9])[1-9]b\b|:[1-9]b\b)/i;

export class StaticModelCatalog implements ModelCatalog {
  constructor(private readonly known: Readonly<Record<string, ModelTier>> = {}) {}

  tierOf(provider: string, model: string): ModelTier | undefined {
    const exact = this.known[`${provider}:${model}`] ?? this.known[model];
    if (exact) return exact;
    return SMALL_MODEL.test(model) ? 'small' : undefined;
  }
}

/** params.modelSize, case-insensitive; anything else is AUTO and reported by the caller. */
export function readModelSize(value: unknown): ModelSize | undefined {
  if (value === undefined || value === null) return 'AUTO';
  if (typeof value !== 'string') return undefined;
  const size = value.trim().toUpperCase();
  return size === 'SMALL' || size === 'LARGE' || size === 'AUTO' ? size : undefined;
}

export function tierFor(catalog: ModelCatalog, provider: string, model: string, size: ModelSize): ModelTier {
  if (size === 'SMALL') return 'small';
  if (size === 'LARGE') return 'large';
  return catalog.tierOf(provider, model) ?? 'large';
}
