/**
 * The ScriptRunner adapter (seed 000 §13, DESIGN §6): untrusted skill scripts and guards run in
 * isolated-vm on a pool of warm isolates (script-pool.ts), each run in its isolate's warm context
 * when the realm guard proves the previous run left it clean (script-realm-guard.ts), otherwise in
 * a fresh one (`reuseContexts: false`: always a fresh one), with only the
 * `vance.*` bindings of the request (script-bindings.ts) and `args`. The guest-side driver is
 * script-bootstrap.ts; script-outcome.ts turns replies and rejections into values or ScriptErrors.
 *
 * The user's code is run by the driver through an indirect eval in the context, so EXPRESSION
 * gets eval's completion value, a top-level `return` is a guest SyntaxError, and the driver's own
 * try/catch sees every exception (the message is read in the guest, never from a guest object on
 * the host). The whole run is ONE async call (`apply`): applySyncPromise in a host function needs the
 * guest to have been entered asynchronously, or the host event loop would be blocked and deadlock.
 *
 * Time: isolated-vm's `timeout` does not count the time the guest spends blocked in
 * applySyncPromise (measured: a 500 ms host call under a 200 ms timeout completes), so a host-side
 * wall-clock timer disposes the isolate when the port's limit (wall clock) is reached.
 */
import { getRandomValues } from 'node:crypto';
import { isolatedVm } from './isolated-vm';
import { ScriptError, type ScriptRunner, type ScriptRunRequest, type ScriptRunResult } from '../domain/scripting/script-runner';
import type { GuestSetup } from './script-bootstrap';
import { HostCalls, splitBindings } from './script-bindings';
import { hostErrorMessage, jsonDepthExceeds, MAX_MESSAGE_CHARS } from './script-json';
import { decodeReply, rejection, syntaxLine, type OutcomeContext } from './script-outcome';
import { IsolatePool, releaseRealm, type SandboxIsolate, type SandboxRealm } from './script-pool';

export interface ScriptSandboxOptions {
  /** Warm isolates kept between runs. */
  readonly poolSize?: number;
  readonly memoryLimitMb?: number;
  /** A warm isolate whose heap is over this many MB after a run is disposed, not kept (default 16). */
  readonly recycleHeapMb?: number;
  /** Warm isolates are disposed when no run has ended for this long (ms; default 2,000). */
  readonly idleReleaseMs?: number;
  readonly defaultTimeoutMs?: number;
  /** JSON length of a result. */
  readonly maxResultChars?: number;
  /** Nesting of arrays/objects in args, results and host-call arguments/results. */
  readonly maxDepth?: number;
  /** JSON length of the arguments (and of the result) of one host-function call, and of `args`. */
  readonly maxHostArgChars?: number;
  /** `vance.*` calls one run may make (script-bindings.ts). */
  readonly maxHostCalls?: number;
  /**
   * Run in the isolate's previous context when its realm guard finds it clean (default true): a
   * fresh context costs ~0.5–0.9 ms; false creates one per run.
   */
  readonly reuseContexts?: boolean;
}

type Limits = Required<ScriptSandboxOptions>;

const DEFAULTS: Limits = {
  poolSize: 2,
  memoryLimitMb: 32,
  // 8, not 16: a fresh isolate is ~2 MB; one kept at 10–16 MB after a large result stayed so for the
  // server's life (issue 18, memory). Only runs that grew the heap pay for a new isolate.
  recycleHeapMb: 8,
  // Long enough that a turn's or a busy tenant's runs stay warm, short enough that a quiet server
  // holds no isolates (script-pool.ts).
  idleReleaseMs: 2_000,
  defaultTimeoutMs: 1000,
  maxResultChars: 1_000_000,
  maxDepth: 64,
  maxHostArgChars: 1_000_000,
  maxHostCalls: 10_000,
  reuseContexts: true,
};

export class ScriptSandbox implements ScriptRunner {
  private readonly limits: Limits;
  private readonly pool: IsolatePool;
  private contexts = 0;

  constructor(options: ScriptSandboxOptions = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.limits = Object.freeze({ ...DEFAULTS, ...given });
    this.pool = new IsolatePool(this.limits.poolSize, this.limits.memoryLimitMb, this.limits.recycleHeapMb, this.limits.idleReleaseMs);
  }

  /** Isolates kept warm right now (≤ poolSize); for tests and metrics. */
  get warmIsolates(): number {
    return this.pool.warmCount;
  }

  /** Contexts created so far (a run in a reused context creates none); for tests and metrics. */
  get contextsCreated(): number {
    return this.contexts;
  }

  /** Warm isolates disposed because their heap had grown over `recycleHeapMb`; for tests and metrics. */
  get recycledIsolates(): number {
    return this.pool.recycled;
  }

  async run(request: ScriptRunRequest): Promise<ScriptRunResult> {
    const started = performance.now();
    const timeoutMs = request.timeoutMs ?? this.limits.defaultTimeoutMs;
    const sourceUrl = request.filename.replace(/[^\w./@+-]/g, '_') || 'script.js';
    if (this.pool.isDisposed) throw new ScriptError('HOST', `${request.filename}: the script sandbox is disposed`);
    const split = hostStep(request.filename, 'the bindings are not plain JSON and functions', () => splitBindings(request.bindings));
    const calls = new HostCalls(split, this.limits);
    const setupJson = hostStep(request.filename, 'args or bindings are not JSON', () => this.setup(request, split));
    // The suffix line keeps the guest's line numbers; a trailing `//` comment in the source ends at it.
    const code = request.mode === 'FUNCTION_BODY'
      ? `(function () {${request.source}\n})\n//# sourceURL=${sourceUrl}`
      : `${request.source}\n//# sourceURL=${sourceUrl}`;
    const ctx = (): OutcomeContext => ({
      filename: request.filename, sourceUrl, timeoutMs, cpuTimeoutMs: Math.min(request.cpuTimeoutMs ?? timeoutMs, timeoutMs), memoryLimitMb: this.limits.memoryLimitMb,
      maxResultChars: this.limits.maxResultChars, maxDepth: this.limits.maxDepth, maxHostCalls: this.limits.maxHostCalls, lastHostFailure: calls.lastFailure,
    });
    const entry = await this.acquire(request.filename);
    let reusable = false;
    try {
      const reply = await this.execute(entry, calls, setupJson, code, timeoutMs, request.cpuTimeoutMs ?? timeoutMs, ctx);
      reusable = true;
      const value = decodeReply(reply, ctx());
      if (value instanceof ScriptError) throw await this.withSyntaxLine(value, entry, code, sourceUrl);
      return { value, durationMs: performance.now() - started };
    } finally {
      if (this.pool.release(entry, reusable) && entry.realm) this.settle(entry, entry.realm);
    }
  }

  dispose(): void {
    this.pool.dispose();
  }

  /** An isolate whose context check (if one is under way) is done; never one disposed meanwhile. */
  private async acquire(filename: string): Promise<SandboxIsolate> {
    for (;;) {
      const entry = hostStep(filename, 'no isolate could be created', () => this.pool.acquire());
      if (entry.settling) await entry.settling;
      if (!entry.isolate.isDisposed) return entry;
      this.pool.release(entry, false);
    }
  }

  /**
   * Has the realm guard check a kept context right after its run, in a call of its own (no user code
   * runs in it), so that the next run finds the check done instead of paying its ~0.3–0.5 ms. A
   * context found changed is dropped, and the next run gets a plain fresh one, as it would have.
   */
  private settle(entry: SandboxIsolate, realm: SandboxRealm): void {
    entry.settling = realm.start.apply(undefined, [null, '', '', true], { timeout: this.limits.defaultTimeoutMs })
      .then((reply) => reply === 'p', () => false)
      .then((clean) => {
        entry.settling = null;
        if (clean || entry.realm !== realm) return;
        releaseRealm(entry);
        entry.dirty = true;
      });
  }

  private setup(request: ScriptRunRequest, split: ReturnType<typeof splitBindings>): string {
    const argsJson = JSON.stringify(request.args ?? null);
    const { maxHostArgChars, maxDepth } = this.limits;
    if (argsJson.length > maxHostArgChars || jsonDepthExceeds(argsJson, maxDepth)) {
      throw new ScriptError('MEMORY', `${request.filename}: args exceed ${maxHostArgChars} characters of JSON or ${maxDepth} levels of nesting`);
    }
    const setup: GuestSetup = {
      args: request.args ?? null,
      values: split.values,
      functions: split.functions,
      functionBody: request.mode === 'FUNCTION_BODY',
      maxResultChars: this.limits.maxResultChars,
      maxHostArgChars,
      maxMessageChars: MAX_MESSAGE_CHARS,
      seed: Array.from(getRandomValues(new Uint32Array(4))),
    };
    return JSON.stringify(setup);
  }

  /**
   * One async call into the isolate's context under both time limits (a second one in a fresh
   * context when the realm guard answers 'r': the previous run changed it); rejects only with
   * ScriptError.
   */
  private async execute(entry: SandboxIsolate, calls: HostCalls, setupJson: string, code: string, timeoutMs: number, cpuTimeoutMs: number, ctx: () => OutcomeContext): Promise<string> {
    const { isolate } = entry;
    const host = new (isolatedVm().Reference)(calls.dispatch);
    // Only a pooled isolate's context is kept for the next run (and worth the guard's snapshot).
    // Prepared before the run's clocks start: a new context's snapshot is not the script's time.
    const reuse = this.limits.reuseContexts && !entry.dirty && this.pool.wouldKeep(entry);
    entry.dirty = false;
    try {
      entry.realm ??= await this.newRealm(entry, reuse);
    } catch (error) {
      host.release();
      throw rejection(error, { timedOut: false, computeSpent: false, hostCallsSpent: false, isolateDisposed: isolate.isDisposed, sandboxDisposed: this.pool.isDisposed }, ctx());
    }
    let timedOut = false;
    let computeSpent = false;
    const guard = setTimeout(() => {
      timedOut = true;
      if (!isolate.isDisposed) isolate.dispose();
    }, timeoutMs);
    const startedAt = performance.now();
    calls.meterWith({
      limitMs: Math.min(cpuTimeoutMs, timeoutMs),
      elapsedMs: () => performance.now() - startedAt,
      exceeded: () => {
        computeSpent = true;
        if (!isolate.isDisposed) isolate.dispose();
      },
    });
    let keep = reuse;
    try {
      const timeout = Math.min(cpuTimeoutMs, timeoutMs);
      let reply = await entry.realm!.start.apply(undefined, [host, setupJson, code, reuse], { timeout }) as string;
      if (reply === 'r') {
        // The previous run changed the context: this run gets a plain fresh one (~1 ms, no snapshot,
        // so one script that dirties every context costs the next run little); the next run on
        // this isolate prepares a watched one before its clocks start.
        keep = false;
        releaseRealm(entry);
        entry.realm = await this.newRealm(entry, false);
        reply = await entry.realm.start.apply(undefined, [host, setupJson, code, false], { timeout }) as string;
      }
      if (isolate.isDisposed) throw new Error('Isolate was disposed during execution');
      if (reply === 'r') throw new Error('a fresh context refused its first run');
      return reply;
    } catch (error) {
      throw rejection(error, { timedOut, computeSpent, hostCallsSpent: calls.overCalls, isolateDisposed: isolate.isDisposed, sandboxDisposed: this.pool.isDisposed }, ctx());
    } finally {
      clearTimeout(guard);
      host.release();
      if (!keep) releaseRealm(entry);
    }
  }

  /**
   * A new context with the bootstrap run in it (sync on purpose: no user code runs, and it is
   * cheaper than a thread hop); one to be reused also gets its guard's snapshot now, in a call of
   * its own, so that its 5–40 ms never count against a run's time limit.
   */
  private async newRealm(entry: SandboxIsolate, reuse: boolean): Promise<SandboxRealm> {
    const context = entry.isolate.createContextSync();
    let start: SandboxRealm['start'] | undefined;
    try {
      this.contexts++;
      start = entry.bootstrap.runSync(context, { reference: true }) as SandboxRealm['start'];
      if (reuse && await start.apply(undefined, [null, '', '', true]) !== 'p') throw new Error('a fresh context refused its snapshot');
      return { context, start };
    } catch (error) {
      if (!entry.isolate.isDisposed) {
        start?.release();
        context.release();
      }
      throw error;
    }
  }

  /**
   * An eval'd SyntaxError carries no location; compiling the same code once more (error path only)
   * gives isolated-vm's `[file:line:col]`.
   */
  private async withSyntaxLine(error: ScriptError, entry: SandboxIsolate, code: string, sourceUrl: string): Promise<ScriptError> {
    if (error.kind !== 'GUEST' || error.line !== null || !error.message.startsWith('SyntaxError')) return error;
    try {
      (await entry.isolate.compileScript(code, { filename: sourceUrl })).release();
      return error;
    } catch (compileError) {
      const line = compileError instanceof Error ? syntaxLine(compileError.message, sourceUrl) : null;
      if (line === null) return error;
      return new ScriptError('GUEST', error.message.replace(/ \(([^()]*)\)$/, ` ($1:${line})`), line);
    }
  }
}

/** A host-side step before the guest runs; its failure (a host bug, no memory) is a HOST ScriptError. */
function hostStep<T>(filename: string, what: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ScriptError) throw error;
    throw new ScriptError('HOST', `${filename}: ${what}: ${hostErrorMessage(error)}`);
  }
}
