import { RE2JS } from 're2js';

/**
 * A compiled PATTERN trigger regex (issue 13): the one place that runs an author's regex on message
 * text. It runs on re2js, a port of RE2, whose matching time is linear in the text whatever the
 * pattern's shape — `(a{1,5})+b` on 10,000 × `a` is one pass, where a backtracking engine (V8's,
 * Java's) takes exponential time. Time is bounded by design, not by refusing shapes; constructs RE2
 * cannot run in linear time (backreferences, lookaround) are refused when the pattern is compiled
 * (java-regex.ts), and the backtracking analysis at save time (backtracking-analyser.ts) only advises.
 *
 * `source` is RE2 syntax as java-regex.ts wrote it; `analysis` is the same pattern in JavaScript
 * syntax, for the analyser (recheck reads JavaScript regexes) — it is never run on message text.
 * Compiled once per parsed skill (parse results are cached per layer); the case-sensitive twin that
 * `caseSensitive: true` needs is compiled on first use and kept.
 */
export interface JsRegexSource {
  readonly source: string;
  /** JavaScript flags, always with `u`: e.g. `iu`, `isu`. */
  readonly flags: string;
}

export class TriggerRegex {
  private casedTwin: TriggerRegex | undefined;

  private constructor(
    /** RE2 syntax. */
    readonly source: string,
    /** The letters of the flags in effect, sorted: `i` (case-insensitive), `m` (multiline), `s` (dot matches newlines). */
    readonly flags: string,
    readonly analysis: JsRegexSource,
    private readonly re: RE2JS,
  ) {}

  /** Throws re2js's RE2JSException when RE2 refuses the source (java-regex.ts turns that into a message). */
  static compile(source: string, flags: string, analysis: JsRegexSource): TriggerRegex {
    const sorted = [...new Set(flags)].sort().join('');
    return new TriggerRegex(source, sorted, analysis, RE2JS.compile(source, re2Flags(sorted)));
  }

  get ignoreCase(): boolean {
    return this.flags.includes('i');
  }

  /** Whether the regex matches anywhere in `text` (java.util.regex `find()`). */
  test(text: string): boolean {
    return this.re.test(text);
  }

  /** The text of the first match (leftmost, preferring earlier alternatives, as Java and JavaScript do), or null. */
  find(text: string): string | null {
    // test() runs on the DFA without captures; most candidates do not match, so locate only the ones that do.
    if (!this.re.test(text)) return null;
    return (this.re.exec(text)?.[0] as string | undefined) ?? null;
  }

  /** The same pattern without case-insensitivity (`caseSensitive: true`), compiled once. */
  caseSensitive(): TriggerRegex {
    if (!this.ignoreCase) return this;
    this.casedTwin ??= TriggerRegex.compile(this.source, this.flags.replace('i', ''), { ...this.analysis, flags: this.analysis.flags.replace('i', '') });
    return this.casedTwin;
  }
}

function re2Flags(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}
