/**
 * Tool selectors (seed 004 §2, §6, §6.2): a tool list entry is a name (`doc_write`), a label
 * selector (`@write` — every tool carrying that label) or a prefix pattern (`doc_*`, only a
 * trailing `*`). Used by the recipe tool pool (recipes/tool-pool.ts) for add/remove/keep/dropFirst
 * and for client tools. An unresolved selector — a plain name included — expands to nothing
 * (seed 004 §6.2): client tools are known per turn and are part of the universe then;
 * unresolved-tools.ts says why an entry resolved to nothing.
 */
import type { ToolDescriptor } from './tool-descriptor';

export type ToolSelector =
  | { readonly kind: 'NAME'; readonly name: string }
  | { readonly kind: 'LABEL'; readonly label: string }
  | { readonly kind: 'PREFIX'; readonly prefix: string };

const LABEL = /^[a-z0-9][a-z0-9:._-]*$/;
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

/** Why an entry is not a selector, or null when it is one (for located parse diagnostics). */
export function selectorProblem(raw: string): string | null {
  const entry = raw.trim();
  if (entry === '') return 'an empty tool entry';
  if (entry.startsWith('@')) {
    return LABEL.test(entry.slice(1).toLowerCase()) ? null : `'${entry}' is not a label selector: use @ followed by a label such as @write`;
  }
  const star = entry.indexOf('*');
  if (star >= 0 && star !== entry.length - 1) return `'${entry}': only a trailing * (prefix pattern such as doc_*) is supported`;
  const name = star >= 0 ? entry.slice(0, -1) : entry;
  if (name !== '' && !NAME.test(name)) return `'${entry}' is not a tool name: use letters, digits, '_', '-', '.' or ':'`;
  return null;
}

/** Null when the entry is not a valid selector (see selectorProblem). */
export function parseToolSelector(raw: string): ToolSelector | null {
  if (selectorProblem(raw) !== null) return null;
  const entry = raw.trim();
  if (entry.startsWith('@')) return { kind: 'LABEL', label: entry.slice(1).toLowerCase() };
  if (entry.endsWith('*')) return { kind: 'PREFIX', prefix: entry.slice(0, -1) };
  return { kind: 'NAME', name: entry };
}

export function matchesSelector(tool: ToolDescriptor, selector: ToolSelector): boolean {
  switch (selector.kind) {
    case 'NAME':
      return tool.name === selector.name;
    case 'LABEL':
      return tool.labels.some((l) => l.toLowerCase() === selector.label);
    case 'PREFIX':
      return tool.name.startsWith(selector.prefix);
    default: {
      const never: never = selector;
      return never;
    }
  }
}

export interface SelectorExpansion {
  /** Matched tool names, in universe order. */
  readonly names: readonly string[];
  /** Entries that matched nothing in the universe. */
  readonly unmatched: readonly string[];
}

/** Expands entries against the known tools. Invalid entries are ignored (the recipe parser reports them). */
export function expandSelectors(entries: readonly string[], universe: readonly ToolDescriptor[]): SelectorExpansion {
  const matched = new Set<string>();
  const unmatched: string[] = [];
  for (const entry of entries) {
    const selector = parseToolSelector(entry);
    if (!selector) continue;
    const hits = universe.filter((tool) => matchesSelector(tool, selector));
    for (const hit of hits) matched.add(hit.name);
    if (hits.length === 0) unmatched.push(entry.trim());
  }
  return { names: [...new Set(universe.filter((t) => matched.has(t.name)).map((t) => t.name))], unmatched };
}

/** Whether any of the entries selects the tool. */
export function anySelects(entries: readonly string[], tool: ToolDescriptor): boolean {
  return entries.some((entry) => {
    const selector = parseToolSelector(entry);
    return selector !== null && matchesSelector(tool, selector);
  });
}
