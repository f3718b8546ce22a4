/**
 * The recipe skill whitelist (seed 004 §6c) as an explicit state, read exactly as the server reads it
 * (api/src/domain/recipes/parse-recipe.ts: `readStringList` in read-fields.ts), and written back into
 * the recipe YAML in place with the `yaml` Document API, so comments and layout elsewhere survive.
 *   none     — allowedSkills absent or null (`allowedSkills:`, `~`): no restriction
 *   list     — allowedSkills: a list of names, or ONE name as a scalar (`allowedSkills: code-review`)
 *   lockdown — allowedSkills: [] (then defaultActiveSkills must be empty too)
 * Entries are trimmed, duplicates dropped, numbers and booleans taken as their text (the server's
 * rules). What the editor cannot write back with the same meaning (an alias, an anchor others use, a
 * value from a merge key, an entry the server refuses, a document that does not parse) makes the
 * reading `readOnly` with the reason: the page shows it and offers no save.
 * defaultActiveSkills ⊆ allowedSkills is kept while editing, not only checked on save.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair } from 'yaml';

export type WhitelistMode = 'none' | 'list' | 'lockdown';
export interface Whitelist {
  mode: WhitelistMode;
  allowed: string[];
  defaults: string[];
}

export interface WhitelistReading {
  whitelist: Whitelist;
  /** Why the editor may not write this recipe's whitelist (null: it may). */
  readOnly: string | null;
  /** What a save from the editor changes besides the edit (defaults outside the whitelist the server refuses). */
  notes: string[];
}

type Key = 'allowedSkills' | 'defaultActiveSkills';
type YamlDoc = Document.Parsed;

/** As parse-recipe.ts parses (YamlSource: YAML 1.2, merge keys, alias expansion capped). */
const parse = (text: string): YamlDoc => parseDocument(text, { merge: true, prettyErrors: false });

/** The server's readStringList: null when absent; a problem for an entry the server refuses. */
function readList(value: unknown, key: Key): { names: string[] | null; problem: string | null } {
  if (value === null || value === undefined) return { names: null, problem: null };
  const items = Array.isArray(value) ? value : [value];
  const names: string[] = [];
  for (const item of items) {
    if (item !== null && typeof item === 'object') return { names: null, problem: `${key} holds ${Array.isArray(item) ? 'a list' : 'a map'} where a skill name belongs` };
    const text = item === null || item === undefined ? '' : String(item).trim();
    if (text === '') return { names: null, problem: `${key} holds an empty entry` };
    if (!names.includes(text)) names.push(text);
  }
  return { names, problem: null };
}

/** Why the node of `key` cannot be rewritten with the same meaning, or null. */
function unwritable(doc: YamlDoc, key: Key, js: Record<string, unknown>): string | null {
  const contents = doc.contents;
  const pair = isMap(contents) ? contents.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
  if (!pair) return js[key] === undefined || js[key] === null ? null : `${key} comes from a merge key (<<); edit it in the YAML`;
  const node = pair.value as Node | null;
  if (isAlias(node)) return `${key} is an alias (*${node.source}); edit it in the YAML`;
  if (node && 'anchor' in node && node.anchor) return `${key} carries an anchor (&${node.anchor}) other fields may use; edit it in the YAML`;
  if (isSeq(node) && node.items.some((i) => isAlias(i))) return `${key} holds an alias; edit it in the YAML`;
  return null;
}

export function readWhitelist(yamlText: string): WhitelistReading {
  const doc = parse(yamlText);
  const none: Whitelist = { mode: 'none', allowed: [], defaults: [] };
  if (doc.errors.length) return { whitelist: none, readOnly: `The YAML does not parse (${doc.errors[0]!.message.split('\n')[0]}); fix it in the YAML editor`, notes: [] };
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { whitelist: none, readOnly: `The YAML cannot be read (${(err as Error).message})`, notes: [] };
  }
  if (js === null || typeof js !== 'object' || Array.isArray(js)) return { whitelist: none, readOnly: 'The recipe is not a YAML map of fields', notes: [] };
  const map = js as Record<string, unknown>;
  const allowed = readList(map.allowedSkills, 'allowedSkills');
  const defaults = readList(map.defaultActiveSkills, 'defaultActiveSkills');
  const whitelist: Whitelist = {
    mode: allowed.names === null ? 'none' : allowed.names.length ? 'list' : 'lockdown',
    allowed: allowed.names ?? [],
    defaults: defaults.names ?? [],
  };
  const problem = allowed.problem ?? defaults.problem;
  if (problem) return { whitelist, readOnly: `${problem}, which the server refuses; fix it in the YAML editor`, notes: [] };
  const readOnly = unwritable(doc, 'allowedSkills', map) ?? unwritable(doc, 'defaultActiveSkills', map);
  const outside = whitelist.mode === 'none' ? [] : whitelist.defaults.filter((d) => !whitelist.allowed.includes(d));
  const notes = outside.length ? [`defaultActiveSkills lists ${outside.join(', ')} outside allowedSkills (the server refuses that); a save from here drops ${outside.length === 1 ? 'it' : 'them'}`] : [];
  return { whitelist, readOnly, notes };
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

/** Same meaning for the server: same restriction, same names (order is kept as written, but not compared). */
export function sameWhitelist(a: Whitelist, b: Whitelist): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((n) => y.includes(n));
  return a.mode === b.mode && same(a.allowed, b.allowed) && same(a.defaults, b.defaults);
}

/**
 * The YAML with `w` written in place: a key whose meaning does not change is left exactly as written
 * (a scalar stays a scalar); a changed list keeps the entries (and their comments) that stay; a
 * removed key hands the comment above it on to what follows. Throws where readWhitelist said readOnly.
 */
export function writeWhitelist(yamlText: string, w: Whitelist): string {
  const reading = readWhitelist(yamlText);
  if (reading.readOnly) throw new Error(reading.readOnly);
  const doc = parse(yamlText);
  const before = reading.whitelist;
  const n = normalize(w);
  if (n.mode !== before.mode || !sameNames(n.allowed, before.allowed)) {
    if (n.mode === 'none') removeKey(doc, 'allowedSkills');
    else setNames(doc, 'allowedSkills', n.allowed);
  }
  if (!sameNames(n.defaults, before.defaults) || reading.notes.length) {
    if (n.defaults.length === 0) removeKey(doc, 'defaultActiveSkills');
    else setNames(doc, 'defaultActiveSkills', n.defaults);
  }
  return doc.toString();
}

function setNames(doc: YamlDoc, key: Key, names: string[]): void {
  const existing = doc.get(key, true) as Node | null | undefined;
  if (isSeq(existing)) {
    // In place: entries that stay keep their node (and comment); new ones go at the end.
    const kept = new Set<string>();
    existing.items = existing.items.filter((item) => {
      const name = isScalar(item) ? String(item.value ?? '').trim() : '';
      if (!names.includes(name) || kept.has(name)) return false;
      kept.add(name);
      return true;
    });
    for (const name of names) if (!kept.has(name)) existing.items.push(doc.createNode(name));
    // `[]` is lockdown; a block list without entries would print as `[]` anyway — say it plainly.
    if (existing.items.length === 0) existing.flow = true;
    return;
  }
  const node = doc.createNode(names);
  node.flow = names.length === 0;
  if (isScalar(existing)) {
    node.commentBefore = existing.commentBefore;
    node.comment = existing.comment;
  }
  doc.set(key, node);
}

function removeKey(doc: YamlDoc, key: Key): void {
  const contents = doc.contents;
  if (!isMap(contents)) return;
  const index = contents.items.findIndex((p) => isScalar(p.key) && p.key.value === key);
  if (index < 0) return;
  const pair = contents.items[index] as Pair<Node, Node | null>;
  const comment = [isScalar(pair.key) ? pair.key.commentBefore : null, pair.value?.commentBefore, pair.value?.comment].filter(Boolean).join('\n');
  contents.items.splice(index, 1);
  if (!comment) return;
  const next = contents.items[index];
  if (next && isScalar(next.key)) next.key.commentBefore = next.key.commentBefore ? `${comment}\n${next.key.commentBefore}` : comment;
  else doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
}

const sameNames = (a: string[], b: string[]) => a.length === b.length && a.every((n) => b.includes(n));
const unique = (xs: string[]) => [...new Set(xs)];
