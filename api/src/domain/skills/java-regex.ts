import { RE2JSException } from 're2js';
import { RegexSyntaxError, translateJavaRegex } from './java-regex-scanner';
import { TriggerRegex } from './trigger-regex';

/**
 * PATTERN triggers are written for java.util.regex (seed 000 §4a: `find()` on the lowercased input,
 * CASE_INSENSITIVE). This module translates the Java dialect real skills use into RE2 syntax and
 * compiles it with re2js (trigger-regex.ts: linear-time matching, issue 13), and rejects what has no
 * RE2 equivalent with a message an author can act on. Matching itself lives with the trigger
 * matcher; this only compiles. The translation (java-regex-scanner.ts) also writes the same pattern
 * in JavaScript syntax, for the backtracking analyser.
 *
 * Supported: leading inline flags `(?i)`, `(?s)`, `(?m)`, `(?x)` (comments mode is expanded here),
 * combinations like `(?iu)` and `(?-i)`; mid-pattern `(?i)` / `(?i:…)` (a no-op: matching is
 * case-insensitive anyway); named groups; lazy quantifiers; `\A`, `\z`, `\Z`, `\Q…\E`, `\h`, `\v`,
 * `\R`, `\e`, `\a`, `\cX`, `\0nn`, `\uhhhh`, `\x{…}`; POSIX classes `\p{Alpha}` and friends (ASCII, as
 * in Java), `\p{IsLatin}`, `\p{IsAlphabetic}`, `\p{javaLowerCase}`; escaped punctuation (`\"`, `\<`).
 * Rejected, because RE2 cannot run them in linear time: backreferences (`\1`, `\k<name>`),
 * lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`), possessive quantifiers (`a++`) and
 * atomic groups (`(?>…)`); and, as before: `\G`, `\X`, class intersection/union, `(?s)` or `(?m)` or
 * `(?x)` after the start, Unicode blocks (`\p{InGreek}`), a `{` that starts no repetition.
 *
 * Semantics kept from the JavaScript translation this replaces: `.` stops at `\n`, `\r`, U+2028 and
 * U+2029 (unless `(?s)`). Differences, all towards Java: `\w`, `\d`, `\s` and `\b` are ASCII (as in
 * Java without UNICODE_CHARACTER_CLASS; JavaScript's `\s` knew Unicode spaces); under `(?m)` only
 * `\n` ends a line for `^` and `$`. Repetition counts go up to 1000 (RE2's limit).
 */
export type JavaRegexResult =
  | { readonly ok: true; readonly regex: TriggerRegex }
  /** `index`: the 0-based character of the pattern at fault, null when only the engine knows. */
  | { readonly ok: false; readonly message: string; readonly index: number | null };

export function compileJavaRegex(pattern: string): JavaRegexResult {
  let translation: ReturnType<typeof translateJavaRegex>;
  try {
    translation = translateJavaRegex(pattern);
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { ok: false, message: error.message, index: error.index };
    throw error;
  }
  const { re2, js, flags } = translation;
  try {
    return { ok: true, regex: TriggerRegex.compile(re2, flags, { source: js, flags: [...flags, 'u'].sort().join('') }) };
  } catch (error) {
    // What RE2 itself refuses: an unbalanced group, a missing operand, a repetition nested past its limit.
    if (error instanceof RE2JSException) return { ok: false, message: `invalid regular expression: ${engineMessage(error.message)}`, index: null };
    throw error;
  }
}

/** re2js's message without its prefix and the flag group it puts before the pattern it quotes. */
function engineMessage(message: string): string {
  return message.replace(/^error parsing regexp: /, '').replace(/`\(\?[imsU]+\)/, '`');
}
