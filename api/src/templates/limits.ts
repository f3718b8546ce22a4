/**
 * The resource limits of one render (DESIGN §6). They are plain JSON so the same object configures
 * the in-process renderer and the code injected into the isolate.
 */
export interface RenderLimits {
  /** Wall-clock work budget checked from inside the template (loops, calls, output), in ms. */
  readonly timeLimitMs: number;
  /** Abstract work units: one per loop iteration / variable write / call / output, plus sizes. */
  readonly maxWorkUnits: number;
  /** Characters a render may produce (DESIGN §6: 1,000,000). */
  readonly maxOutput: number;
  /** Largest `range()` a template may ask for. */
  readonly maxRange: number;
  /** Macro calls nested deeper than this stop the render (recursion). */
  readonly maxCallDepth: number;
  /** Longest regular expression accepted by `is matching(...)`. */
  readonly maxPatternLength: number;
  /** Longest string `is matching(...)` is evaluated on. */
  readonly maxMatchInput: number;
}

export interface TemplateLimits extends RenderLimits {
  /** Templates longer than this are refused before compiling. */
  readonly maxSourceLength: number;
  /** Hard stop of a render in the isolate (V8 terminates it), in ms; above `timeLimitMs`. */
  readonly hardTimeoutMs: number;
  /** Hard stop of compiling one template in the isolate, in ms (a cold 200 KB source takes ~250 ms). */
  readonly compileTimeoutMs: number;
  /** Heap of the isolate, in MB. */
  readonly memoryLimitMb: number;
  /**
   * The isolate is replaced after a render that leaves its heap (V8's committed heap, garbage
   * included) above this many MB: an isolate that grew for one large render keeps that memory.
   */
  readonly recycleHeapMb: number;
  /** Render context caps: nesting depth, number of values, total string characters. */
  readonly maxContextDepth: number;
  readonly maxContextNodes: number;
  readonly maxContextChars: number;
}

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = Object.freeze({
  timeLimitMs: 50,
  maxWorkUnits: 1_000_000,
  maxOutput: 1_000_000,
  maxRange: 10_000,
  maxCallDepth: 64,
  maxPatternLength: 256,
  maxMatchInput: 10_000,
  maxSourceLength: 200_000,
  hardTimeoutMs: 100,
  compileTimeoutMs: 2_000,
  memoryLimitMb: 64,
  recycleHeapMb: 24,
  maxContextDepth: 32,
  maxContextNodes: 100_000,
  maxContextChars: 4_000_000,
});

export function renderLimitsOf(limits: TemplateLimits): RenderLimits {
  const { timeLimitMs, maxWorkUnits, maxOutput, maxRange, maxCallDepth, maxPatternLength, maxMatchInput } = limits;
  return { timeLimitMs, maxWorkUnits, maxOutput, maxRange, maxCallDepth, maxPatternLength, maxMatchInput };
}
