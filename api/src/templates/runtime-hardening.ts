/**
 * The security boundary inside nunjucks (DESIGN §6, seed 004 §5.2): every compiled template calls
 * back into the shared `runtime` object for member access, variable lookup, calls, loops and
 * output, so patching those few functions closes the SSTI chain for all templates at once.
 *
 * - `memberLookup` / `contextOrFrameLookup` return only OWN DATA properties: no `constructor`,
 *   `__proto__`, `prototype` walk, no methods, no getters; a function is returned only if it is
 *   callable (below). Top-level `constructor`, `toString`, `valueOf` resolve to nothing.
 * - `callWrap` calls only functions registered as callable (macros, `caller`, whitelisted globals);
 *   anything else is FORBIDDEN. Callables charge the budget and count the call depth themselves,
 *   so implicit invocations (`toString` in a dict literal) are charged too.
 * - Loops (`fromIterator`), variable writes (`Frame.set`), scopes (`Frame.push`) and output
 *   (`suppressValue`) charge the active Budget; strings above the output cap are refused where
 *   they are made (`~`, `+`, `set`) — a concatenation is a rope, so that costs no copy.
 *
 * The patch is process-wide and idempotent (a marker on the runtime); with no active budget (e.g.
 * while compiling) it enforces access rules only. Filters are capped in safe-filters.ts.
 *
 * INJECTED: `hardenRuntime` is serialised into the isolate as well; it must stay self-contained.
 */
import type { Budget } from './budget';
import type { RenderLimits } from './limits';
import type { AnyFunction, Fail, LimitReason, NjFrame, NjSafeString, NunjucksModule } from './nunjucks-internals';

export interface RenderGuard {
  /** Runs `fn` with a fresh budget as the active one (renders are synchronous). */
  run<T>(limits: RenderLimits, fn: () => T): T;
  /** Makes `fn` callable from templates; the returned wrapper charges the budget. */
  callable<F extends AnyFunction>(fn: F): F;
  /** Charges the active budget (no-op outside a render). */
  charge(units: number): void;
  /** The limits of the active render (defaults outside a render). */
  limits(): RenderLimits;
  /** Own data property or nothing (the lookup rule of DESIGN §6), for attribute-taking filters. */
  ownValue(obj: unknown, key: unknown): unknown;
  /** How a value prints: never calls anything, arrays join like JS, objects as `[object Object]`. */
  text(value: unknown): string;
  isSafeString(value: unknown): value is NjSafeString;
  fail: Fail;
}

export function hardenRuntime(
  nj: NunjucksModule,
  createBudget: (limits: RenderLimits, fail: Fail) => Budget,
  defaults: RenderLimits,
): RenderGuard {
  const MARK = Symbol.for('vance.templates.guard');
  const rt = nj.runtime as unknown as Record<symbol, RenderGuard | undefined> & NunjucksModule['runtime'];
  const existing = rt[MARK];
  if (existing) return existing;

  const hasOwn = Object.prototype.hasOwnProperty;
  const describe = Object.getOwnPropertyDescriptor;
  const CALLABLE = new WeakSet<object>();
  const SafeString = rt.SafeString;
  let active: { budget: Budget; limits: RenderLimits } | null = null;

  const fail: Fail = (reason: LimitReason, message: string) => {
    throw Object.assign(new Error(message), { vanceReason: reason });
  };
  const charge = (units: number) => {
    if (active) active.budget.charge(units);
  };
  const isSafeString = (value: unknown): value is NjSafeString => value instanceof SafeString;

  // The value of an own data property (no accessor, no inherited member), or undefined.
  const dataValue = (descriptor: PropertyDescriptor | undefined): unknown => {
    if (!descriptor || !('value' in descriptor)) return undefined;
    const value: unknown = descriptor.value;
    if (typeof value === 'function' && !CALLABLE.has(value)) return undefined;
    return value;
  };

  // One descriptor read per lookup (it is undefined for what is not own): this runs for every
  // `a.b` and `a[b]` of every render.
  const ownValue = (obj: unknown, key: unknown): unknown => {
    if (obj === null || obj === undefined) return undefined;
    if (typeof obj !== 'object' && typeof obj !== 'string') return undefined;
    if (typeof key !== 'string' && typeof key !== 'number') return undefined;
    return dataValue(describe(obj, key));
  };

  const text = (value: unknown, depth = 0): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
    if (typeof value !== 'object') return '';
    if (isSafeString(value)) return value.val;
    if (Array.isArray(value)) {
      if (depth > 8) return '';
      const max = active ? active.limits.maxOutput : defaults.maxOutput;
      let total = 0;
      const parts: string[] = [];
      for (const item of value) {
        const part = text(item, depth + 1);
        total += part.length + 1;
        if (total > max) fail('OUTPUT_LIMIT', `the template output exceeds ${max} characters`);
        parts.push(part);
      }
      return parts.join(',');
    }
    return '[object Object]';
  };

  const callable = <F extends AnyFunction>(fn: F): F => {
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const current = active;
      if (!current) return fn.apply(this, args);
      current.budget.charge(1);
      current.budget.enterCall();
      try {
        return fn.apply(this, args);
      } finally {
        current.budget.exitCall();
      }
    } as F;
    CALLABLE.add(wrapped);
    return wrapped;
  };

  const makeMacro = rt.makeMacro;
  rt.makeMacro = (argNames, kwargNames, func) => callable(makeMacro(argNames, kwargNames, func));

  rt.memberLookup = ownValue;

  rt.contextOrFrameLookup = (context, frame, name) => {
    const local = frame.lookup(name);
    if (local !== undefined) return local;
    const descriptor = describe(context.ctx, name);
    if (descriptor) return dataValue(descriptor);
    const globals = context.env.globals;
    if (hasOwn.call(globals, name)) return globals[name];
    return undefined;
  };

  rt.callWrap = (fn, name, context, args) => {
    if (typeof fn !== 'function' || !CALLABLE.has(fn)) {
      fail('FORBIDDEN', `calling "${String(name).slice(0, 80)}" is not allowed in templates (only macros, caller() and range() can be called)`);
    }
    return (fn as AnyFunction).apply(context, args);
  };

  rt.fromIterator = (value) => {
    if (Array.isArray(value) || typeof value === 'string') charge(value.length);
    else if (value !== null && typeof value === 'object') charge(Object.keys(value).length);
    return value;
  };

  const suppressValue = rt.suppressValue;
  rt.suppressValue = (value, autoescape) => {
    const out = isSafeString(value) ? value : text(value);
    if (active) active.budget.emit(out.length);
    return suppressValue(out, autoescape);
  };

  // `~` and `+` (compile-guards.ts): a concatenation is a rope, so its length is known before any
  // character is copied; refusing it here keeps every string below the output cap.
  const checkLength = (value: unknown): void => {
    if (active && typeof value === 'string' && value.length > active.limits.maxOutput) {
      fail('OUTPUT_LIMIT', `a template expression exceeds ${active.limits.maxOutput} characters`);
    }
  };
  rt.vanceConcat = (left, right) => {
    const joined = '' + (left as string) + (right as string);
    checkLength(joined);
    return joined;
  };
  rt.vanceAdd = (left, right) => {
    const sum: unknown = (left as number) + (right as number);
    checkLength(sum);
    return sum;
  };

  const inOperator = rt.inOperator;
  rt.inOperator = (key, value) => {
    if (Array.isArray(value) || typeof value === 'string') charge(1 + (value.length >> 4));
    return inOperator(key, value);
  };

  const frameProto = rt.Frame.prototype;
  const set = frameProto.set;
  frameProto.set = function (this: NjFrame, name: string, value: unknown, resolveUp?: boolean) {
    let stored = value;
    const current = active;
    if (current) {
      current.budget.charge(1);
      const length = typeof value === 'string' ? value.length : typeof value === 'object' && isSafeString(value) ? value.length : 0;
      if (length > current.limits.maxOutput) fail('OUTPUT_LIMIT', `a template variable exceeds ${current.limits.maxOutput} characters`);
    }
    if (typeof value === 'function' && !CALLABLE.has(value)) stored = undefined;
    set.call(this, name, stored, resolveUp);
  };
  const push = frameProto.push;
  frameProto.push = function (this: NjFrame, isolateWrites?: boolean) {
    charge(1);
    return push.call(this, isolateWrites);
  };

  const guard: RenderGuard = {
    run(limits, fn) {
      const previous = active;
      active = { budget: createBudget(limits, fail), limits };
      try {
        return fn();
      } finally {
        active = previous;
      }
    },
    callable,
    charge,
    limits: () => (active ? active.limits : defaults),
    ownValue,
    text: (value) => text(value),
    isSafeString,
    fail,
  };
  Object.defineProperty(rt, MARK, { value: guard });
  return guard;
}
