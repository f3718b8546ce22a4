/**
 * The port to the script sandbox (seed 000 §13, seed 004 §6d, DESIGN §6): untrusted JavaScript —
 * skill scripts, recipe guards, inline guards — runs in an isolate with a time limit, a memory limit
 * and an output cap, and reaches the host only through the bindings given per call. The adapter is
 * `sandbox/script-sandbox.ts` (isolated-vm); the domain only sees this interface.
 */

/**
 * Why a script run failed (STYLE "Errors"): TIMEOUT (time limit), MEMORY (the isolate's memory limit,
 * or a result or argument over its size/depth cap — the message says which), GUEST (the script threw
 * or does not parse), HOST (a `vance.*` binding failed and the script did not catch it).
 */
export type ScriptErrorKind = 'TIMEOUT' | 'MEMORY' | 'GUEST' | 'HOST';

/** The one error class of the sandbox: a kind, a message for the model/log, and the guest line if known. */
export class ScriptError extends Error {
  override readonly name = 'ScriptError';
  constructor(
    readonly kind: ScriptErrorKind,
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

/** Plain JSON data: what crosses the boundary in both directions (copies, never references). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A host function a script can call synchronously as `vance.<path>(...args)`. The guest blocks until
 * the promise settles. Arguments arrive as JSON copies (size/depth capped); the resolved value goes
 * back as a JSON copy. A rejection (any error) becomes a guest exception the script may catch; if the
 * script does not catch it, the run fails with kind HOST.
 */
export type HostFunction = (...args: JsonValue[]) => Promise<JsonValue | undefined> | JsonValue | undefined;

const externalWaits = new WeakSet<HostFunction>();

/**
 * Marks a binding whose time is a wait for something outside the script — a tool call, a model
 * call — so it does not count toward `cpuTimeoutMs`. Every other binding's time does: a loop of
 * cheap host calls (`vance.log`) is compute the script asked for (issue 13: a `vance.log` loop ran
 * 29–50 s against a 5 s limit while only the guest's own running time was counted).
 */
export function externalWait<F extends HostFunction>(fn: F): F {
  externalWaits.add(fn);
  return fn;
}

export function isExternalWait(fn: HostFunction): boolean {
  return externalWaits.has(fn);
}

/**
 * The `vance` global of one run: nested plain objects of values (copied in, frozen) and host
 * functions, e.g. `{ params: {...}, guard: { task: 'x', continueWith: fn }, log: fn }`.
 */
export interface BindingTree {
  readonly [key: string]: JsonValue | HostFunction | BindingTree | undefined;
}

export interface ScriptRunRequest {
  readonly source: string;
  /** Shown in stack traces and errors, e.g. `skills/pr-review/scripts/fetch-diff.js`. */
  readonly filename: string;
  /**
   * EXPRESSION: a script whose result is the value of its last expression (skill scripts; a top-level
   * `return` is a SyntaxError). FUNCTION_BODY: the source is a function body, top-level `return`
   * allowed, the result is the returned value (guards, as in the seed's examples).
   */
  readonly mode: 'EXPRESSION' | 'FUNCTION_BODY';
  /** Becomes the global `args` (a frozen copy). */
  readonly args?: JsonValue;
  /** Becomes the global `vance`. */
  readonly bindings: BindingTree;
  /** Wall-clock limit of the run in ms (time spent waiting in host functions counts). */
  readonly timeoutMs?: number;
  /**
   * Limit on the script's compute time in ms: the run's wall-clock time outside `externalWait`
   * bindings (the guest's running time, other bindings' time, and each call's hop between threads);
   * default: `timeoutMs`. A guard waiting for its judge's model call needs a long wall clock but must not
   * spin for long, in its own code or in `vance.log`.
   */
  readonly cpuTimeoutMs?: number;
}

export interface ScriptRunResult {
  /** The result as a JSON copy; `undefined` (no value) becomes null. */
  readonly value: JsonValue;
  readonly durationMs: number;
}

export interface ScriptRunner {
  /** Runs one script in a fresh context; rejects only with ScriptError. */
  run(request: ScriptRunRequest): Promise<ScriptRunResult>;
  /** Disposes the isolates (server shutdown). */
  dispose(): void;
}
