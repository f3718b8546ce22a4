/**
 * Test support (not exported from index.ts): every behaviour is asserted over both renderers
 * (STYLE: the same suite runs over each adapter implementation); NO_TIME_CAP is also what the
 * GraphQL test harness starts Vance with.
 */
import type { TemplateLimits } from './limits';
import type { TemplateSandbox } from './nunjucks-template-engine';

export const SANDBOXES: readonly TemplateSandbox[] = ['in-process', 'isolate'];

/**
 * Wall-clock limits lifted for tests that are not about the time cap: on a loaded 2-core machine an
 * ordinary render can miss the 50 ms / 100 ms defaults, and a render that hits the output cap could
 * be stopped by the clock first. Still finite: a render in the isolate blocks the event loop, so a
 * runaway one must end (as a TIMEOUT) on its own, well before the test timeout. The time cap itself is tested with unbounded work
 * (security.test.ts), under the default limits.
 */
export const NO_TIME_CAP: Partial<TemplateLimits> = Object.freeze({ timeLimitMs: 20_000, hardTimeoutMs: 20_000, compileTimeoutMs: 20_000 });

/** The 1-based position a TemplateRenderError carries. */
export function positionOf(error: unknown): { line?: number; column?: number } {
  const diagnostic = (error as { diagnostics?: readonly { line?: number; column?: number }[] }).diagnostics?.[0];
  return { line: diagnostic?.line, column: diagnostic?.column };
}
