/**
 * The recipe skill whitelist (seed 004 §6c) as an explicit state, and its structural write-back into
 * the recipe YAML with the `yaml` Document API so comments and layout elsewhere survive.
 *   none     — allowedSkills absent: no restriction
 *   list     — allowedSkills: [names…]
 *   lockdown — allowedSkills: [] (then defaultActiveSkills must be empty too)
 * defaultActiveSkills ⊆ allowedSkills is kept while editing, not only checked on save.
 */
import { isSeq, parseDocument } from 'yaml';

export type WhitelistMode = 'none' | 'list' | 'lockdown';
export interface Whitelist {
  mode: WhitelistMode;
  allowed: string[];
  defaults: string[];
}

const strings = (node: unknown): string[] => (Array.isArray(node) ? node.filter((x): x is string => typeof x === 'string') : []);

export function readWhitelist(yamlText: string): Whitelist {
  const doc = parseDocument(yamlText);
  const allowedNode = doc.get('allowedSkills', true);
  const raw = doc.toJS() as Record<string, unknown> | null;
  const defaults = strings(raw?.defaultActiveSkills);
  if (allowedNode === undefined || allowedNode === null || raw?.allowedSkills == null) return { mode: 'none', allowed: [], defaults };
  const allowed = strings(raw.allowedSkills);
  return allowed.length ? { mode: 'list', allowed, defaults } : { mode: 'lockdown', allowed: [], defaults };
}

/** Keeps defaults ⊆ allowed (and empty under lockdown). */
export function normalize(w: Whitelist): Whitelist {
  if (w.mode === 'none') return { ...w, defaults: unique(w.defaults) };
  if (w.mode === 'lockdown') return { mode: 'lockdown', allowed: [], defaults: [] };
  const allowed = unique(w.allowed);
  return { mode: 'list', allowed, defaults: unique(w.defaults).filter((d) => allowed.includes(d)) };
}

export function setMode(w: Whitelist, mode: WhitelistMode): Whitelist {
  if (mode === 'list' && w.mode !== 'list') return normalize({ mode, allowed: unique([...w.allowed, ...w.defaults]), defaults: w.defaults });
  return normalize({ ...w, mode });
}

export function toggleAllowed(w: Whitelist, skill: string, on: boolean): Whitelist {
  return normalize({ ...w, allowed: on ? [...w.allowed, skill] : w.allowed.filter((s) => s !== skill) });
}

export function toggleDefault(w: Whitelist, skill: string, on: boolean): Whitelist {
  return normalize({ ...w, defaults: on ? [...w.defaults, skill] : w.defaults.filter((s) => s !== skill) });
}

export function writeWhitelist(yamlText: string, w: Whitelist): string {
  const doc = parseDocument(yamlText);
  const n = normalize(w);
  if (n.mode === 'none') doc.delete('allowedSkills');
  else setList(doc, 'allowedSkills', n.allowed);
  if (n.defaults.length === 0 && doc.has('defaultActiveSkills')) doc.delete('defaultActiveSkills');
  else if (n.defaults.length) setList(doc, 'defaultActiveSkills', n.defaults);
  return doc.toString();
}

function setList(doc: ReturnType<typeof parseDocument>, key: string, items: string[]): void {
  const existing = doc.get(key, true);
  const node = doc.createNode(items);
  // An existing block sequence keeps its style (and the comment on its key); [] is written flow-style.
  if (isSeq(existing) && items.length) node.flow = existing.flow ?? false;
  if (!items.length) node.flow = true;
  if (isSeq(existing)) {
    node.commentBefore = existing.commentBefore;
    node.comment = existing.comment;
  }
  doc.set(key, node);
}

const unique = (xs: string[]) => [...new Set(xs)];
