import { isScalar } from 'yaml';
import type { Diagnostic, Severity } from '../errors';
import { parseBooleanish } from '../shared/booleanish';
import type { YamlSource } from '../shared/yaml-source';
import { suggestKey } from './known-keys';
import type { SourceLocation } from './skill';

/**
 * Typed reads of frontmatter values with located diagnostics: every problem carries the document
 * path, the file line/column of the offending node (or key) and the dotted field
 * (`triggers[1].pattern`, indices 0-based like the YAML sequence). Readers never throw; they report
 * and return undefined (or a default), so one pass collects every problem of a file.
 */
export type YamlPath = readonly (string | number)[];

export function fieldName(path: YamlPath): string {
  return path.reduce<string>((name, segment) => {
    if (typeof segment === 'number') return `${name}[${segment}]`;
    return name === '' ? segment : `${name}.${segment}`;
  }, '');
}

/** What a YAML value is, for messages ("found a list"). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value === 'string' ? 'the text' : `the ${typeof value}`} '${String(value)}'`;
}

export class FrontmatterReader {
  private readonly found: Diagnostic[] = [];

  constructor(readonly source: YamlSource, readonly path: string) {}

  get diagnostics(): readonly Diagnostic[] {
    return this.found;
  }

  get errorCount(): number {
    return this.found.filter((d) => d.severity === 'ERROR').length;
  }

  location(at: YamlPath): SourceLocation {
    return this.source.locate(at);
  }

  error(at: YamlPath, message: string): void {
    this.report('ERROR', at, message);
  }

  warning(at: YamlPath, message: string): void {
    this.report('WARNING', at, message);
  }

  /** Reported at the key rather than the value (unknown or misspelt keys). */
  keyWarning(at: YamlPath, message: string): void {
    this.report('WARNING', at, message, this.source.keyPosition(at));
  }

  report(severity: Severity, at: YamlPath, message: string, position: SourceLocation = this.location(at)): void {
    this.found.push({ severity, message, path: this.path, line: position.line, column: position.column, field: fieldName(at) });
  }

  /** The source text of a scalar as written (`1.0` stays `1.0`, where the value would be the number 1). */
  raw(at: YamlPath): string | undefined {
    const node = this.source.document.getIn(at, true);
    if (!isScalar(node) || !node.range) return undefined;
    return this.source.text.slice(node.range[0], node.range[1]);
  }

  /** A free-text scalar: strings as they are, numbers and booleans as written; lists and maps are errors. */
  text(at: YamlPath, value: unknown): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return this.raw(at) ?? String(value);
    this.error(at, `\`${fieldName(at)}\` must be text, found ${describeValue(value)}.`);
    return undefined;
  }

  /** Text that must be present and not blank; trimmed. */
  requiredText(at: YamlPath, value: unknown, severity: Severity = 'ERROR', hint = ''): string | undefined {
    const text = this.text(at, value)?.trim();
    if (text) return text;
    if (value === null || value === undefined || typeof value === 'string') {
      this.report(severity, at, `\`${fieldName(at)}\` is required${value === undefined ? '' : ' and may not be empty'}.${hint ? ` ${hint}` : ''}`);
    }
    return undefined;
  }

  /** Optional text, trimmed; blank counts as absent. */
  optionalText(at: YamlPath, value: unknown): string | null {
    const text = this.text(at, value)?.trim();
    return text ? text : null;
  }

  list(at: YamlPath, value: unknown): readonly unknown[] | undefined {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value)) return value;
    this.error(at, `\`${fieldName(at)}\` must be a list, found ${describeValue(value)}.`);
    return undefined;
  }

  map(at: YamlPath, value: unknown): Readonly<Record<string, unknown>> | undefined {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    this.error(at, `\`${fieldName(at)}\` must be a map of \`key: value\` fields, found ${describeValue(value)}.`);
    return undefined;
  }

  /**
   * A list of non-empty strings. A single string is accepted as a one-element list (`activate: guard
   * clear`): every string list of the schema allows it, so authors need not remember which do.
   */
  stringList(at: YamlPath, value: unknown): string[] {
    return this.stringEntries(at, value).map((entry) => entry.value);
  }

  /** Like stringList, with each entry's own path (for per-entry diagnostics). */
  stringEntries(at: YamlPath, value: unknown): Array<{ readonly value: string; readonly at: YamlPath }> {
    if (value === null || value === undefined) return [];
    const single = typeof value === 'string';
    const entries = single ? [value] : this.list(at, value);
    if (!entries) return [];
    const result: Array<{ value: string; at: YamlPath }> = [];
    entries.forEach((entry, index) => {
      const entryAt = single ? at : [...at, index];
      const text = this.text(entryAt, entry)?.trim();
      if (text) result.push({ value: text, at: entryAt });
      else if (entry === null || typeof entry === 'string') this.error(entryAt, `\`${fieldName(entryAt)}\` is empty; remove the entry or fill it in.`);
    });
    return result;
  }

  /** DESIGN §10: true/false, yes/no, on/off, 1/0 in any case; anything else is an error naming the field. */
  booleanish(at: YamlPath, value: unknown, fallback: boolean): boolean {
    if (value === null || value === undefined) return fallback;
    const parsed = parseBooleanish(value);
    if (parsed !== undefined) return parsed;
    this.error(at, `\`${fieldName(at)}\` must be a boolean (true/false, yes/no, on/off, 1/0), found ${describeValue(value)}.`);
    return fallback;
  }

  /** One of a fixed set of words, matched case-insensitively; unknown words are errors listing the choices. */
  choice<T extends string>(at: YamlPath, value: unknown, allowed: readonly T[], fallback: T): T | undefined {
    if (value === null || value === undefined) return fallback;
    const text = typeof value === 'string' ? value.trim() : undefined;
    const match = text === undefined ? undefined : allowed.find((option) => option.toLowerCase() === text.toLowerCase());
    if (match) return match;
    this.error(at, `\`${fieldName(at)}\` must be one of ${allowed.join(', ')}, found ${describeValue(value)}.`);
    return undefined;
  }

  /** Unknown keys of a map are warnings at the key, with a "did you mean" when one is close. */
  unknownKeys(at: YamlPath, map: Readonly<Record<string, unknown>>, known: readonly string[]): void {
    for (const key of Object.keys(map)) {
      if (known.includes(key)) continue;
      const suggestion = suggestKey(key, known);
      this.keyWarning(
        [...at, key],
        `Unknown key \`${key}\`${at.length ? ` in \`${fieldName(at)}\`` : ''} is ignored.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
      );
    }
  }
}
