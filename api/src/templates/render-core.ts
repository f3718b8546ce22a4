/**
 * Compiles and renders templates with one hardened nunjucks: the compile cache (bounded LRU keyed
 * by the caller's source hash), the per-render budget around a SYNCHRONOUS render, the final output
 * check, and the translation of every failure into a plain, JSON-safe RenderOutcome (reason,
 * message, 1-based position relative to the source where nunjucks knows it).
 *
 * The same function runs in-process (in-process-renderer.ts) and inside the isolate
 * (sandbox/isolated-template-renderer.ts); the parts are passed in, not imported, so that it can be
 * serialised. INJECTED: it must stay self-contained.
 */
import type { Budget } from './budget';
import type { CompileGuard, KnownNames } from './compile-guards';
import type { EnvironmentParts } from './environment';
import type { RenderLimits } from './limits';
import type { Fail, LimitReason, NjEnvironment, NjTemplate, NunjucksModule } from './nunjucks-internals';
import type { RenderGuard } from './runtime-hardening';

export type RenderOutcome =
  | { readonly ok: true; readonly output: string }
  | { readonly ok: false; readonly reason: LimitReason; readonly message: string; readonly line?: number; readonly column?: number };

export interface RenderCoreParts extends EnvironmentParts {
  readonly createBudget: (limits: RenderLimits, fail: Fail) => Budget;
  readonly hardenRuntime: (nj: NunjucksModule, createBudget: RenderCoreParts['createBudget'], defaults: RenderLimits) => RenderGuard;
  readonly installCompileGuards: (nj: NunjucksModule) => CompileGuard;
  readonly createEnvironment: (nj: NunjucksModule, guard: RenderGuard, templates: Readonly<Record<string, string>>, parts: EnvironmentParts) => NjEnvironment;
}

export interface RenderCoreConfig {
  readonly limits: RenderLimits;
  readonly templates: Readonly<Record<string, string>>;
  /** Compiled templates kept, at most. */
  readonly cacheSize: number;
  /**
   * Source characters of the compiled templates kept, at most (default DEFAULT_COMPILE_CACHE_CHARS):
   * a compiled template's code grows with its source, so 500 long templates could hold hundreds of MB.
   */
  readonly cacheChars?: number;
}

/** The default character budget of the compile cache (about 4 M characters of template source). */
export const DEFAULT_COMPILE_CACHE_CHARS = 4_000_000;

export interface RenderCore {
  /** Renders `source` (cached under `id`) with `data`, a plain JSON-like object. */
  render(id: string, source: string, data: Record<string, unknown>): RenderOutcome;
  /** Whether `id` is in the compile cache (the isolate asks before shipping a source). */
  has(id: string): boolean;
  /** Compiles `source` into the cache under `id`; the failure, or null. */
  compile(id: string, source: string): Extract<RenderOutcome, { ok: false }> | null;
  /** Renders a template compiled before under `id`. */
  renderCompiled(id: string, data: Record<string, unknown>): RenderOutcome;
  /** Compiles without running anything; null when the template compiles. */
  check(source: string): RenderOutcome | null;
  readonly cachedTemplates: () => number;
  /** Source characters of the templates in the compile cache (≤ the cache's character budget). */
  readonly cachedChars: () => number;
}

export function createRenderCore(nj: NunjucksModule, parts: RenderCoreParts, config: RenderCoreConfig): RenderCore {
  const guard = parts.hardenRuntime(nj, parts.createBudget, config.limits);
  const compileGuard = parts.installCompileGuards(nj);
  const env = parts.createEnvironment(nj, guard, config.templates, parts);
  const known: KnownNames = { filters: env.filters, tests: env.tests };
  // Hand-written LRU (insertion order = LRU order), not lru-cache: this function is serialised into
  // the isolate, where nothing can be imported.
  const cache = new Map<string, { template: NjTemplate; chars: number }>();
  // Not the imported constant: this function is serialised into the isolate (keep the two equal).
  const maxChars = config.cacheChars ?? 4_000_000;
  let cachedChars = 0;

  type Failure = Extract<RenderOutcome, { ok: false }>;
  interface ErrorLike { message?: unknown; lineno?: unknown; colno?: unknown; cause?: unknown; vanceReason?: LimitReason }

  const failure = (error: unknown, phase: 'compile' | 'render'): Failure => {
    const e = (error ?? {}) as ErrorLike;
    // nunjucks wraps an error once per template function it passes (TemplateError.cause); the
    // innermost one says what happened, the outermost carries the position.
    let root: ErrorLike = e;
    let origin: ErrorLike | null = e.vanceReason ? e : null;
    for (let i = 0; i < 20 && root.cause && typeof root.cause === 'object'; i++) {
      root = root.cause as ErrorLike;
      if (!origin && root.vanceReason) origin = root;
    }
    const rawMessage = String(root.message ?? error);
    let reason: LimitReason = phase === 'compile' ? 'SYNTAX' : 'RUNTIME';
    let message = rawMessage.replace(/^\([^)\n]*\)(?: \[Line \d+(?:, Column \d+)?\])?\n\s*/, '');
    if (origin?.vanceReason) {
      reason = origin.vanceReason;
      message = String(origin.message);
    } else if (/Invalid string length|Array buffer allocation failed|Invalid array length/.test(rawMessage)) {
      reason = 'OUTPUT_LIMIT';
      message = `the template output exceeds ${config.limits.maxOutput} characters`;
    } else if (/Maximum call stack size exceeded/.test(rawMessage)) {
      message = phase === 'compile' ? 'the template is nested too deeply' : 'the template recursed too deeply';
    }
    // Parser and compiler positions are 1-based already; render-time ones are 0-based.
    const shift = phase === 'compile' ? 0 : 1;
    const line = typeof e.lineno === 'number' ? e.lineno + shift : undefined;
    const column = typeof e.colno === 'number' ? e.colno + shift : undefined;
    return {
      ok: false, reason, message,
      ...(line !== undefined && line > 0 ? { line } : {}),
      ...(column !== undefined && column > 0 ? { column } : {}),
    };
  };

  const compile = (id: string, source: string): Failure | null => {
    const hit = cache.get(id);
    if (hit) {
      cache.delete(id);
      cache.set(id, hit);
      return null;
    }
    let template: NjTemplate;
    try {
      template = compileGuard.run(known, () => new nj.Template(source, env, undefined, true));
    } catch (error) {
      return failure(error, 'compile');
    }
    // A template over the whole budget is still kept (renderCompiled needs it) but evicts the rest.
    cache.set(id, { template, chars: source.length });
    cachedChars += source.length;
    while (cache.size > 1 && (cache.size > config.cacheSize || cachedChars > maxChars)) {
      const oldest = cache.keys().next().value as string;
      cachedChars -= cache.get(oldest)!.chars;
      cache.delete(oldest);
    }
    return null;
  };

  const renderCompiled = (id: string, data: Record<string, unknown>): RenderOutcome => {
    const template = cache.get(id)?.template;
    if (!template) return { ok: false, reason: 'RUNTIME', message: 'the template is not compiled' };
    try {
      const output = guard.run(config.limits, () => template.render(data));
      if (output.length > config.limits.maxOutput) {
        return { ok: false, reason: 'OUTPUT_LIMIT', message: `the template output exceeds ${config.limits.maxOutput} characters` };
      }
      return { ok: true, output };
    } catch (error) {
      return failure(error, 'render');
    }
  };

  return {
    render(id, source, data) {
      return compile(id, source) ?? renderCompiled(id, data);
    },
    has: (id) => cache.has(id),
    compile,
    renderCompiled,
    check(source) {
      try {
        compileGuard.run(known, () => nj.compiler.compile(source, [], [], 'template', env.opts));
        return null;
      } catch (error) {
        return failure(error, 'compile');
      }
    },
    cachedTemplates: () => cache.size,
    cachedChars: () => cachedChars,
  };
}
