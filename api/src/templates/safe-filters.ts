/**
 * nunjucks' builtin filters, made safe for untrusted templates (DESIGN §6):
 *
 * - Size amplifiers are refused UP FRONT, from an estimate of the result, before any allocation:
 *   `indent`, `center`, `replace`, `dump`, `batch`, `slice` (their count arguments), so
 *   `"a\nb" | indent(50000000)` never builds a 100 MB string (STACK.md §5 measured 1.67 GB RSS).
 * - Attribute-taking filters (`sort`, `groupby`, `sum`, `selectattr`, `rejectattr`) read attributes
 *   with the own-data rule of runtime-hardening.ts, never `constructor` or inherited members.
 * - `trim` uses String.prototype.trim: the builtin's /^\s*|\s*$/g is quadratic on long blank runs.
 * - `striptags` and `urlize` are removed: HTML-only, and their regexes are super-linear.
 * - Every filter charges the budget by the size of its input, refuses string inputs above the
 *   output cap and checks the length of its result; every test charges one step.
 *
 * INJECTED: serialised into the isolate as well; it must stay self-contained.
 */
import type { AnyFunction, NjEnvironment } from './nunjucks-internals';
import type { RenderGuard } from './runtime-hardening';

export function installSafeFilters(env: NjEnvironment, guard: RenderGuard): void {
  const filters = env.filters;
  const maxOutput = () => guard.limits().maxOutput;
  const tooLarge = (what: string): never => guard.fail('OUTPUT_LIMIT', `${what}: the result would exceed ${maxOutput()} characters`);
  const lengthOf = (value: unknown): number => (typeof value === 'string' || guard.isSafeString(value) ? value.length : 0);
  const attrOf = (item: unknown, attribute: unknown): unknown => {
    if (typeof attribute === 'number') return guard.ownValue(item, attribute);
    if (typeof attribute !== 'string') return undefined;
    return attribute.split('.').reduce<unknown>((value, key) => guard.ownValue(value, key), item);
  };
  const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

  delete filters.striptags;
  delete filters.urlize;

  const original = { indent: filters.indent!, center: filters.center!, replace: filters.replace!, batch: filters.batch!, slice: filters.slice! };
  filters.indent = function (this: unknown, value, width, first) {
    const n = width === undefined || width === null ? 4 : Number(width);
    const text = guard.text(value);
    const lines = text.split('\n').length;
    if (n > 0 && text.length + lines * n > maxOutput()) tooLarge('indent');
    return original.indent.call(this, value, width, first);
  };
  filters.center = function (this: unknown, value, width) {
    if (Number(width) > maxOutput()) tooLarge('center');
    return original.center.call(this, value, width);
  };
  filters.replace = function (this: unknown, value, old, replacement, maxCount) {
    const length = lengthOf(value);
    const oldText = typeof old === 'number' ? String(old) : old;
    if (typeof oldText === 'string' && length > 0) {
      const occurrences = oldText === '' ? length + 1 : Math.floor(length / oldText.length);
      const count = typeof maxCount === 'number' && maxCount >= 0 ? Math.min(maxCount, occurrences) : occurrences;
      const growth = guard.text(replacement).length - oldText.length;
      if (growth > 0 && length + count * growth > maxOutput()) tooLarge('replace');
    }
    return original.replace.call(this, value, old, replacement, maxCount);
  };
  const cappedCount = (name: 'batch' | 'slice') => function (this: unknown, value: unknown, count: unknown, fill: unknown) {
    const n = Number(count);
    if (!(n >= 1 && n <= 1000)) guard.fail('OUTPUT_LIMIT', `${name}: the count must be between 1 and 1000`);
    return original[name].call(this, value, n, fill);
  };
  filters.batch = cappedCount('batch');
  filters.slice = cappedCount('slice');
  filters.trim = (value) => guard.text(value).trim();
  const dump = filters.dump!;
  filters.dump = function (this: unknown, value, spaces) {
    // A lower bound of the JSON size, walked with an early exit: [s, s, s, …] of 1 M-char strings
    // would otherwise be serialised (and allocated) before the result check.
    let size = 0;
    const walk = (v: unknown, depth: number): void => {
      if (size > maxOutput() || depth > 64) return;
      size += 1;
      if (typeof v === 'string' || guard.isSafeString(v)) size += v.length + 1;
      else if (v !== null && typeof v === 'object') {
        for (const key of Object.keys(v)) {
          size += key.length + 2;
          walk((v as Record<string, unknown>)[key], depth + 1);
        }
      }
    };
    walk(value, 0);
    if (size > maxOutput()) tooLarge('dump');
    return dump.call(this, value, spaces);
  };

  filters.sort = (value, reverse, caseSensitive, attribute) => {
    const key = (item: unknown): unknown => {
      const v = attribute === undefined || attribute === null ? item : attrOf(item, attribute);
      return !caseSensitive && typeof v === 'string' ? v.toLowerCase() : v;
    };
    const direction = reverse ? -1 : 1;
    return arrayOf(value).slice().sort((a, b) => {
      const x = key(a) as number;
      const y = key(b) as number;
      return x < y ? -direction : x > y ? direction : 0;
    });
  };
  filters.groupby = (value, attribute) => {
    const groups: Record<string, unknown[]> = Object.create(null);
    for (const item of arrayOf(value)) {
      const key = guard.text(attrOf(item, attribute));
      (groups[key] ??= []).push(item);
    }
    return groups;
  };
  filters.sum = (value, attribute, start) => arrayOf(value).reduce<number>(
    (total, item) => total + Number(attribute === undefined || attribute === null ? item : attrOf(item, attribute)),
    typeof start === 'number' ? start : 0,
  );
  filters.selectattr = (value, attribute) => arrayOf(value).filter((item) => !!attrOf(item, attribute));
  filters.rejectattr = (value, attribute) => arrayOf(value).filter((item) => !attrOf(item, attribute));

  const sizeOf = (value: unknown): number => {
    if (Array.isArray(value)) return value.length;
    if (typeof value === 'string') return value.length >> 8;
    if (value !== null && typeof value === 'object' && !guard.isSafeString(value)) return Object.keys(value).length;
    return 0;
  };
  // `arguments`, not a rest array: this runs for every filter of every render (~20 per bench render),
  // and the original filter must see exactly the arguments the template passed.
  const guarded = (name: string, filter: AnyFunction): AnyFunction => function (this: unknown) {
    // eslint-disable-next-line prefer-rest-params
    const args = arguments;
    guard.charge(1 + sizeOf(args[0]));
    const max = maxOutput();
    for (let i = 0; i < args.length; i++) if (lengthOf(args[i]) > max) guard.fail('OUTPUT_LIMIT', `${name}: the input exceeds ${max} characters`);
    const result: unknown = filter.apply(this, args as unknown as unknown[]);
    if (lengthOf(result) > max) tooLarge(name);
    return result;
  };
  for (const name of Object.keys(filters)) filters[name] = guarded(name, filters[name]!);
  for (const name of Object.keys(env.tests)) {
    const test = env.tests[name]!;
    env.tests[name] = function (this: unknown, ...args: unknown[]) {
      guard.charge(1);
      return test.apply(this, args);
    };
  }
}
