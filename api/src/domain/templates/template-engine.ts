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

export interface TemplateEngine {
  /** Syntax check only (seed 004 §5.4); [] when the template compiles. */
  check(source: string): TemplateProblem[];
  /** Renders with the given data; throws TemplateRenderError (a DomainError, BAD_INPUT) on failure. */
  render(source: string, context: Readonly<Record<string, unknown>>): Promise<string>;
  /** Top-level variable names the template reads (e.g. to know whether it uses `profileAppend`). */
  referencedVariables(source: string): ReadonlySet<string>;
}
