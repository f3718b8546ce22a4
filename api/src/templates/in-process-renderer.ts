/**
 * Renders with the Node copy of nunjucks, hardened in place (runtime-hardening.ts patches the
 * shared runtime once, process-wide). The time cap is the budget's cooperative checks only: a
 * single expression the hooks cannot see (a regex, a comparison of two huge strings) runs to its
 * end. That residual risk is why the engine renders in the isolate by default (docs/templates.md).
 */
import nunjucks from 'nunjucks';
import type { NunjucksModule } from './nunjucks-internals';
import type { PreparedContext } from './prepared-context';
import { createRenderCore, type RenderCore, type RenderCoreConfig, type RenderOutcome } from './render-core';
import { RENDER_CORE_PARTS } from './render-core-parts';
import type { TemplateRenderer } from './renderer';

/** The Node nunjucks module as the internals it really exposes. */
export const NODE_NUNJUCKS = nunjucks as unknown as NunjucksModule;

export class InProcessTemplateRenderer implements TemplateRenderer {
  private readonly core: RenderCore;

  constructor(config: RenderCoreConfig) {
    this.core = createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, config);
  }

  render(id: string, source: string, data: Record<string, unknown>): RenderOutcome {
    return this.core.render(id, source, data);
  }

  renderPrepared(id: string, source: string, context: PreparedContext, extra: Record<string, unknown> | null): RenderOutcome {
    // Frozen, because the next render of the turn reads the same objects; `extra` is this render's own.
    const data = context.freeze();
    return this.core.render(id, source, extra ? { ...data, ...extra } : data);
  }

  /** Compiles without running; null when the template compiles. */
  check(source: string): Extract<RenderOutcome, { ok: false }> | null {
    const outcome = this.core.check(source);
    return outcome && !outcome.ok ? outcome : null;
  }

  dispose(): void {}
}
