/**
 * renderTemplate (issue 15): an author renders a template with a context of their choosing, by the
 * same engine and limits as a turn (the TemplateEngine port: the sandbox, the time, work and output
 * caps of DESIGN §6), instead of spawning processes to see a `tier: small` or `mode: PLANNING`
 * branch. The default context is the one a new process of the recipe renders with (the recipe
 * resolution's seed 004 §5.1 context); each kind then sees what its place in a turn gives it
 * (prompt-composition.ts, skills-section.ts, render-context.ts for `action:`). A template that fails
 * is an answer, not a request error: the author is looking for exactly that.
 */
import type { Principal } from '../identity/principal';
import { InvalidInputError } from '../errors';
import { actionRenderContext } from '../processes/render-context';
import type { PromptRenderContext } from '../recipes/prompt-composition';
import { TemplateRenderError } from '../templates/errors';
import type { TemplateEngine } from '../templates/template-engine';

export const TEMPLATE_KINDS = ['PROMPT', 'SKILL_BODY', 'ACTION'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export interface TemplatePreviewRequest {
  readonly project: string;
  readonly source: string;
  /** Overrides of the default context's fields; `params` key by key. */
  readonly context?: Readonly<Record<string, unknown>> | null;
  readonly kind?: TemplateKind | null;
  /** The recipe whose new process's context is the default; `default` when absent. */
  readonly recipe?: string | null;
}

export interface TemplatePreview {
  readonly output: string | null;
  readonly error: { readonly code: string; readonly message: string; readonly line?: number; readonly column?: number } | null;
  readonly context: Readonly<Record<string, unknown>>;
}

/** The seed 004 §5.1 context of a new process of `recipe` in `project`, as `principal` may resolve it (NOT_FOUND otherwise). */
export type DefaultRenderContext = (principal: Principal, project: string, recipe: string | null) => Promise<PromptRenderContext>;

/** A skill without arguments given renders with the empty binding a consuming skill gets. */
const NO_ARGS = Object.freeze({ text: '', words: [] });

export class TemplatePreviewService {
  constructor(private readonly deps: { readonly templates: TemplateEngine; readonly defaultContext: DefaultRenderContext }) {}

  async render(principal: Principal, request: TemplatePreviewRequest): Promise<TemplatePreview> {
    const base = await this.deps.defaultContext(principal, request.project, request.recipe ?? null);
    const context = contextFor(request.kind ?? 'PROMPT', withOverrides(base, request.context ?? {}));
    try {
      return { output: await this.deps.templates.render(request.source, context), error: null, context };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const at = error.diagnostics[0];
      return {
        output: null, context,
        error: { code: error.reason, message: error.message, ...(at?.line ? { line: at.line } : {}), ...(at?.column ? { column: at.column } : {}) },
      };
    }
  }
}

function withOverrides(base: PromptRenderContext, overrides: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const params = overrides.params;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    throw new InvalidInputError('INVALID_JSON_OBJECT', "'context.params' must be a JSON object", 'context.params');
  }
  return { ...base, profileAppend: '', ...overrides, params: { ...base.params, ...(params as Record<string, unknown> | undefined) } };
}

function contextFor(kind: TemplateKind, context: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case 'PROMPT':
      return context;
    case 'SKILL_BODY':
      return { args: NO_ARGS, ...context };
    case 'ACTION':
      return actionRenderContext(context as unknown as PromptRenderContext, context.args ?? NO_ARGS);
    default: {
      const never: never = kind;
      return never;
    }
  }
}
