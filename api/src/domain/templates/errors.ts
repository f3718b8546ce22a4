import { InvalidInputError } from '../errors';

/** A template that failed to render: syntax, a forbidden call, the time or output cap. */
export class TemplateRenderError extends InvalidInputError {
  constructor(
    readonly reason: 'SYNTAX' | 'FORBIDDEN' | 'TIMEOUT' | 'OUTPUT_LIMIT' | 'RUNTIME',
    message: string,
    position: { line?: number; column?: number } = {},
  ) {
    super('TEMPLATE_RENDER_FAILED', message, undefined, position);
  }
}
