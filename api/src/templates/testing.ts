/**
 * Test support for the templates folder only (not exported from index.ts): every behaviour is
 * asserted over both renderers (STYLE: the same suite runs over each adapter implementation).
 */
import type { TemplateSandbox } from './nunjucks-template-engine';

export const SANDBOXES: readonly TemplateSandbox[] = ['in-process', 'isolate'];

/** The 1-based position a TemplateRenderError carries. */
export function positionOf(error: unknown): { line?: number; column?: number } {
  const diagnostic = (error as { diagnostics?: readonly { line?: number; column?: number }[] }).diagnostics?.[0];
  return { line: diagnostic?.line, column: diagnostic?.column };
}
