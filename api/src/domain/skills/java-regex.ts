import { HSPACE, POSIX, VSPACE, javaPropertyToJs } from './java-regex-classes';

/**
 * PATTERN triggers are written for java.util.regex (seed 000 §4a: `find()` on the lowercased input,
 * CASE_INSENSITIVE). This module translates the Java dialect real skills use into a JavaScript
 * RegExp with the `iu` flags, and rejects what has no JavaScript equivalent with a message an author
 * can act on. Matching itself lives with the trigger matcher; this only compiles.
 *
 * Supported: leading inline flags `(?i)`, `(?s)`, `(?m)`, `(?x)` (comments mode is expanded here),
 * combinations like `(?iu)` and `(?-i)`; mid-pattern `(?i)` / `(?i:…)` (a no-op: matching is
 * case-insensitive anyway); `\A`, `\z`, `\Z`, `\Q…\E`, `\h`, `\v`, `\R`, `\e`, `\a`, `\0nn`,
 * `\x{…}`; POSIX classes `\p{Alpha}` and friends (ASCII, as in Java), `\p{IsLatin}`, `\p{IsAlphabetic}`,
 * `\p{javaLowerCase}`; escaped punctuation that the `u` flag would otherwise refuse (`\"`, `\<`, `\#`).
 * Rejected: possessive quantifiers, atomic groups, `\G`, `\X`, class intersection/union, `(?s)` or
 * `(?m)` or `(?x)` after the start, Unicode blocks (`\p{InGreek}`).
 */
export type JavaRegexResult =
  | { readonly ok: true; readonly regex: RegExp }
  | { readonly ok: false; readonly message: string; readonly index: number };

class RegexSyntaxError extends Error {
  constructor(message: string, readonly index: number) {
    super(message);
  }
}

export function compileJavaRegex(pattern: string): JavaRegexResult {
  try {
    const { source, flags } = translate(pattern);
    try {
      return { ok: true, regex: new RegExp(source, flags) };
    } catch (error) {
      const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
      return { ok: false, message: `invalid regular expression: ${reason}`, index: 0 };
    }
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { ok: false, message: error.message, index: error.index };
    throw error;
  }
}

const LEADING_FLAGS = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/;
const INLINE_FLAG_GROUP = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/;
/** Flags whose only effect is already ours (i, u) or negligible for triggers (d: UNIX_LINES, U: Unicode classes). */
const NEUTRAL_FLAGS = new Set(['i', 'u', 'd', 'U']);
const SYNTAX_OUTSIDE = /[\\^$.*+?()[\]{}|/]/g;
const SYNTAX_INSIDE = /[\\\]^[-]/g;

interface Translation {
  readonly source: string;
  readonly flags: string;
}

function translate(pattern: string): Translation {
  const flags = new Set(['i', 'u']);
  let comments = false;
  let i = 0;
  for (let m = LEADING_FLAGS.exec(pattern); m; m = LEADING_FLAGS.exec(pattern.slice(i))) {
    for (const f of m[1] ?? '') comments = applyFlag(f, true, flags, comments, i);
    for (const f of m[2] ?? '') comments = applyFlag(f, false, flags, comments, i);
    i += m[0].length;
  }
  const scanner = new Scanner(pattern, i, comments);
  return { source: scanner.run(), flags: [...flags].sort().join('') };
}

function applyFlag(flag: string, on: boolean, flags: Set<string>, comments: boolean, index: number): boolean {
  if (NEUTRAL_FLAGS.has(flag)) return comments;
  if (flag === 'x') return on;
  if (flag === 's' || flag === 'm') {
    if (on) flags.add(flag);
    else flags.delete(flag);
    return comments;
  }
  throw new RegexSyntaxError(`unknown inline flag '${flag}' (Java knows i, d, m, s, u, x, U)`, index);
}

class Scanner {
  private out = '';
  private inClass = false;

  constructor(private readonly p: string, private i: number, private readonly comments: boolean) {}

  run(): string {
    while (this.i < this.p.length) {
      if (this.comments && this.skipComment()) continue;
      const c = this.p[this.i]!;
      if (c === '\\') this.escape();
      else if (this.inClass) this.classChar(c);
      else if (c === '[') this.openClass();
      else if (c === '(') this.group();
      else if (c === '*' || c === '+' || c === '?') this.quantifier(c.length);
      else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.p.slice(this.i))) this.quantifier(this.p.indexOf('}', this.i) - this.i + 1);
      else this.emit(c === ']' || c === '}' ? `\\${c}` : c, 1);
    }
    if (this.inClass) throw new RegexSyntaxError('unclosed character class: a `[` has no matching `]`', this.p.length);
    return this.out;
  }

  private emit(text: string, consumed: number): void {
    this.out += text;
    this.i += consumed;
  }

  /** Comments mode (`(?x)`): Java ignores whitespace and `#…` up to the end of the line, also in classes. */
  private skipComment(): boolean {
    const c = this.p[this.i]!;
    if (/\s/.test(c)) {
      this.i++;
      return true;
    }
    if (c !== '#') return false;
    const end = this.p.indexOf('\n', this.i);
    this.i = end === -1 ? this.p.length : end + 1;
    return true;
  }

  private quantifier(length: number): void {
    this.emit(this.p.slice(this.i, this.i + length), length);
    if (this.p[this.i] === '+') {
      throw new RegexSyntaxError(
        `possessive quantifier '${this.p.slice(this.i - length, this.i + 1)}' is Java-only; drop the trailing '+' (a trigger only needs to find a match)`,
        this.i,
      );
    }
    if (this.p[this.i] === '?') this.emit('?', 1);
  }

  private openClass(): void {
    this.inClass = true;
    this.emit('[', 1);
    if (this.p[this.i] === '^') this.emit('^', 1);
    // Java reads a `]` right after `[` or `[^` as a literal; JavaScript would end the class there.
    if (this.p[this.i] === ']') this.emit('\\]', 1);
  }

  private classChar(c: string): void {
    if (c === ']') {
      this.inClass = false;
      this.emit(']', 1);
    } else if (c === '[') {
      throw new RegexSyntaxError('nested character classes (class union, e.g. [a[b]]) are Java-only; list the characters in one class', this.i);
    } else if (c === '&' && this.p[this.i + 1] === '&') {
      throw new RegexSyntaxError("character class intersection '&&' is Java-only; write the resulting set explicitly", this.i);
    } else {
      this.emit(c, 1);
    }
  }

  private group(): void {
    const rest = this.p.slice(this.i);
    if (!rest.startsWith('(?')) return this.emit('(', 1);
    if (/^\(\?(:|=|!|<=|<!|<[A-Za-z])/.test(rest)) return this.emit('(?', 2);
    if (rest.startsWith('(?>')) {
      throw new RegexSyntaxError("atomic groups '(?>…)' are Java-only; use a plain group '(?:…)'", this.i);
    }
    const m = INLINE_FLAG_GROUP.exec(rest);
    if (!m) throw new RegexSyntaxError(`unsupported group construct '${rest.slice(0, 3)}'`, this.i);
    const letters = `${m[1] ?? ''}${m[2] ?? ''}`;
    const unsupported = [...letters].find((f) => !NEUTRAL_FLAGS.has(f));
    if (unsupported !== undefined) {
      throw new RegexSyntaxError(
        `inline flag '${unsupported}' is only supported at the very start of the pattern (e.g. '(?${unsupported})…')`,
        this.i,
      );
    }
    // `i` is always on (seed 000 §4a); `(?i)` is a no-op and `(?i:X)` a plain group.
    if (m[3] === ':') this.emit('(?:', m[0].length);
    else this.i += m[0].length;
  }

  private escape(): void {
    const next = this.p[this.i + 1];
    if (next === undefined) throw new RegexSyntaxError('the pattern ends with a lone backslash', this.i);
    const simple = this.simpleEscape(next);
    if (simple !== undefined) return this.emit(simple, 2);
    switch (next) {
      case 'Q':
        return this.quoted();
      case 'p':
      case 'P':
        return this.property(next === 'P');
      case '0':
        return this.octal();
      case 'x':
        return this.hex();
      default:
        return this.otherEscape(next);
    }
  }

  private simpleEscape(next: string): string | undefined {
    const onlyOutside = (text: string): string => {
      if (this.inClass) throw new RegexSyntaxError(`'\\${next}' cannot be used inside a character class`, this.i);
      return text;
    };
    switch (next) {
      case 'A':
        return onlyOutside('(?<![\\s\\S])');
      case 'z':
        return onlyOutside('(?![\\s\\S])');
      case 'Z':
        return onlyOutside('(?=(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])?(?![\\s\\S]))');
      case 'R':
        return onlyOutside('(?:\\r\\n|[\\n\\x0B\\f\\r\\u0085\\u2028\\u2029])');
      case 'h':
        return this.set(HSPACE, false);
      case 'H':
        return this.set(HSPACE, true);
      case 'v':
        return this.set(VSPACE, false);
      case 'V':
        return this.set(VSPACE, true);
      case 'e':
        return '\\x1B';
      case 'a':
        return '\\x07';
      case 'G':
        throw new RegexSyntaxError("'\\G' (end of the previous match) has no meaning for a trigger; remove it", this.i);
      case 'X':
        throw new RegexSyntaxError("'\\X' (grapheme cluster) is not supported; use '.' or a character class", this.i);
      default:
        return undefined;
    }
  }

  private quoted(): void {
    const end = this.p.indexOf('\\E', this.i + 2);
    const literal = this.p.slice(this.i + 2, end === -1 ? this.p.length : end);
    this.out += literal.replace(this.inClass ? SYNTAX_INSIDE : SYNTAX_OUTSIDE, '\\$&');
    this.i = end === -1 ? this.p.length : end + 2;
  }

  private octal(): void {
    const m = /^\\0([0-3][0-7]{2}|[0-7]{1,2})/.exec(this.p.slice(this.i));
    if (!m) throw new RegexSyntaxError("'\\0' must be followed by an octal value (e.g. '\\011')", this.i);
    this.emit(`\\u{${parseInt(m[1]!, 8).toString(16)}}`, m[0].length);
  }

  private hex(): void {
    const braced = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(this.p.slice(this.i));
    if (braced) return this.emit(`\\u{${braced[1]}}`, braced[0].length);
    this.emit('\\x', 2);
  }

  private property(negated: boolean): void {
    const braced = /^\\[pP]\{([^}]*)\}/.exec(this.p.slice(this.i));
    const single = /^\\[pP]([A-Za-z])/.exec(this.p.slice(this.i));
    const m = braced ?? single;
    if (!m) throw new RegexSyntaxError(`'\\${negated ? 'P' : 'p'}' needs a property name, e.g. '\\p{Alpha}' or '\\p{L}'`, this.i);
    const name = m[1]!;
    const posix = POSIX[name];
    if (posix !== undefined) return this.emit(this.set(posix, negated), m[0].length);
    const jsName = javaPropertyToJs(name);
    if (jsName === null) throw new RegexSyntaxError(`unsupported character property '\\p{${name}}' (Unicode blocks 'In…' have no JavaScript equivalent; use a script such as '\\p{IsGreek}')`, this.i);
    this.emit(`\\${negated ? 'P' : 'p'}{${jsName}}`, m[0].length);
  }

  /** A set given as class contents: `[…]` outside a class, the bare contents inside one. */
  private set(contents: string, negated: boolean): string {
    if (!this.inClass) return `[${negated ? '^' : ''}${contents}]`;
    if (negated) throw new RegexSyntaxError('a negated class escape cannot be used inside a character class here; write the set explicitly', this.i);
    return contents;
  }

  private otherEscape(next: string): void {
    if (/[dDsSwWtnrfbBk1-9]/.test(next)) return this.emit(`\\${next}`, 2);
    if (next === 'c' || next === 'u') return this.emit(`\\${next}`, 2);
    if (/[A-Za-z]/.test(next)) throw new RegexSyntaxError(`unknown escape '\\${next}'`, this.i);
    const char = String.fromCodePoint(this.p.codePointAt(this.i + 1)!);
    // Java lets any punctuation be escaped; with the `u` flag JavaScript accepts only syntax characters.
    const needsEscape = this.inClass ? /[\\\]^[-]/.test(char) : /[\\^$.*+?()[\]{}|/]/.test(char);
    this.emit(needsEscape ? `\\${char}` : char, 1 + char.length);
  }
}
