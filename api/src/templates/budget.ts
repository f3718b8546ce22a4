/**
 * The per-render work budget (DESIGN §6: a render time cap and an output cap). The hardened runtime
 * charges it from every place a template can spend work: loop iterations, variable writes, frame
 * pushes, calls, filters and output. Exhausting it stops the render with TIMEOUT or OUTPUT_LIMIT
 * long before the process would notice.
 *
 * INJECTED: `createBudget` is also serialised with `Function.prototype.toString` and evaluated
 * inside the isolate, so it must stay self-contained — no imports, no module-level helpers.
 */
import type { Fail } from './nunjucks-internals';
import type { RenderLimits } from './limits';

export interface Budget {
  /** Spends work units; checks the deadline every few hundred units. */
  charge(units: number): void;
  /** Counts characters written to any output buffer (captures and macros included). */
  emit(chars: number): void;
  enterCall(): void;
  exitCall(): void;
}

export function createBudget(limits: RenderLimits, fail: Fail): Budget {
  const deadline = Date.now() + limits.timeLimitMs;
  // Nested captures and macro bodies are counted again when printed, so the running total may
  // exceed the final output legitimately; it only has to stop runaway growth before allocation.
  const maxEmitted = limits.maxOutput * 4;
  let units = 0;
  let sinceClockCheck = 0;
  let emitted = 0;
  let depth = 0;
  const charge = (n: number) => {
    units += n;
    sinceClockCheck += n;
    if (units > limits.maxWorkUnits) fail('TIMEOUT', `the template exceeded its work budget (${limits.maxWorkUnits} steps)`);
    if (sinceClockCheck >= 256) {
      sinceClockCheck = 0;
      if (Date.now() > deadline) fail('TIMEOUT', `the template ran longer than ${limits.timeLimitMs} ms`);
    }
  };
  return {
    charge,
    emit(chars) {
      emitted += chars;
      if (chars > limits.maxOutput || emitted > maxEmitted) {
        fail('OUTPUT_LIMIT', `the template output exceeds ${limits.maxOutput} characters`);
      }
      charge(1 + (chars >> 10));
    },
    enterCall() {
      depth += 1;
      if (depth > limits.maxCallDepth) fail('TIMEOUT', `macro calls nested deeper than ${limits.maxCallDepth}`);
    },
    exitCall() {
      depth -= 1;
    },
  };
}
