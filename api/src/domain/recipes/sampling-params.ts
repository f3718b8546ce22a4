/**
 * LLM sampling params read from effective params (seed 004 §5c), type-tolerant: any number, or text
 * that parses as one ("0.4" → 0.4); stopSequences accepts a single string and drops empty entries.
 * Invalid values are dropped and reported (the service layer logs them) instead of failing a spawn.
 * Precedence: temperature = runtime override > recipe > caller option > 0.7 (the recipe wins because
 * the 0.7 default cannot be told apart from an explicit caller value); every other field =
 * runtime override > caller option > recipe > unset.
 */
export const DEFAULT_TEMPERATURE = 0.7;

export interface SamplingParams {
  readonly temperature: number;
  readonly maxTokens: number | null;
  readonly topP: number | null;
  readonly topK: number | null;
  readonly stopSequences: readonly string[] | null;
  readonly seed: number | null;
  readonly frequencyPenalty: number | null;
  readonly presencePenalty: number | null;
}

export type SamplingKey = keyof SamplingParams;

export interface DroppedParam {
  readonly key: SamplingKey;
  readonly value: unknown;
  readonly reason: string;
}

type Reader = (value: unknown) => { ok: true; value: number | readonly string[] } | { ok: false; reason: string };

const number = (min: number, max: number, integer: boolean): Reader => (raw) => {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, reason: 'not a number' };
  if (integer && !Number.isInteger(value)) return { ok: false, reason: 'not a whole number' };
  if (value < min || value > max) return { ok: false, reason: `outside ${min}..${max}` };
  return { ok: true, value };
};

const strings: Reader = (raw) => {
  const items = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : null;
  if (!items || items.some((s) => typeof s !== 'string')) return { ok: false, reason: 'not a string or a list of strings' };
  return { ok: true, value: (items as string[]).filter((s) => s !== '') };
};

const READERS: Readonly<Record<SamplingKey, Reader>> = {
  temperature: number(0, 2, false),
  maxTokens: number(1, Number.MAX_SAFE_INTEGER, true),
  topP: number(0, 1, false),
  topK: number(1, Number.MAX_SAFE_INTEGER, true),
  stopSequences: strings,
  seed: number(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, true),
  frequencyPenalty: number(-2, 2, false),
  presencePenalty: number(-2, 2, false),
};

export interface SamplingInput {
  /** Effective params (recipe ⊕ profile ⊕ caller). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The runtime overlay (engineParamOverrides, `//llm`), highest precedence. */
  readonly overrides?: Readonly<Record<string, unknown>>;
  /** What the calling code already set on its options. */
  readonly options?: Partial<SamplingParams>;
}

export function resolveSampling(input: SamplingInput): { sampling: SamplingParams; dropped: DroppedParam[] } {
  const dropped: DroppedParam[] = [];
  const read = (key: SamplingKey, source: Readonly<Record<string, unknown>> | undefined) => {
    if (!source || !Object.hasOwn(source, key) || source[key] === null || source[key] === undefined) return null;
    const result = READERS[key](source[key]);
    if (result.ok) return result.value;
    dropped.push({ key, value: source[key], reason: result.reason });
    return null;
  };
  const pick = (key: SamplingKey) => {
    const override = read(key, input.overrides);
    const recipe = read(key, input.params);
    const option = input.options?.[key] ?? null;
    if (key === 'temperature') return override ?? recipe ?? option ?? DEFAULT_TEMPERATURE;
    return override ?? option ?? recipe;
  };
  const sampling = {
    temperature: pick('temperature') as number,
    maxTokens: pick('maxTokens') as number | null,
    topP: pick('topP') as number | null,
    topK: pick('topK') as number | null,
    stopSequences: pick('stopSequences') as readonly string[] | null,
    seed: pick('seed') as number | null,
    frequencyPenalty: pick('frequencyPenalty') as number | null,
    presencePenalty: pick('presencePenalty') as number | null,
  };
  return { sampling, dropped };
}
