/**
 * The one nunjucks Environment templates render in:
 *
 * - an in-memory loader over the templates registered with the engine, nothing else: no
 *   FileSystemLoader (nunjucks' default is `views/` relative to the cwd), so `include`/`import`/
 *   `extends` of any other name — `/etc/passwd`, `../x` — fails with "template not found";
 * - `autoescape: false`: prompts are plain text and markdown, HTML entities would corrupt them;
 * - nunjucks whitespace rules (no trimBlocks): the real recipes rely on `{%- … %}` the Jinja way;
 * - globals: only a capped `range` (≤ maxRange items, charged to the budget); `cycler`, `joiner`
 *   and `lipsum` are removed (they only work through method calls);
 * - filters and tests: nunjucks builtins made safe + the Pebble additions, in null-prototype maps
 *   so `x | constructor` or `is __proto__` cannot resolve to Object's members.
 *
 * INJECTED: serialised into the isolate as well; it must stay self-contained.
 */
import type { NjEnvironment, NjLoader, NunjucksModule } from './nunjucks-internals';
import type { RenderGuard } from './runtime-hardening';

export interface EnvironmentParts {
  readonly installPebbleCompat: (env: NjEnvironment, guard: RenderGuard) => void;
  readonly installSafeFilters: (env: NjEnvironment, guard: RenderGuard) => void;
}

export function createEnvironment(
  nj: NunjucksModule,
  guard: RenderGuard,
  templates: Readonly<Record<string, string>>,
  parts: EnvironmentParts,
): NjEnvironment {
  const hasOwn = Object.prototype.hasOwnProperty;
  const loader: NjLoader = {
    getSource(name) {
      if (typeof name !== 'string' || !hasOwn.call(templates, name)) return null;
      return { src: templates[name]!, path: name, noCache: false };
    },
  };
  const env = new nj.Environment([loader], {
    autoescape: false,
    throwOnUndefined: false,
    trimBlocks: false,
    lstripBlocks: false,
    dev: true, // keeps lineno/colno and the original error (`cause`) on TemplateErrors
  });
  for (const l of env.loaders) l.cache = Object.create(null);

  const range = (...args: unknown[]): number[] => {
    const numbers = args.map(Number);
    const [start, stop, step] = numbers.length <= 1 ? [0, numbers[0] ?? 0, 1] : [numbers[0]!, numbers[1]!, numbers[2] ?? 1];
    if (![start, stop, step].every(Number.isFinite) || step === 0) return guard.fail('RUNTIME', 'range() needs finite numbers and a non-zero step');
    const count = Math.max(0, Math.ceil((stop - start) / step));
    const max = guard.limits().maxRange;
    if (count > max) guard.fail('TIMEOUT', `range() of ${count} items exceeds ${max}`);
    guard.charge(count);
    const items: number[] = [];
    for (let i = 0; i < count; i++) items.push(start + i * step);
    return items;
  };
  env.globals = Object.assign(Object.create(null), { range: guard.callable(range) });
  env.extensions = Object.create(null);

  parts.installPebbleCompat(env, guard);
  parts.installSafeFilters(env, guard);
  env.filters = Object.assign(Object.create(null), env.filters);
  env.tests = Object.assign(Object.create(null), env.tests);
  return env;
}
