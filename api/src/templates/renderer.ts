/**
 * What the engine needs from a place to render in: the hardened in-process nunjucks
 * (in-process-renderer.ts) or the isolate (sandbox/isolated-template-renderer.ts).
 */
import type { PreparedContext } from './prepared-context';
import type { RenderOutcome } from './render-core';

export interface TemplateRenderer {
  /** `id` identifies `source` for the compile cache (a hash); `data` is plain JSON-like data. */
  render(id: string, source: string, data: Record<string, unknown>): RenderOutcome;
  /**
   * Renders with a context that may be used again by later renders, plus `extra` top-level values
   * (plain data, copied for this render; they replace the context's). No render can change what a
   * later one reads from `context`.
   */
  renderPrepared(id: string, source: string, context: PreparedContext, extra: Record<string, unknown> | null): RenderOutcome;
  /** Frees what the renderer holds (the isolate); later renders start it again. */
  dispose(): void;
}
