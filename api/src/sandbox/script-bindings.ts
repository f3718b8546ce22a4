/**
 * The host side of `vance.*`: splits a BindingTree into the plain values copied into the guest and a
 * table of host functions, and answers the guest's calls (script-bootstrap.ts has the protocol).
 * Every argument and result crosses as JSON text, checked here for length and depth before the host
 * parses it; a host failure is recorded per run so an uncaught one is reported as HOST.
 */
import { isExternalWait, type BindingTree, type HostFunction, type JsonValue } from '../domain/scripting/script-runner';
import { capText, hostErrorMessage, jsonDepthExceeds } from './script-json';

export interface SplitBindings {
  /** The tree without functions; every object on a function's path exists (the guest walks it). */
  readonly values: Record<string, unknown>;
  readonly functions: readonly { readonly index: number; readonly path: readonly string[] }[];
  readonly table: readonly HostFunction[];
}

export function splitBindings(tree: BindingTree): SplitBindings {
  const functions: { index: number; path: string[] }[] = [];
  const table: HostFunction[] = [];
  const walk = (node: BindingTree, path: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      // defineProperty, not assignment: a binding named `__proto__` stays an own key.
      const set = (v: unknown) => Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      if (typeof value === 'function') {
        functions.push({ index: table.length, path: [...path, key] });
        table.push(value);
      } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        set(walk(value as BindingTree, [...path, key]));
      } else {
        set(value);
      }
    }
    return out;
  };
  return { values: walk(tree, []), functions, table };
}

export interface HostCallLimits {
  readonly maxHostArgChars: number;
  readonly maxDepth: number;
  /**
   * `vance.*` calls one run may make. Each leaves garbage on the host's heap, and a loop of 100,000
   * cheap ones (within 5 s of compute) made major GC pauses of 150 ms that every request waited
   * behind (issue 13); past the cap the run stops, like a spent compute budget.
   */
  readonly maxHostCalls: number;
}

/** The last host call of a run that did not return normally; an uncaught one decides the kind. */
export interface HostFailure {
  readonly kind: 'HOST' | 'OUTPUT';
  readonly label: string;
  readonly message: string;
}

/**
 * The compute budget of one run: its wall-clock time minus the time spent in external waits
 * (tool and model calls). So the guest's own running time counts, the time a binding takes on the
 * host counts, and so does each call's round trip between the isolate's thread and ours, which no
 * CPU clock sees: with the event loop busy serving others, a `vance.log` call waits its turn there,
 * and counting only the guest's and the binding's own time let a 5 s budget run 34 s.
 */
export interface ComputeMeter {
  readonly limitMs: number;
  /** Wall-clock time since the run started. */
  elapsedMs(): number;
  /** Called once when the budget is spent: stop the run. */
  exceeded(): void;
}

/** Per run: the function the guest's host Reference points at, and what went wrong last. */
export class HostCalls {
  lastFailure: HostFailure | null = null;
  /** Time spent in external waits so far (ms): not compute. */
  waitedMs = 0;
  /** The run stopped because it made more than maxHostCalls calls. */
  overCalls = false;
  private meter: ComputeMeter | null = null;
  private spent = false;
  private calls = 0;

  constructor(
    private readonly split: SplitBindings,
    private readonly limits: HostCallLimits,
  ) {}

  /** Starts charging the run's time against `meter` (set before the guest runs). */
  meterWith(meter: ComputeMeter): void {
    this.meter = meter;
  }

  /** Compute used so far: the run's time outside external waits. */
  get computedMs(): number {
    return this.meter ? this.meter.elapsedMs() - this.waitedMs : 0;
  }

  /** Never rejects: every outcome is a tagged string the guest turns into a value or an exception. */
  readonly dispatch = async (index: unknown, argsJson: unknown): Promise<string> => {
    const entry = typeof index === 'number' ? this.split.functions[index] : undefined;
    const fn = entry ? this.split.table[entry.index] : undefined;
    if (!entry || !fn || typeof argsJson !== 'string') return 'eunknown host function';
    if (++this.calls > this.limits.maxHostCalls) {
      if (!this.spent) {
        this.spent = true;
        this.overCalls = true;
        this.meter?.exceeded();
      }
      return `emore than ${this.limits.maxHostCalls} calls to vance.* in one run`;
    }
    if (!isExternalWait(fn)) {
      try {
        return await this.call(entry, fn, argsJson);
      } finally {
        this.checkBudget();
      }
    }
    // Measured on the meter's clock, the one the budget is read from.
    const started = this.meter?.elapsedMs() ?? 0;
    try {
      return await this.call(entry, fn, argsJson);
    } finally {
      this.waitedMs += (this.meter?.elapsedMs() ?? 0) - started;
    }
  };

  /** The guest is blocked in a host call while this runs, so no external wait is under way. */
  private checkBudget(): void {
    const meter = this.meter;
    if (!meter || this.spent || this.computedMs <= meter.limitMs) return;
    this.spent = true;
    meter.exceeded();
  }

  private async call(entry: SplitBindings['functions'][number], fn: HostFunction, argsJson: string): Promise<string> {
    const label = `vance.${entry.path.join('.')}`;
    const refused = this.check(argsJson, `${label}: the arguments`);
    if (refused) return this.fail('OUTPUT', label, refused);
    const args: unknown = JSON.parse(argsJson);
    if (!Array.isArray(args)) return this.fail('OUTPUT', label, `${label}: malformed arguments`);
    let result: JsonValue | undefined;
    try {
      result = await fn(...(args as JsonValue[]));
    } catch (error) {
      return this.fail('HOST', label, hostErrorMessage(error));
    }
    if (result === undefined) return 'u';
    let json: string | undefined;
    try {
      json = JSON.stringify(result);
    } catch (error) {
      return this.fail('HOST', label, `${label} returned a value that is not JSON: ${hostErrorMessage(error)}`);
    }
    if (json === undefined) return 'u';
    const tooBig = this.check(json, `${label}: the result`);
    return tooBig ? this.fail('HOST', label, tooBig) : `v${json}`;
  }

  private check(json: string, what: string): string | null {
    const { maxHostArgChars, maxDepth } = this.limits;
    if (json.length > maxHostArgChars) return `${what}: ${json.length} characters of JSON, over the limit of ${maxHostArgChars}`;
    if (jsonDepthExceeds(json, maxDepth)) return `${what}: nested deeper than the limit of ${maxDepth} levels`;
    return null;
  }

  private fail(kind: HostFailure['kind'], label: string, message: string): string {
    const capped = capText(message);
    this.lastFailure = { kind, label, message: capped };
    return `${kind === 'OUTPUT' ? 'o' : 'e'}${capped}`;
  }
}
