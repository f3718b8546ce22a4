/**
 * Renders templates inside one warm V8 isolate (isolated-vm): the nunjucks browser bundle plus the
 * very same hardening the in-process renderer uses (templates/render-core-parts.ts, injected with
 * Function.prototype.toString), with compiled templates cached inside the isolate.
 *
 * What the isolate adds over the in-process hooks: nothing of the host is reachable even if a
 * hook has a gap (no `process`, no `require`); a HARD time limit that also stops what the
 * cooperative budget cannot see (one catastrophic regex, a comparison of two huge strings); and a
 * heap limit, so an allocation bomb disposes the isolate instead of growing the service's heap.
 * After a timeout or a disposal the isolate is thrown away and the next render boots a new one; so
 * is an isolate whose heap stays above `recycleHeapMb` after a render (V8 keeps a heap it grew).
 *
 * The context crosses as JSON text (it is plain data already, templates/template-data.ts), and only
 * when it differs from the text the isolate parsed last: the isolate keeps that one context, parsed
 * and deep-frozen, so the renders of one turn with the same context copy and parse it once. Reuse
 * needs the exact same text, so no render ever sees data it was not given, and the freeze keeps one
 * render from changing what the next one reads. A rendered text comes back as itself behind a
 * one-letter tag ('o'), only a failure as JSON ('f'). Texts of 512 characters or more cross inside
 * a one-element array copied by value: isolated-vm hands a bare string of 1 KB or more to the other
 * side as an EXTERNAL string, whose registration and GC accounting cost 10–40 µs per call (measured),
 * while a copied array makes ordinary heap strings.
 * A source crosses only when the isolate has not compiled it yet.
 * `applySync` blocks the event loop for at most `hardTimeoutMs` (or `compileTimeoutMs` on a miss).
 */
import { readFileSync } from 'node:fs';
import { isolatedVm, type ivm } from './isolated-vm';
import type { TemplateLimits } from '../templates/limits';
import { PreparedContext } from '../templates/prepared-context';
import { createRenderCore, type RenderCoreConfig, type RenderOutcome } from '../templates/render-core';
import { RENDER_CORE_PARTS } from '../templates/render-core-parts';
import type { TemplateRenderer } from '../templates/renderer';

type IsolateLimits = Pick<TemplateLimits, 'hardTimeoutMs' | 'compileTimeoutMs' | 'memoryLimitMb'> & Partial<Pick<TemplateLimits, 'recycleHeapMb'>>;

interface Running {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
  /**
   * (id, [json], extra json) → reply: 'o' + output, 'f' + failure JSON, or '' when `id` is not
   * compiled in the isolate; a reply of 512 characters or more comes as [reply]. Without [json] the
   * render uses the context the isolate parsed last; the extra JSON (as [text] from 512 characters)
   * adds this render's own values.
   */
  readonly render: ivm.Reference<(id: string, json?: [string], extra?: string | [string]) => string | [string]>;
  /** (id, source) → failure JSON, or '' when it compiled. */
  readonly compile: ivm.Reference<(id: string, source: string) => string>;
}

/** Context texts up to this length are remembered for reuse; a longer one is sent every render. */
const KEPT_CONTEXT_CHARS = 256_000;

/**
 * The heap is looked at after a render that took longer than this (a heap grows by allocating, which
 * takes time: 10 MB take milliseconds), after one that brought a context, and every HEAP_CHECK_EVERY renders.
 */
const HEAP_CHECK_AFTER_MS = 1;
const HEAP_CHECK_EVERY = 32;

let bundle: { readonly source: string; cachedData?: ivm.ExternalCopy<ArrayBuffer> } | undefined;

/**
 * The UNMINIFIED nunjucks browser bundle (the minified one renames `_`-prefixed compiler methods
 * such as `_emit`, which compile-guards.ts uses), read once; V8's code cache of it is kept after
 * the first boot, so later boots skip most of the parsing.
 */
function nunjucksBundle(): NonNullable<typeof bundle> {
  bundle ??= { source: readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8') };
  return bundle;
}

/** The script that builds a RenderCore inside the isolate from the serialised parts. */
export function bootstrapSource(config: RenderCoreConfig): string {
  const parts = Object.entries(RENDER_CORE_PARTS).map(([name, fn]) => `${name}: (${String(fn)})`).join(',\n');
  return `(function () {
  'use strict';
  // esbuild/tsx emit __name(fn, "name") calls (keepNames); the isolate has no such helper.
  var __name = function (target) { return target; };
  var parts = {\n${parts}\n};
  var core = (${String(createRenderCore)})(globalThis.nunjucks, parts, ${JSON.stringify(config)});
  var freeze = function (value) {
    if (typeof value === 'object' && value !== null) {
      Object.freeze(value);
      for (var key in value) freeze(value[key]);
    }
    return value;
  };
  // The context of the last render, parsed and frozen; the host sends a new one when it differs.
  var data = freeze({});
  var own = Object.prototype.hasOwnProperty;
  // The kept context with a render's extra values, by the extra's text (all frozen), for the kept
  // context only: a turn renders with a few extras (no profile append, then the append), turn after
  // turn, so each is merged once. Dropped with the context; at most MERGED_KEPT, oldest out first.
  var merged = new Map();
  var MERGED_KEPT = 4;
  var MERGED_KEPT_CHARS = 16384;
  var mergedWith = function (text) {
    var view = merged.get(text);
    if (view !== undefined) return view;
    // This render's own values over the kept context: a new object, frozen too; the kept one is untouched.
    var more = freeze(JSON.parse(text));
    view = {};
    for (var key in data) if (own.call(data, key) && key !== '__proto__') view[key] = data[key];
    for (key in more) if (own.call(more, key) && key !== '__proto__') view[key] = more[key];
    Object.freeze(view);
    if (text.length > MERGED_KEPT_CHARS) return view; // a large extra (a skill's args) is not kept
    if (merged.size >= MERGED_KEPT) merged.delete(merged.keys().next().value);
    merged.set(text, view);
    return view;
  };
  globalThis.__vanceRender = function (id, json, extra) {
    if (json !== undefined) {
      data = freeze(JSON.parse(json[0]));
      merged.clear();
    }
    if (!core.has(id)) return '';
    var text = typeof extra === 'string' ? extra : extra === undefined ? null : extra[0];
    var outcome = core.renderCompiled(id, text === null ? data : mergedWith(text));
    var reply = outcome.ok ? 'o' + outcome.output : 'f' + JSON.stringify(outcome);
    return reply.length < 512 ? reply : [reply];
  };
  globalThis.__vanceCompile = function (id, source) {
    var failure = core.compile(id, source);
    return failure ? JSON.stringify(failure) : '';
  };
})();`;
}

export class IsolatedTemplateRenderer implements TemplateRenderer {
  private running: Running | null = null;
  /** The context the running isolate holds parsed (null: none, or not known for sure), and its text. */
  private held: PreparedContext | null = null;
  private heldJson: string | null = null;
  private sent = 0;
  private recycles = 0;
  /** Renders since the isolate's heap was last looked at. */
  private unchecked = 0;
  private readonly copyArguments: ivm.RunOptions;
  private readonly idOnly: ivm.RunOptions;

  constructor(
    private readonly config: RenderCoreConfig,
    private readonly limits: IsolateLimits,
  ) {
    this.copyArguments = { timeout: limits.hardTimeoutMs, arguments: { copy: true }, result: { copy: true } };
    this.idOnly = { timeout: limits.hardTimeoutMs, result: { copy: true } };
  }

  /** Boots the isolate now (about 6–9 ms) instead of on the first render. */
  warmUp(): void {
    this.boot();
  }

  /** Contexts copied into an isolate (a render with the context the isolate holds copies none) — for tests. */
  get contextsSent(): number {
    return this.sent;
  }

  /** Isolates replaced because their heap grew over `recycleHeapMb` — for tests and metrics. */
  get recycled(): number {
    return this.recycles;
  }

  render(id: string, source: string, data: Record<string, unknown>): RenderOutcome {
    return this.renderPrepared(id, source, new PreparedContext(data), null);
  }

  /**
   * Renders from the isolate's compile cache; on a miss the source is compiled first, in a call of
   * its own with `compileTimeoutMs`, so a large template's first compile in a cold isolate is not
   * cut short by the render limit.
   */
  renderPrepared(id: string, source: string, context: PreparedContext, extra: Record<string, unknown> | null): RenderOutcome {
    const started = performance.now();
    const sentBefore = this.sent;
    const outcome = this.renderIn(this.boot(), id, source, context, extra === null ? null : JSON.stringify(extra));
    this.recycleIfGrown(this.sent !== sentBefore || performance.now() - started > HEAP_CHECK_AFTER_MS);
    return outcome;
  }

  private renderIn(running: Running, id: string, source: string, context: PreparedContext, extra: string | null): RenderOutcome {
    const first = this.renderCall(running, id, context, extra);
    if (typeof first !== 'string') return first;
    if (first !== '') return outcomeOf(first);
    const compiled = this.call(running, 'compile', () => running.compile.applySync(undefined, [id, source], { timeout: this.limits.compileTimeoutMs }));
    if (typeof compiled !== 'string') return compiled;
    if (compiled !== '') return JSON.parse(compiled) as RenderOutcome;
    const second = this.renderCall(running, id, context, extra);
    if (typeof second !== 'string') return second;
    return second === '' ? { ok: false, reason: 'RUNTIME', message: 'the template sandbox lost a compiled template' } : outcomeOf(second);
  }

  /**
   * One render call. The context's text crosses only when the isolate does not hold it already: the
   * same PreparedContext (immutable) as last time, known without serialising it, or equal text.
   */
  private renderCall(running: Running, id: string, context: PreparedContext, extra: string | null): string | RenderOutcome {
    const json = context === this.held ? null : context.json();
    const send = json !== null && json !== this.heldJson;
    const args: unknown[] = [id];
    if (send || extra !== null) args.push(send ? [json] : undefined);
    const longExtra = extra !== null && extra.length >= 512;
    if (extra !== null) args.push(longExtra ? [extra] : extra);
    if (send) this.sent++;
    const held = this.held;
    this.held = null; // unknown until the isolate has taken the new text
    // Arrays are copied by value (see the module header); a bare id needs no copy options.
    const options = send || longExtra ? this.copyArguments : this.idOnly;
    const reply = this.call(running, 'render', () => {
      const r = running.render.applySync(undefined, args, options);
      return typeof r === 'string' ? r : r[0];
    });
    if (typeof reply !== 'string') return reply;
    if (json === null) this.held = held;
    // A large context is not kept on the host (its text would stay alive between turns).
    else if (json.length <= KEPT_CONTEXT_CHARS) {
      this.held = context;
      this.heldJson = json;
    } else this.heldJson = null;
    return reply;
  }

  dispose(): void {
    const running = this.running;
    this.running = null;
    this.held = null;
    this.heldJson = null;
    this.unchecked = 0;
    if (!running) return;
    if (!running.isolate.isDisposed) {
      running.render.release();
      running.compile.release();
      running.isolate.dispose();
    }
  }

  /**
   * Disposes a live isolate whose heap is over the threshold. Asking costs 2–3 µs, so it is asked
   * after a render that brought a context or took long (what grows a heap), else every
   * HEAP_CHECK_EVERY renders.
   */
  private recycleIfGrown(likely: boolean): void {
    const running = this.running;
    const thresholdMb = this.limits.recycleHeapMb;
    if (!running || running.isolate.isDisposed || thresholdMb === undefined) return;
    if (!likely && ++this.unchecked < HEAP_CHECK_EVERY) return;
    this.unchecked = 0;
    if (running.isolate.getHeapStatisticsSync().total_heap_size <= thresholdMb * 1024 * 1024) return;
    this.recycles++;
    this.dispose();
  }

  /** Runs one call into the isolate; a stopped or failed isolate is discarded, never reused. */
  private call(running: Running, phase: 'render' | 'compile', fn: () => string): string | RenderOutcome {
    try {
      return fn();
    } catch (error) {
      const disposed = running.isolate.isDisposed;
      this.dispose();
      const message = error instanceof Error ? error.message : String(error);
      if (/timed out/i.test(message)) {
        return phase === 'render'
          ? { ok: false, reason: 'TIMEOUT', message: `the template ran longer than ${this.limits.hardTimeoutMs} ms` }
          : { ok: false, reason: 'TIMEOUT', message: `the template took longer than ${this.limits.compileTimeoutMs} ms to compile` };
      }
      if (disposed || /memory limit|disposed/i.test(message)) {
        return { ok: false, reason: 'OUTPUT_LIMIT', message: `the template needed more than ${this.limits.memoryLimitMb} MB` };
      }
      return { ok: false, reason: 'RUNTIME', message: `the template sandbox failed: ${message}` };
    }
  }

  private boot(): Running {
    if (this.running && !this.running.isolate.isDisposed) return this.running;
    const isolate = new (isolatedVm().Isolate)({ memoryLimit: this.limits.memoryLimitMb });
    try {
      const context = isolate.createContextSync();
      const nunjucks = nunjucksBundle();
      const script: ivm.Script & ivm.CachedDataResult = isolate.compileScriptSync(nunjucks.source, nunjucks.cachedData
        ? { cachedData: nunjucks.cachedData }
        : { produceCachedData: true });
      if (!nunjucks.cachedData && script.cachedData) nunjucks.cachedData = script.cachedData;
      script.runSync(context);
      script.release();
      context.evalSync(bootstrapSource(this.config));
      const render = context.global.getSync('__vanceRender', { reference: true }) as Running['render'];
      const compile = context.global.getSync('__vanceCompile', { reference: true }) as Running['compile'];
      this.running = { isolate, context, render, compile };
      return this.running;
    } catch (error) {
      isolate.dispose();
      throw error;
    }
  }
}

/** The isolate's reply to a render: 'o' + output, or 'f' + the failure as JSON. */
function outcomeOf(reply: string): RenderOutcome {
  return reply[0] === 'o' ? { ok: true, output: reply.slice(1) } : JSON.parse(reply.slice(1)) as RenderOutcome;
}
