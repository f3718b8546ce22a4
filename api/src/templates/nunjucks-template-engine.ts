/**
 * The TemplateEngine adapter (port: domain/templates/template-engine.ts): nunjucks with the Pebble
 * additions of DESIGN §10, behind the security boundary of DESIGN §6.
 *
 * - check(): compiles in-process WITHOUT running anything (nunjucks' compiler only emits code);
 *   problems carry 1-based positions relative to the source. Cached by source hash.
 * - render(): copies the context into plain data (template-data.ts), then renders in the sandbox —
 *   by default inside a warm isolate (sandbox/isolated-template-renderer.ts) with the same
 *   in-process hardening injected as defence in depth; `sandbox: 'in-process'` renders with the
 *   hardened Node copy only. The measured trade-off is in docs/templates.md.
 * - referencedVariables(): free variables of the parsed template. Cached by source hash.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { TemplateRenderError } from '../domain/templates/errors';
import type { TemplateContext, TemplateEngine, TemplateProblem } from '../domain/templates/template-engine';
import { IsolatedTemplateRenderer } from '../sandbox/isolated-template-renderer';
import { InProcessTemplateRenderer, NODE_NUNJUCKS } from './in-process-renderer';
import { DEFAULT_TEMPLATE_LIMITS, renderLimitsOf, type TemplateLimits } from './limits';
import { freeVariables } from './referenced-variables';
import { DEFAULT_COMPILE_CACHE_CHARS, type RenderCoreConfig, type RenderOutcome } from './render-core';
import { PreparedContext } from './prepared-context';
import { isSameTemplateData } from './same-template-data';
import type { TemplateRenderer } from './renderer';
import { copyTemplateData } from './template-data';
import { endOf, innermostOpenConstruct } from './unclosed-tags';

export type TemplateSandbox = 'isolate' | 'in-process';

export interface NunjucksTemplateEngineOptions {
  /** Where templates render; default 'isolate' (docs/templates.md). */
  readonly sandbox?: TemplateSandbox;
  /** Overrides of DEFAULT_TEMPLATE_LIMITS. */
  readonly limits?: Partial<TemplateLimits>;
  /** Named templates that `include` / `import` / `extends` may reach; no other name loads. */
  readonly templates?: Readonly<Record<string, string>>;
  /** Compiled templates kept (LRU by source hash), and check/variable results; default 500. */
  readonly cacheSize?: number;
  /**
   * Template source characters the compile cache keeps (in the isolate or in-process), and the
   * characters of sources whose hash is remembered; default DEFAULT_COMPILE_CACHE_CHARS (4 M) each.
   */
  readonly cacheChars?: number;
}

/** Characters plus values of a context kept for reuse, at most. */
const KEPT_CONTEXT_SIZE = 64_000;
/**
 * Contexts kept for reuse: a turn makes two (the system prompt's, and the skills section's, which
 * adds `profileAppend`), and the next turn of the process makes the same two again.
 */
const KEPT_CONTEXTS = 2;

/** Globals the environment defines (environment.ts); calling them is not reading a variable. */
const ENGINE_GLOBALS: ReadonlySet<string> = new Set(['range']);

export class NunjucksTemplateEngine implements TemplateEngine {
  readonly limits: TemplateLimits;
  readonly sandbox: TemplateSandbox;
  private readonly checker: InProcessTemplateRenderer;
  private readonly renderer: TemplateRenderer;
  private readonly checks: LRUCache<string, readonly TemplateProblem[]>;
  private readonly variables: LRUCache<string, ReadonlySet<string>>;
  /** The last contexts context() made, newest first, for the next ones to reuse when equal. */
  private readonly recentContexts: PreparedContext[] = [];
  private copies = 0;
  /** Source → its hash, so a body rendered every turn is not re-hashed every turn; by characters. */
  private readonly hashes: LRUCache<string, string>;

  constructor(options: NunjucksTemplateEngineOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_TEMPLATE_LIMITS, ...options.limits });
    this.sandbox = options.sandbox ?? 'isolate';
    const cacheSize = options.cacheSize ?? 500;
    const cacheChars = options.cacheChars ?? DEFAULT_COMPILE_CACHE_CHARS;
    const config: RenderCoreConfig = { limits: renderLimitsOf(this.limits), templates: { ...options.templates }, cacheSize, cacheChars };
    this.checker = new InProcessTemplateRenderer(config);
    this.renderer = this.sandbox === 'in-process' ? this.checker : new IsolatedTemplateRenderer(config, this.limits);
    // Keyed by source hash and holding small results (problems, names), so counted by entries.
    this.checks = new LRUCache({ max: cacheSize });
    this.variables = new LRUCache({ max: cacheSize });
    this.hashes = new LRUCache({ maxSize: cacheChars, sizeCalculation: (hash, source) => source.length + hash.length });
  }

  check(source: string): TemplateProblem[] {
    if (source.length > this.limits.maxSourceLength) return [{ message: this.tooLong(), line: 1, column: 1 }];
    const key = this.hashOf(source);
    let problems = this.checks.get(key);
    if (!problems) {
      const failure = this.checker.check(source);
      problems = failure ? [this.locate(failure, source)] : [];
      this.checks.set(key, problems);
    }
    return problems.map((p) => ({ ...p }));
  }

  async render(source: string, context: Readonly<Record<string, unknown>>): Promise<string> {
    if (source.length > this.limits.maxSourceLength) throw new TemplateRenderError('RUNTIME', this.tooLong(), { line: 1, column: 1 });
    return this.finish(this.renderer.render(this.hashOf(source), source, copyTemplateData(context, this.limits).data), source);
  }

  /**
   * The context copied into template data now, once for all its renders; a context the copy
   * refuses (too large, circular) fails each render with that error, as render() would. A context
   * equal to one of the last ones made (same-template-data.ts) gets that one's copy (and its JSON
   * text, which the isolate may still hold): a process's turns render with the same contexts turn
   * after turn.
   */
  context(context: Readonly<Record<string, unknown>>): TemplateContext {
    let prepared: PreparedContext | TemplateRenderError;
    try {
      const recent = this.recentContexts;
      const hit = recent.find((kept) => isSameTemplateData(context, kept.data));
      if (hit) prepared = hit;
      else {
        const { data, nodes, chars } = copyTemplateData(context, this.limits);
        prepared = new PreparedContext(data, { nodes, chars });
        this.copies++;
        // A large one is not kept (it would stay alive between turns), as in the isolate renderer.
        if (chars + nodes <= KEPT_CONTEXT_SIZE) {
          recent.unshift(prepared);
          if (recent.length > KEPT_CONTEXTS) recent.pop();
        }
      }
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      prepared = error;
    }
    return { render: (source, extra) => this.renderWith(source, prepared, extra) };
  }

  private async renderWith(source: string, prepared: PreparedContext | TemplateRenderError, extra?: Readonly<Record<string, unknown>>): Promise<string> {
    if (prepared instanceof TemplateRenderError) throw prepared;
    if (source.length > this.limits.maxSourceLength) throw new TemplateRenderError('RUNTIME', this.tooLong(), { line: 1, column: 1 });
    const more = extra ? copyTemplateData(extra, this.limits, prepared.used).data : null;
    return this.finish(this.renderer.renderPrepared(this.hashOf(source), source, prepared, more), source);
  }

  private finish(outcome: RenderOutcome, source: string): string {
    if (outcome.ok) return outcome.output;
    const { message, line, column } = outcome.reason === 'SYNTAX' ? this.locate(outcome, source) : outcome;
    throw new TemplateRenderError(outcome.reason, message, { ...(line ? { line } : {}), ...(column ? { column } : {}) });
  }

  referencedVariables(source: string): ReadonlySet<string> {
    const key = this.hashOf(source);
    let names = this.variables.get(key);
    if (!names) {
      try {
        names = freeVariables(NODE_NUNJUCKS.parser.parse(source, [], {}), ENGINE_GLOBALS);
      } catch {
        names = new Set(); // unparseable: check() reports it; nothing is referenced
      }
      this.variables.set(key, names);
    }
    return names;
  }

  /** Starts the isolate now instead of on the first render. */
  warmUp(): void {
    if (this.renderer instanceof IsolatedTemplateRenderer) this.renderer.warmUp();
  }

  /** Frees the isolate (a later render starts a new one). */
  dispose(): void {
    this.renderer.dispose();
  }

  /** Points "end of file" and mismatched-end errors at the construct left open (seed 004 §5.4). */
  private locate(failure: Extract<RenderOutcome, { ok: false }>, source: string): TemplateProblem {
    const mismatchedEnd = /^unknown block tag: end/.test(failure.message);
    if (failure.line !== undefined && !mismatchedEnd) return { message: failure.message, line: failure.line, column: failure.column ?? 1 };
    const open = innermostOpenConstruct(NODE_NUNJUCKS, source);
    if (open) return { message: `${open.what} is not closed (${failure.message})`, line: open.line, column: open.column };
    if (failure.line !== undefined) return { message: failure.message, line: failure.line, column: failure.column ?? 1 };
    return { message: failure.message, ...endOf(source) };
  }

  /** Contexts context() copied (not reused) — for tests. */
  get contextCopies(): number {
    return this.copies;
  }

  /** Templates remembered in each of the engine's caches — for tests of their bounds. */
  cacheUse(): { readonly hashedChars: number; readonly checks: number; readonly variables: number } {
    return { hashedChars: this.hashes.calculatedSize, checks: this.checks.size, variables: this.variables.size };
  }

  private hashOf(source: string): string {
    let hash = this.hashes.get(source);
    if (hash === undefined) {
      hash = createHash('sha256').update(source).digest('base64url');
      this.hashes.set(source, hash);
    }
    return hash;
  }

  private tooLong(): string {
    return `the template is longer than ${this.limits.maxSourceLength} characters`;
  }
}
