/**
 * The port for untrusted templates (recipe `promptPrefix`, profile `promptPrefixAppend`, skill
 * bodies, `action:`): nunjucks semantics plus the Pebble constructs of DESIGN §10. The adapter owns
 * the security boundary of DESIGN §6 (no calls, no prototype access, time and output caps).
 * Variables are data passed in `context`, never template source.
 */
export interface TemplateProblem {
  readonly message: string;
  /** 1-based, relative to the template source. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * One render context for several renders (a turn's: the profile append, the recipe prefix, the
 * engine default, skill bodies): the adapter copies it into template data once, when it is made, so
 * later renders neither copy it again nor see later changes to the object passed in.
 */
export interface TemplateContext {
  /** Renders with this context plus `extra` top-level values, which replace the context's own. */
  render(source: string, extra?: Readonly<Record<string, unknown>>): Promise<string>;
}

export interface TemplateEngine {
  /** Syntax check only (seed 004 §5.4); [] when the template compiles. */
  check(source: string): TemplateProblem[];
  /** Renders with the given data; throws TemplateRenderError (a DomainError, BAD_INPUT) on failure. */
  render(source: string, context: Readonly<Record<string, unknown>>): Promise<string>;
  /**
   * A context for several renders (see TemplateContext). Optional: an engine without it (a test
   * fake) renders each time with the merged values (template-context.ts).
   */
  context?(context: Readonly<Record<string, unknown>>): TemplateContext;
  /** Top-level variable names the template reads (e.g. to know whether it uses `profileAppend`). */
  referencedVariables(source: string): ReadonlySet<string>;
}
