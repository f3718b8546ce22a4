/**
 * The Pebble constructs real recipes use on top of nunjucks (DESIGN §10, seed 004 §5.2).
 * nunjucks itself already parses `{% elseif %}`, `{% raw %}`, `{%- -%}`, `is not …`, `~`, `in`.
 * What it lacks is added here:
 *
 * - test `empty` (Pebble's EmptyTest): null/undefined, a blank string (whitespace only), an empty
 *   array, an object without keys. Numbers and booleans are never empty.
 * - test `null`: true for null AND undefined (a missing variable is null in Pebble).
 * - test `map`: a plain object (Pebble's MapTest; nunjucks calls it `mapping`).
 * - test `matching("re")`: JavaScript regex SEARCH (unanchored, like Tera's `matching`; anchor with
 *   ^…$). A leading Java inline-flag group such as `(?i)` becomes a flag. Bounded: the pattern length
 *   and the tested text are capped; backreferences and quantified groups that contain a quantifier
 *   or an alternation (`(a+)+`, `(a|aa)*`) are refused as catastrophic-backtracking shapes.
 *   Non-string values never match (numbers and booleans are tested as their text).
 * - filter `join(sep = "", attr?)`: null/undefined gives ""; an array joins its items' text.
 * - filter `slug(sep = "-")`: NFKD, combining marks dropped, lower case, every run of characters
 *   that are not Unicode letters or digits becomes one separator, none at either end.
 * - filter `yamlIndent(width = 2)`: for embedding a multi-line value in a YAML block scalar whose
 *   first line the template already indented — line breaks are normalised to \n, and every line
 *   AFTER the first that is not empty gets `width` (0–100) spaces; empty lines stay empty so no
 *   trailing whitespace is produced. `"a\r\nb\n\nc" | yamlIndent(4)` → "a\n    b\n\n    c".
 *
 * INJECTED: serialised into the isolate as well; it must stay self-contained.
 */
import type { NjEnvironment } from './nunjucks-internals';
import type { RenderGuard } from './runtime-hardening';

export function installPebbleCompat(env: NjEnvironment, guard: RenderGuard): void {
  const isEmpty = (value: unknown): boolean => {
    if (value === null || value === undefined) return true;
    if (typeof value === 'string') return value.trim() === '';
    if (guard.isSafeString(value)) return value.val.trim() === '';
    if (Array.isArray(value)) return value.length === 0;
    if (typeof value === 'object') return Object.keys(value).length === 0;
    return false;
  };
  env.addTest('empty', (value) => isEmpty(value));
  env.addTest('null', (value) => value === null || value === undefined);
  env.addTest('map', (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && !guard.isSafeString(value));

  // Cleared when full rather than lru-cache: this code is serialised into the isolate (no imports).
  const patterns = new Map<string, RegExp>();
  const unsafeShape = (source: string): string | null => {
    const groups: { quantified: boolean; alternation: boolean }[] = [{ quantified: false, alternation: false }];
    for (let i = 0; i < source.length; i++) {
      const c = source[i];
      const top = groups[groups.length - 1]!;
      if (c === '\\') {
        const next = source[i + 1] ?? '';
        if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) return 'backreferences are not supported';
        i += 1;
      } else if (c === '[') {
        for (i += 1; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i += 1;
      } else if (c === '(') {
        groups.push({ quantified: false, alternation: false });
      } else if (c === ')') {
        const group = groups.length > 1 ? groups.pop()! : top;
        const parent = groups[groups.length - 1]!;
        const next = source[i + 1];
        const repeated = next === '*' || next === '+' || next === '{';
        if (repeated && (group.quantified || group.alternation)) return 'a repeated group may not contain a quantifier or an alternation';
        parent.quantified = parent.quantified || group.quantified || repeated;
      } else if (c === '|') {
        top.alternation = true;
      } else if (c === '*' || c === '+' || c === '{') {
        top.quantified = true;
      }
    }
    return null;
  };
  const compile = (pattern: string): RegExp => {
    const cached = patterns.get(pattern);
    if (cached) return cached;
    const limits = guard.limits();
    if (pattern.length > limits.maxPatternLength) guard.fail('FORBIDDEN', `matching: the pattern is longer than ${limits.maxPatternLength} characters`);
    let source = pattern;
    let flags = '';
    const inline = /^\(\?([imsu]+)\)/.exec(source);
    if (inline) {
      flags = Array.from(new Set(inline[1]!.split(''))).join('');
      source = source.slice(inline[0].length);
    }
    const problem = unsafeShape(source);
    if (problem) guard.fail('FORBIDDEN', `matching: ${problem}`);
    let re: RegExp;
    try {
      re = new RegExp(source, flags);
    } catch (error) {
      return guard.fail('RUNTIME', `matching: invalid regular expression (${(error as Error).message})`);
    }
    if (patterns.size >= 100) patterns.clear();
    patterns.set(pattern, re);
    return re;
  };
  env.addTest('matching', (value, pattern) => {
    if (typeof pattern !== 'string') return guard.fail('RUNTIME', 'matching: the pattern must be a string');
    const re = compile(pattern);
    const subject = typeof value === 'string' ? value
      : typeof value === 'number' || typeof value === 'boolean' ? String(value)
        : guard.isSafeString(value) ? value.val : null;
    if (subject === null) return false;
    const max = guard.limits().maxMatchInput;
    if (subject.length > max) guard.fail('RUNTIME', `matching: the tested text is longer than ${max} characters`);
    guard.charge(1 + subject.length);
    return re.test(subject);
  });

  env.addFilter('join', (value, separator, attribute) => {
    if (value === null || value === undefined) return '';
    if (!Array.isArray(value)) return guard.text(value);
    const sep = separator === null || separator === undefined ? '' : guard.text(separator);
    const max = guard.limits().maxOutput;
    let total = 0;
    const parts: string[] = [];
    for (const item of value) {
      const part = guard.text(attribute === undefined || attribute === null ? item : guard.ownValue(item, attribute));
      total += part.length + sep.length;
      if (total > max + sep.length) guard.fail('OUTPUT_LIMIT', `join: the result exceeds ${max} characters`);
      parts.push(part);
    }
    return parts.join(sep);
  });

  env.addFilter('slug', (value, separator) => {
    const sep = typeof separator === 'string' ? separator : '-';
    return guard.text(value)
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((part) => part !== '')
      .join(sep);
  });

  env.addFilter('yamlIndent', (value, width) => {
    const n = width === undefined || width === null ? 2 : Number(width);
    if (!Number.isInteger(n) || n < 0 || n > 100) return guard.fail('RUNTIME', 'yamlIndent: the width must be an integer from 0 to 100');
    const lines = guard.text(value).replace(/\r\n?/g, '\n').split('\n');
    const max = guard.limits().maxOutput;
    if (lines.length * n > max) guard.fail('OUTPUT_LIMIT', `yamlIndent: the result exceeds ${max} characters`);
    const pad = ' '.repeat(n);
    return lines.map((line, i) => (i === 0 || line === '' ? line : pad + line)).join('\n');
  });
}
