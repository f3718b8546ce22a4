export { TemplatePreviewService, TEMPLATE_KINDS, type DefaultRenderContext, type TemplateKind, type TemplatePreview, type TemplatePreviewRequest } from './template-preview';
