import type { TemplateContext, TemplateEngine } from './template-engine';

/**
 * The engine's context for several renders, or, for an engine without one, renders of the merged
 * values (what the renders would see either way: the context with `extra` on top).
 */
export function templateContext(engine: TemplateEngine, context: Readonly<Record<string, unknown>>): TemplateContext {
  if (engine.context) return engine.context(context);
  return { render: (source, extra) => engine.render(source, extra ? { ...context, ...extra } : context) };
}
