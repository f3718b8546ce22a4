/**
 * A conservative required-literal extractor for PATTERN triggers, used only to prefilter which
 * regexes need to run on a message (trigger-index.ts). It reads the compiled RE2 source
 * (java-regex.ts already expanded `\Q…\E`, `(?x)` comments and inline flags) and returns a set of
 * lower-case literals such that EVERY match of the regex on a lower-cased text contains at least
 * one of them — or null when it cannot promise that, and the pattern then always runs.
 *
 * Hand-written, and kept after the move to RE2 (issue 13): re2js computes such literals for its own
 * per-regex prefilter but does not expose them, and the index needs them for all patterns at once —
 * one Aho–Corasick pass per message decides which of thousands of regexes run at all. RE2 made the
 * regexes linear; this keeps a turn from running every one of them.
 *
 * What counts, and why it is safe:
 * - runs of plain characters outside classes, each matched exactly once (a char quantified with a
 *   minimum of 0 ends the run; `b+` ends it after the `b` and starts the next run with `b`);
 * - a group matched at least once contributes its own required set; an alternation needs a set from
 *   every branch and yields their union (capped at MAX_LITERALS);
 * - only printable ASCII characters enter a literal. Under case-insensitive matching a pattern
 *   character matches what has the same simple case folding; on lower-cased input the only non-ASCII
 *   character that folds onto an ASCII one is `ſ` (U+017F → `s`; the Kelvin sign already lower-cases
 *   to `k`), which the scanner maps to `s` (`scanText`). Everything else (classes, `.`, escapes like
 *   `\d`, `\x{…}` or `\A`, anchors) just ends the current run.
 * - a literal shorter than MIN_LENGTH is not worth a lookup; the pattern then always runs.
 * A regex that is not case-insensitive (never produced by compileJavaRegex) is not analysed.
 */
import type { TriggerRegex } from '../../skills/trigger-regex';
export const MIN_LITERAL_LENGTH = 2;
const MAX_LITERALS = 16;

export function requiredLiterals(regex: Pick<TriggerRegex, 'source' | 'ignoreCase'>): string[] | null {
  if (!regex.ignoreCase) return null;
  try {
    const parser = new Parser(regex.source);
    const literals = parser.alternation();
    if (!parser.atEnd()) return null;
    return literals ? [...new Set(literals)] : null;
  } catch (_error) {
    return null;
  }
}

/** Maps the lower-cased input onto the alphabet the literals are written in (see the module header). */
export function scanText(lowered: string): string {
  return lowered.includes('\u017f') ? lowered.replace(/\u017f/g, 's') : lowered;
}

type Atom = { readonly kind: 'char'; readonly char: string } | { readonly kind: 'group'; readonly literals: string[] | null } | { readonly kind: 'other' };

interface Quantifier {
  readonly min: number;
  /** Infinity for an unbounded quantifier. */
  readonly max: number;
}

const ONCE: Quantifier = { min: 1, max: 1 };
/** Escapes of a single syntax character (the only identity escapes java-regex.ts writes). */
const SYNTAX_CHARS = new Set([...'^$\\.*+?()[]{}|/-']);

/** Throws a plain Error on malformed input; requiredLiterals treats that as "cannot tell". */
class Parser {
  private i = 0;

  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  alternation(): string[] | null {
    const branches: (string[] | null)[] = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    if (branches.some((b) => b === null)) return null;
    const union = [...new Set(branches.flatMap((b) => b!))];
    return union.length <= MAX_LITERALS ? union : null;
  }

  private sequence(): string[] | null {
    const candidates: string[][] = [];
    let run = '';
    const flush = (): void => {
      if (run.length >= MIN_LITERAL_LENGTH) candidates.push([run]);
      run = '';
    };
    while (!this.atEnd() && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      const atom = this.atom();
      const q = this.quantifier();
      if (atom.kind === 'char' && q.min === 1 && q.max === 1) {
        run += atom.char;
      } else if (atom.kind === 'char' && q.min >= 1) {
        run += atom.char;
        flush();
        run = atom.char;
      } else {
        flush();
        if (atom.kind === 'group' && q.min >= 1 && atom.literals) candidates.push(atom.literals);
      }
    }
    flush();
    return best(candidates);
  }

  private atom(): Atom {
    const c = this.s[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') return this.skipClass();
    if (c === '\\') return this.escape();
    this.i++;
    if (c === '.' || c === '^' || c === '$') return { kind: 'other' };
    return charAtom(c);
  }

  private group(): Atom {
    const rest = this.s.slice(this.i, this.i + 4);
    // RE2 sources have no lookaround: `(?:`, a named group or a plain group.
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?<')) this.skipPast('>');
    else if (rest.startsWith('(?')) throw new Error('unknown group');
    else this.i += 1;
    const literals = this.alternation();
    this.expect(')');
    return { kind: 'group', literals };
  }

  private skipClass(): Atom {
    this.i++;
    while (!this.atEnd() && this.s[this.i] !== ']') this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.expect(']');
    return { kind: 'other' };
  }

  private escape(): Atom {
    const next = this.s[this.i + 1];
    if (next === undefined) throw new Error('lone backslash');
    this.i += 2;
    if (SYNTAX_CHARS.has(next)) return charAtom(next);
    if ((next === 'p' || next === 'P' || next === 'x') && this.s[this.i] === '{') this.skipPast('}');
    else if (next === 'x') this.i += 2;
    return { kind: 'other' };
  }

  private quantifier(): Quantifier {
    const c = this.s[this.i];
    let q: Quantifier;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i));
      if (!m) throw new Error('bad quantifier');
      const min = Number(m[1]);
      q = { min, max: m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity };
      this.i += m[0].length - 1;
    } else {
      return ONCE;
    }
    this.i++;
    if (this.s[this.i] === '?') this.i++;
    return q;
  }

  /** Moves past the next `char` (e.g. the `]` closing a class). */
  private skipPast(char: string): void {
    const end = this.s.indexOf(char, this.i);
    if (end < 0) throw new Error(`unterminated: expected ${char}`);
    this.i = end + 1;
  }

  private expect(char: string): void {
    if (this.s[this.i] !== char) throw new Error(`expected ${char}`);
    this.i++;
  }
}

function charAtom(c: string): Atom {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e ? { kind: 'char', char: c.toLowerCase() } : { kind: 'other' };
}

/** The candidate whose shortest literal is longest (a single literal on a tie): the most selective. */
function best(candidates: readonly string[][]): string[] | null {
  let chosen: string[] | null = null;
  let score = 0;
  for (const set of candidates) {
    const shortest = Math.min(...set.map((l) => l.length));
    if (shortest < MIN_LITERAL_LENGTH) continue;
    if (shortest > score || (shortest === score && chosen !== null && set.length < chosen.length)) {
      chosen = set;
      score = shortest;
    }
  }
  return chosen;
}
