/**
 * The free variables of a parsed template: names it reads that it does not bind itself. The
 * recipe resolver uses it to know whether a template places `{{ profileAppend }}` (seed 004 §5.1).
 * Names in string literals and comments are not variables (comments never reach the AST); filter
 * and test names, dict keys and keyword-argument names are not variables either. Names bound by
 * `for`, `set`, `macro` (and its parameters), `import … as` and `from … import` are local from the
 * point they are bound; `loop`, `caller`, `super` and the engine's own globals used as calls are
 * never reported.
 */
import type { NjNode } from './nunjucks-internals';

const IMPLICIT = new Set(['loop', 'caller', 'super']);

export function freeVariables(root: NjNode, globals: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const isNode = (value: unknown): value is NjNode => typeof value === 'object' && value !== null && typeof (value as NjNode).typename === 'string';
  const symbolName = (node: unknown): string | undefined =>
    isNode(node) && node.typename === 'Symbol' && typeof node.value === 'string' ? node.value : undefined;
  const bindTargets = (node: unknown, scope: Set<string>): void => {
    const name = symbolName(node);
    if (name !== undefined) scope.add(name);
    else if (Array.isArray(node)) for (const child of node) bindTargets(child, scope);
    else if (isNode(node)) for (const child of node.children ?? []) bindTargets(child, scope);
  };

  const visit = (node: unknown, scope: Set<string>): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, scope);
      return;
    }
    if (!isNode(node)) return;
    switch (node.typename) {
      case 'Symbol':
        if (typeof node.value === 'string' && !scope.has(node.value) && !IMPLICIT.has(node.value)) found.add(node.value);
        return;
      case 'Pair': // dict entries and keyword arguments: the key is a name, not a read
        visit(node.value, scope);
        return;
      case 'Filter':
      case 'FilterAsync':
        visit(node.args, scope);
        return;
      case 'FunCall': {
        const name = symbolName(node.name);
        if (name === undefined || !globals.has(name) || scope.has(name)) visit(node.name, scope);
        visit(node.args, scope);
        return;
      }
      case 'Is': {
        visit(node.left, scope);
        const right = node.right;
        if (isNode(right) && right.typename === 'FunCall') visit(right.args, scope);
        return;
      }
      case 'For':
      case 'AsyncEach':
      case 'AsyncAll': {
        visit(node.arr, scope);
        const inner = new Set(scope);
        bindTargets(node.name, inner);
        visit(node.body, inner);
        visit(node.else_, scope);
        return;
      }
      case 'Macro':
      case 'Caller': {
        const inner = new Set(scope);
        for (const arg of (node.args as NjNode | undefined)?.children ?? []) {
          if (arg.typename === 'KeywordArgs') {
            for (const pair of arg.children ?? []) {
              visit(pair.value, scope);
              bindTargets(pair.key, inner);
            }
          } else {
            bindTargets(arg, inner);
          }
        }
        const name = symbolName(node.name);
        if (name !== undefined) {
          inner.add(name); // recursion
          scope.add(name);
        }
        visit(node.body, inner);
        return;
      }
      case 'Set':
        visit(node.value, scope);
        visit(node.body, scope);
        bindTargets(node.targets, scope);
        return;
      case 'Import':
        visit(node.template, scope);
        bindTargets(node.target, scope);
        return;
      case 'FromImport':
        visit(node.template, scope);
        for (const name of (node.names as NjNode | undefined)?.children ?? []) {
          bindTargets(name.typename === 'Pair' ? name.value : name, scope);
        }
        return;
      default:
        for (const child of node.children ?? []) visit(child, scope);
        for (const field of node.fields ?? []) if (field !== 'children') visit(node[field], scope);
    }
  };

  visit(root, new Set());
  return found;
}
