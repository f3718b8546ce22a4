export { NunjucksTemplateEngine, type NunjucksTemplateEngineOptions, type TemplateSandbox } from './nunjucks-template-engine';
export { DEFAULT_TEMPLATE_LIMITS, type RenderLimits, type TemplateLimits } from './limits';
export { InProcessTemplateRenderer } from './in-process-renderer';
export type { RenderOutcome } from './render-core';
export type { TemplateRenderer } from './renderer';
