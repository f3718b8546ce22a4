/**
 * Typed readers for recipe fields over the plain YAML value: each reports a located, actionable
 * diagnostic and returns a safe fallback, so one bad field never hides the others' diagnostics.
 * Booleans follow DESIGN §10 (parseBooleanish); single strings are accepted where a list is
 * expected (`tenants: acme`), the way seed 004 §5c treats stopSequences.
 */
import { parseBooleanish } from '../shared/booleanish';
import { selectorProblem } from '../tools/select';
import { fieldName, type RecipeDiagnostics, type YamlPath } from './recipe-diagnostics';

export type PlainMap = Record<string, unknown>;

export function isPlainMap(value: unknown): value is PlainMap {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

/** Own entries only; a `__proto__` key stays a plain data key (Object.fromEntries). */
export function copyMap(value: PlainMap): PlainMap {
  return Object.fromEntries(Object.entries(value));
}

export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isPlainMap(value)) return 'a map';
  return `'${String(value)}'`;
}

/** A text scalar: strings as they are, numbers and booleans as their text. null when absent. */
export function readText(d: RecipeDiagnostics, value: unknown, path: YamlPath): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  d.error(path, `${fieldName(path)} must be text, not ${describe(value)}`);
  return null;
}

/** Trimmed text; null when absent or blank. */
export function readName(d: RecipeDiagnostics, value: unknown, path: YamlPath): string | null {
  const text = readText(d, value, path)?.trim();
  return text ? text : null;
}

export function readBoolean(d: RecipeDiagnostics, value: unknown, path: YamlPath, fallback: boolean): boolean {
  if (value === null || value === undefined) return fallback;
  const parsed = parseBooleanish(value);
  if (parsed !== undefined) return parsed;
  d.error(path, `${fieldName(path)} must be a boolean (true/false, yes/no, on/off, 1/0), not ${describe(value)}`);
  return fallback;
}

export function readMap(d: RecipeDiagnostics, value: unknown, path: YamlPath): PlainMap | null {
  if (value === null || value === undefined) return null;
  if (isPlainMap(value)) return copyMap(value);
  d.error(path, `${fieldName(path)} must be a map of key: value entries, not ${describe(value)}`);
  return null;
}

/**
 * A list of non-blank strings, trimmed, duplicates dropped; a single scalar counts as a list of one.
 * `check` returns a problem for an entry (reported as an ERROR at the entry, which is dropped).
 */
export function readStringList(
  d: RecipeDiagnostics, value: unknown, path: YamlPath, check: (entry: string) => string | null = () => null,
): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const result: string[] = [];
  // A Set, not result.includes: an 80,000-entry allowedSkills took 32 s with the quadratic check (issue 13).
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const itemPath = Array.isArray(value) ? [...path, index] : path;
    if (isPlainMap(item) || Array.isArray(item)) {
      d.error(itemPath, `${fieldName(itemPath)} must be a name, not ${describe(item)} (check the indentation)`);
      return;
    }
    const text = item === null || item === undefined ? '' : String(item).trim();
    const problem = text === '' ? 'is empty; remove the entry or give a name' : check(text);
    if (problem !== null) d.error(itemPath, `${fieldName(itemPath)} ${problem}`);
    else if (!seen.has(text)) {
      seen.add(text);
      result.push(text);
    }
  });
  return result;
}

/** Tool entries: names, `@label` selectors or `prefix*` patterns (seed 004 §2, §6.2). */
export function readToolList(d: RecipeDiagnostics, value: unknown, path: YamlPath): string[] {
  return readStringList(d, value, path, (entry) => {
    const problem = selectorProblem(entry);
    return problem === null ? null : `is not a tool entry: ${problem}`;
  });
}

/** One of `allowed`, compared after `normalize`; unknown values are errors (no silent fallback). */
export function readEnum<T extends string>(
  d: RecipeDiagnostics, value: unknown, path: YamlPath,
  allowed: readonly T[], fallback: T, normalize: (text: string) => string,
): T {
  if (value === null || value === undefined) return fallback;
  const text = typeof value === 'string' ? normalize(value.trim()) : null;
  const hit = allowed.find((candidate) => candidate === text);
  if (hit) return hit;
  d.error(path, `${fieldName(path)} must be one of ${allowed.join(', ')}, not ${describe(value)}`);
  return fallback;
}

/** An integer ≥ 1 (numbers or numeric text). */
export function readPositiveInt(d: RecipeDiagnostics, value: unknown, path: YamlPath): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number === 'number' && Number.isInteger(number) && number >= 1) return number;
  d.error(path, `${fieldName(path)} must be a whole number of at least 1, not ${describe(value)}`);
  return null;
}
