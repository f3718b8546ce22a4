/**
 * Text the database can hold (issue 13, part 5). Measured on PostgreSQL 16 and PGlite alike:
 *   U+0000              text: refused (22021 "invalid byte sequence")   jsonb: refused (22P05)
 *   unpaired surrogate  text: silently stored as U+FFFD               jsonb: refused (22P02)
 * (U+FFFF, other noncharacters and proper surrogate pairs are fine in both.)
 *
 * So there are two rules, and this module owns both: text a *caller* sends is refused with a clear
 * error naming the argument (graphql/storable-arguments.ts checks every argument once, before any
 * resolver runs); text the server did not get from a caller — tool results, model output, script
 * output — is made storable by replacing each such character with U+FFFD, and the place it went
 * says so. One odd character must never fail a turn and leave a poisoned inbox behind.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSTORABLE_TEST = new RegExp(UNSTORABLE.source);

export const REPLACEMENT_CHARACTER = '\ufffd';

export interface UnstorableCharacter {
  /** UTF-16 offset in the string. */
  readonly index: number;
  /** "U+0000 (NUL)" or "an unpaired UTF-16 surrogate (U+D800)". */
  readonly what: string;
}

/** The first character the database cannot store, or null. */
export function findUnstorable(text: string): UnstorableCharacter | null {
  if (!UNSTORABLE_TEST.test(text)) return null;
  UNSTORABLE.lastIndex = 0;
  const match = UNSTORABLE.exec(text)!;
  UNSTORABLE.lastIndex = 0;
  const code = match[0].charCodeAt(0);
  const what = code === 0 ? 'U+0000 (NUL)' : `an unpaired UTF-16 surrogate (U+${code.toString(16).toUpperCase()})`;
  return { index: match.index, what };
}

/** `text` with every unstorable character replaced by U+FFFD, and how many were replaced. */
export function toStorable(text: string): { readonly text: string; readonly replaced: number } {
  if (!UNSTORABLE_TEST.test(text)) return { text, replaced: 0 };
  let replaced = 0;
  const out = text.replace(UNSTORABLE, () => {
    replaced++;
    return REPLACEMENT_CHARACTER;
  });
  return { text: out, replaced };
}

/**
 * A JSON-like value made storable: strings (object keys too) through toStorable, arrays and plain
 * objects copied only when something changed. The values come from our own parsers (tool arguments,
 * event payloads), so recursion stops at 256 levels; anything deeper is left as it is.
 */
export function storableValue<T>(value: T): { readonly value: T; readonly replaced: number } {
  let replaced = 0;
  const visit = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const s = toStorable(v);
      replaced += s.replaced;
      return s.text;
    }
    if (depth > 256 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((item) => {
        const next = visit(item, depth + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : v;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      const k = visit(key, depth + 1) as string;
      const next = visit(item, depth + 1);
      if (k !== key || next !== item) changed = true;
      out[k] = next;
    }
    return changed ? out : v;
  };
  const out = visit(value, 0) as T;
  return { value: out, replaced };
}

/** The sentence a tool result or event gets when characters were replaced. */
export function replacedNote(replaced: number): string {
  return `[Vance: ${replaced} character${replaced === 1 ? '' : 's'} that cannot be stored (U+0000 or an unpaired surrogate) replaced with U+FFFD.]`;
}
