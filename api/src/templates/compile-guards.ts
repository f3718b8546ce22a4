/**
 * Compile-time rules (seed 004 §5.4): a template that names a filter or test the engine does not
 * have, or that uses a nunjucks regex literal (`r/…/`, not part of the Pebble language and a
 * catastrophic-backtracking vector), fails to COMPILE, with the position of the offending name —
 * instead of failing at render time only when that branch runs.
 *
 * Code generation changes: `a ~ b` and `a + b` call `runtime.vanceConcat` / `runtime.vanceAdd`
 * (defined by runtime-hardening.ts, always installed together) so no expression can build a
 * string above the output cap — without it `(s ~ s ~ …) == (s ~ s ~ …)` flattens hundreds of MB
 * inside one expression, where no other hook runs. Filters and tests record their position.
 *
 * The hooks wrap nunjucks' shared Compiler prototype but act only inside `run()`, so any other
 * nunjucks user in the process is unaffected. Idempotent.
 *
 * INJECTED: serialised into the isolate as well; it must stay self-contained.
 */
import type { NjCompilerPrototype, NjNode, NunjucksModule } from './nunjucks-internals';

export interface KnownNames {
  readonly filters: Readonly<Record<string, unknown>>;
  readonly tests: Readonly<Record<string, unknown>>;
}

export interface CompileGuard {
  run<T>(known: KnownNames, fn: () => T): T;
}

export function installCompileGuards(nj: NunjucksModule): CompileGuard {
  const MARK = Symbol.for('vance.templates.compileGuard');
  const proto = nj.compiler.Compiler.prototype as NjCompilerPrototype & Record<symbol, CompileGuard | undefined>;
  const existing = proto[MARK];
  if (existing) return existing;

  const hasOwn = Object.prototype.hasOwnProperty;
  let active: KnownNames | null = null;
  const nameOf = (node: unknown): string | undefined => {
    const n = node as NjNode | null | undefined;
    if (!n) return undefined;
    const name = n.name as NjNode | undefined;
    if (name && typeof name.value === 'string') return name.value;
    return n.value === undefined ? undefined : String(n.value);
  };
  const positionOf = (node: unknown, fallback: NjNode): NjNode => {
    const n = node as NjNode | null | undefined;
    const name = n?.name as NjNode | undefined;
    return name && typeof name.lineno === 'number' ? name : n && typeof n.lineno === 'number' ? n : fallback;
  };

  // nunjucks updates the runtime position (`lineno`, `colno`) only at function calls; filters and
  // tests update it too, so an error they raise points at them. A comma expression keeps the value.
  const trackPosition = (compiler: NjCompilerPrototype, at: NjNode, compile: () => void) => {
    compiler._emit(`(lineno = ${Number(at.lineno)}, colno = ${Number(at.colno)}, `);
    compile();
    compiler._emit(')');
  };

  const compileFilter = proto.compileFilter;
  proto.compileFilter = function (node, frame) {
    const name = nameOf(node);
    if (active && name !== undefined && !hasOwn.call(active.filters, name)) {
      const at = positionOf(node, node);
      this.fail(`unknown filter "${name}"`, at.lineno, at.colno);
    }
    if (!active) return compileFilter.call(this, node, frame);
    trackPosition(this, positionOf(node, node), () => compileFilter.call(this, node, frame));
  };

  const compileIs = proto.compileIs;
  proto.compileIs = function (node, frame) {
    const name = nameOf(node.right);
    if (active && name !== undefined && !hasOwn.call(active.tests, name)) {
      const at = positionOf(node.right, node);
      this.fail(`unknown test "${name}"`, at.lineno, at.colno);
    }
    if (!active) return compileIs.call(this, node, frame);
    trackPosition(this, positionOf(node.right, node), () => compileIs.call(this, node, frame));
  };

  const compileLiteral = proto.compileLiteral;
  proto.compileLiteral = function (node, frame) {
    if (active && Object.prototype.toString.call(node.value) === '[object RegExp]') {
      this.fail('regular expression literals (r/…/) are not supported; use `is matching("…")`', node.lineno, node.colno);
    }
    return compileLiteral.call(this, node, frame);
  };

  const binary = (runtimeFunction: string) => function (this: NjCompilerPrototype, node: NjNode, frame: unknown) {
    this._emit(`runtime.${runtimeFunction}(`);
    this.compile(node.left, frame);
    this._emit(', ');
    this.compile(node.right, frame);
    this._emit(')');
  };
  const compileConcat = proto.compileConcat;
  const concat = binary('vanceConcat');
  proto.compileConcat = function (node, frame) {
    return active ? concat.call(this, node, frame) : compileConcat.call(this, node, frame);
  };
  const compileAdd = proto.compileAdd;
  const add = binary('vanceAdd');
  proto.compileAdd = function (node, frame) {
    return active ? add.call(this, node, frame) : compileAdd.call(this, node, frame);
  };

  const guard: CompileGuard = {
    run(known, fn) {
      const previous = active;
      active = known;
      try {
        return fn();
      } finally {
        active = previous;
      }
    },
  };
  Object.defineProperty(proto, MARK, { value: guard });
  return guard;
}
