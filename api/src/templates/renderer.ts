/**
 * What the engine needs from a place to render in: the hardened in-process nunjucks
 * (in-process-renderer.ts) or the isolate (sandbox/isolated-template-renderer.ts).
 */
import type { RenderOutcome } from './render-core';

export interface TemplateRenderer {
  /** `id` identifies `source` for the compile cache (a hash); `data` is plain JSON-like data. */
  render(id: string, source: string, data: Record<string, unknown>): RenderOutcome;
  /** Frees what the renderer holds (the isolate); later renders start it again. */
  dispose(): void;
}
