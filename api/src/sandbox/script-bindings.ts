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
}

/** The last host call of a run that did not return normally; an uncaught one decides the kind. */
export interface HostFailure {
  readonly kind: 'HOST' | 'OUTPUT';
  readonly label: string;
  readonly message: string;
}

/**
 * The compute budget of one run: the guest's own running time (the isolate's CPU clock) plus the
 * time spent in bindings that are not external waits, each call charged at least
 * MIN_CALL_CHARGE_MS for the round trip between the isolate's thread and ours, which neither clock
 * sees. So a loop of cheap calls is bounded like a loop of guest code.
 */
export interface ComputeMeter {
  readonly limitMs: number;
  /** The guest's own running time so far. */
  guestMs(): number;
  /** Called once when the budget is spent: stop the run. */
  exceeded(): void;
}

export const MIN_CALL_CHARGE_MS = 0.05;

/** Per run: the function the guest's host Reference points at, and what went wrong last. */
export class HostCalls {
  lastFailure: HostFailure | null = null;
  /** Time charged for non-waiting binding calls so far (ms). */
  chargedMs = 0;
  private meter: ComputeMeter | null = null;
  private spent = false;

  constructor(
    private readonly split: SplitBindings,
    private readonly limits: HostCallLimits,
  ) {}

  /** Starts charging binding time against `meter` (set before the guest runs). */
  meterWith(meter: ComputeMeter): void {
    this.meter = meter;
  }

  /** Never rejects: every outcome is a tagged string the guest turns into a value or an exception. */
  readonly dispatch = async (index: unknown, argsJson: unknown): Promise<string> => {
    const entry = typeof index === 'number' ? this.split.functions[index] : undefined;
    const fn = entry ? this.split.table[entry.index] : undefined;
    if (!entry || !fn || typeof argsJson !== 'string') return 'eunknown host function';
    if (isExternalWait(fn)) return this.call(entry, fn, argsJson);
    const started = performance.now();
    try {
      return await this.call(entry, fn, argsJson);
    } finally {
      this.charge(Math.max(performance.now() - started, MIN_CALL_CHARGE_MS));
    }
  };

  private charge(ms: number): void {
    this.chargedMs += ms;
    const meter = this.meter;
    if (!meter || this.spent || meter.guestMs() + this.chargedMs <= meter.limitMs) return;
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
