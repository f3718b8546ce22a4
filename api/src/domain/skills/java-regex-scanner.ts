import { HSPACE, POSIX, VSPACE, javaProperty, jsClass } from './java-regex-classes';

/**
 * The Java → RE2 translation of java-regex.ts, one pass over the pattern that writes two texts: `re2`
 * (what runs) and `js`, the same pattern in JavaScript `u`-mode syntax for the backtracking analyser
 * (recheck reads JavaScript). They differ only where the dialects spell a construct differently
 * (`\A`, `\z`, code points, script names); everything else is written once into both.
 */
export class RegexSyntaxError extends Error {
  constructor(message: string, readonly index: number) {
    super(message);
  }
}

export interface Translation {
  readonly re2: string;
  readonly js: string;
  /** `i` always (seed 000 §4a), plus `s` / `m` from leading inline flags; sorted. */
  readonly flags: string;
}

/** Why the rejected constructs are rejected; every such message names the construct first. */
const LINEAR = 'trigger patterns run on a linear-time engine (RE2)';
const LOOKAROUND: Readonly<Record<string, string>> = {
  '=': `lookahead \`(?=\` is not supported: ${LINEAR}. To require more text, add it as a secondary trigger (\`secondaryTriggers\` with \`selectiveLogic: AND ALL\`).`,
  '!': `negative lookahead \`(?!\` is not supported: ${LINEAR}. To exclude text, add it as a secondary trigger with \`selectiveLogic: NOT ANY\`.`,
  '<=': `lookbehind \`(?<=\` is not supported: ${LINEAR}. Match the preceding text as part of the pattern instead.`,
  '<!': `negative lookbehind \`(?<!\` is not supported: ${LINEAR}. To exclude text, add it as a secondary trigger with \`selectiveLogic: NOT ANY\`.`,
};
/** RE2's limit on a repetition count. */
const MAX_REPEAT = 1000;

const LEADING_FLAGS = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/;
const INLINE_FLAG_GROUP = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/;
const QUANTIFIER_BRACE = /^\{(\d+)(?:,(\d*))?\}/;
/** Flags whose only effect is already ours (i, u) or negligible for triggers (d: UNIX_LINES, U: Unicode classes). */
const NEUTRAL_FLAGS = new Set(['i', 'u', 'd', 'U']);
const SYNTAX_OUTSIDE = /[\\^$.*+?()[\]{}|/]/g;
const SYNTAX_INSIDE = /[\\\]^[-]/g;
/** `.` without `(?s)`, as the JavaScript translation had it: anything but \n, \r, U+2028, U+2029 (RE2's `.` stops only at \n). */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** Text written into both outputs, or a pair where the dialects differ. */
type Out = string | { readonly re2: string; readonly js: string };

export function translateJavaRegex(pattern: string): Translation {
  const flags = new Set(['i']);
  let comments = false;
  let i = 0;
  for (let m = LEADING_FLAGS.exec(pattern); m; m = LEADING_FLAGS.exec(pattern.slice(i))) {
    for (const f of m[1] ?? '') comments = applyFlag(f, true, flags, comments, i);
    for (const f of m[2] ?? '') comments = applyFlag(f, false, flags, comments, i);
    i += m[0].length;
  }
  const scanner = new Scanner(pattern, i, comments, flags.has('s'));
  scanner.run();
  return { re2: scanner.re2, js: scanner.js, flags: [...flags].sort().join('') };
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

function codePoint(code: number): Out {
  const hex = code.toString(16).toUpperCase();
  return { re2: `\\x{${hex}}`, js: `\\u{${hex}}` };
}

class Scanner {
  re2 = '';
  js = '';
  private inClass = false;

  constructor(private readonly p: string, private i: number, private readonly comments: boolean, private readonly dotAll: boolean) {}

  run(): void {
    while (this.i < this.p.length) {
      if (this.comments && this.skipComment()) continue;
      const c = this.p[this.i]!;
      if (c === '\\') this.escape();
      else if (this.inClass) this.classChar(c);
      else if (c === '[') this.openClass();
      else if (c === '(') this.group();
      else if (c === '.') this.emit(this.dotAll ? '.' : { re2: DOT, js: '.' }, 1);
      else if (c === '*' || c === '+' || c === '?') this.quantifier(1);
      else if (c === '{') this.brace();
      else this.emit(c === ']' || c === '}' ? `\\${c}` : c, 1);
    }
    if (this.inClass) throw new RegexSyntaxError('unclosed character class: a `[` has no matching `]`', this.p.length);
  }

  private emit(out: Out, consumed: number): void {
    this.re2 += typeof out === 'string' ? out : out.re2;
    this.js += typeof out === 'string' ? out : out.js;
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

  private brace(): void {
    const m = QUANTIFIER_BRACE.exec(this.p.slice(this.i));
    if (!m) throw new RegexSyntaxError("a '{' must start a repetition such as '{2}' or '{1,3}'; write '\\{' for a literal brace", this.i);
    if (Number(m[1]) > MAX_REPEAT || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > MAX_REPEAT)) {
      throw new RegexSyntaxError(`the repetition '${m[0]}' counts past ${MAX_REPEAT}, RE2's limit; use '+' or '*' for "many"`, this.i);
    }
    this.quantifier(m[0].length);
  }

  private quantifier(length: number): void {
    this.emit(this.p.slice(this.i, this.i + length), length);
    if (this.p[this.i] === '+') {
      throw new RegexSyntaxError(
        `possessive quantifier \`${this.p.slice(this.i - length, this.i + 1)}\` is not supported: ${LINEAR}. Drop the trailing '+' (a trigger only needs to find a match).`,
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
    const look = /^\(\?(<=|<!|=|!)/.exec(rest);
    if (look) throw new RegexSyntaxError(LOOKAROUND[look[1]!]!, this.i);
    // `(?:` and named groups `(?<name>` read the same in RE2 and JavaScript.
    if (/^\(\?(:|<[A-Za-z])/.test(rest)) return this.emit('(?', 2);
    if (rest.startsWith('(?>')) throw new RegexSyntaxError(`atomic group \`(?>\` is not supported: ${LINEAR}. Use a plain group \`(?:…)\`.`, this.i);
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
      case 'u':
        return this.unicode();
      case 'c':
        return this.control();
      case 'k':
        return this.namedBackreference();
      default:
        return this.otherEscape(next);
    }
  }

  private simpleEscape(next: string): Out | undefined {
    const onlyOutside = (out: Out): Out => {
      if (this.inClass) throw new RegexSyntaxError(`'\\${next}' cannot be used inside a character class`, this.i);
      return out;
    };
    switch (next) {
      case 'A':
        return onlyOutside({ re2: '\\A', js: '(?<![\\s\\S])' });
      case 'z':
        return onlyOutside({ re2: '\\z', js: '(?![\\s\\S])' });
      case 'Z':
        // RE2 has no "end, or before a final line break": match the line break (a trigger only needs the match to exist).
        return onlyOutside({ re2: '(?:\\r\\n|[\\n\\r\\x85\\x{2028}\\x{2029}])?\\z', js: '(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?(?![\\s\\S])' });
      case 'R':
        return onlyOutside({ re2: `(?:\\r\\n|[${VSPACE}])`, js: `(?:\\r\\n|[${jsClass(VSPACE)}])` });
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
    this.emit(literal.replace(this.inClass ? SYNTAX_INSIDE : SYNTAX_OUTSIDE, '\\$&'), 0);
    this.i = end === -1 ? this.p.length : end + 2;
  }

  private octal(): void {
    const m = /^\\0([0-3][0-7]{2}|[0-7]{1,2})/.exec(this.p.slice(this.i));
    if (!m) throw new RegexSyntaxError("'\\0' must be followed by an octal value (e.g. '\\011')", this.i);
    this.emit(codePoint(parseInt(m[1]!, 8)), m[0].length);
  }

  private hex(): void {
    const braced = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(this.p.slice(this.i));
    if (braced) return this.emit(codePoint(parseInt(braced[1]!, 16)), braced[0].length);
    const plain = /^\\x[0-9a-fA-F]{2}/.exec(this.p.slice(this.i));
    if (!plain) throw new RegexSyntaxError("'\\x' must be followed by two hex digits or '{…}' (e.g. '\\x41', '\\x{1F600}')", this.i);
    this.emit(plain[0], plain[0].length);
  }

  /** `\uhhhh`; a surrogate pair written as two escapes is one code point, as in Java. */
  private unicode(): void {
    const m = /^\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?/.exec(this.p.slice(this.i));
    if (!m) throw new RegexSyntaxError("'\\u' must be followed by four hex digits (e.g. '\\u00e4')", this.i);
    const high = parseInt(m[1]!, 16);
    if (m[2] !== undefined && high >= 0xd800 && high <= 0xdbff) {
      return this.emit(codePoint(((high - 0xd800) << 10) + (parseInt(m[2], 16) - 0xdc00) + 0x10000), m[0].length);
    }
    this.emit(codePoint(high), 6);
  }

  /** `\cX`: the control character X xor 64, as Java reads it. */
  private control(): void {
    const x = this.p[this.i + 2];
    if (x === undefined) throw new RegexSyntaxError("'\\c' must be followed by a character (e.g. '\\cJ')", this.i);
    this.emit(codePoint(x.charCodeAt(0) ^ 64), 3);
  }

  private namedBackreference(): void {
    const m = /^\\k<[^>]*>/.exec(this.p.slice(this.i));
    if (!m) throw new RegexSyntaxError("unknown escape '\\k'", this.i);
    throw new RegexSyntaxError(`backreference \`${m[0]}\` is not supported: ${LINEAR}. Spell out the text that should repeat.`, this.i);
  }

  private property(negated: boolean): void {
    const braced = /^\\[pP]\{([^}]*)\}/.exec(this.p.slice(this.i));
    const single = /^\\[pP]([A-Za-z])/.exec(this.p.slice(this.i));
    const m = braced ?? single;
    if (!m) throw new RegexSyntaxError(`'\\${negated ? 'P' : 'p'}' needs a property name, e.g. '\\p{Alpha}' or '\\p{L}'`, this.i);
    const name = m[1]!;
    const posix = POSIX[name];
    if (posix !== undefined) return this.emit(this.set(posix, negated), m[0].length);
    const names = javaProperty(name);
    if (names === null) throw new RegexSyntaxError(`unsupported character property '\\p{${name}}' (Unicode blocks 'In…' and some properties have no RE2 equivalent; use a script such as '\\p{IsGreek}' or a category such as '\\p{L}')`, this.i);
    const p = negated ? 'P' : 'p';
    this.emit({ re2: `\\${p}{${names.re2}}`, js: `\\${p}{${names.js}}` }, m[0].length);
  }

  /** A set given as class contents (RE2 syntax): `[…]` outside a class, the bare contents inside one. */
  private set(contents: string, negated: boolean): Out {
    if (!this.inClass) return { re2: `[${negated ? '^' : ''}${contents}]`, js: `[${negated ? '^' : ''}${jsClass(contents)}]` };
    if (negated) throw new RegexSyntaxError('a negated class escape cannot be used inside a character class here; write the set explicitly', this.i);
    return { re2: contents, js: jsClass(contents) };
  }

  private otherEscape(next: string): void {
    if (/[1-9]/.test(next)) {
      const ref = /^\\[1-9][0-9]*/.exec(this.p.slice(this.i))![0];
      throw new RegexSyntaxError(`backreference \`${ref}\` is not supported: ${LINEAR}. Spell out the text that should repeat.`, this.i);
    }
    if (/[dDsSwWtnrfbB]/.test(next)) return this.emit(`\\${next}`, 2);
    if (/[A-Za-z]/.test(next)) throw new RegexSyntaxError(`unknown escape '\\${next}'`, this.i);
    const char = String.fromCodePoint(this.p.codePointAt(this.i + 1)!);
    // Java lets any character be escaped; JavaScript's `u` mode (the analyser's twin) accepts only syntax characters.
    const needsEscape = this.inClass ? /[\\\]^[-]/.test(char) : /[\\^$.*+?()[\]{}|/]/.test(char);
    this.emit(needsEscape ? `\\${char}` : char, 1 + char.length);
  }
}
