/**
 * Collects located diagnostics while a recipe is parsed: every entry carries the file path, the
 * 1-based line and column from the YAML parser's positions (seed 004 §5.4, issue 3 "Diagnostics")
 * and the field as a dotted path with list indexes in brackets (`guard[0].trigger`).
 */
import type { Diagnostic, Severity } from '../errors';
import type { YamlPosition, YamlSource } from '../shared/yaml-source';

export type YamlPath = readonly (string | number)[];

export function fieldName(path: YamlPath): string {
  let name = '';
  for (const segment of path) {
    if (typeof segment === 'number') name += `[${segment}]`;
    else name += name === '' ? segment : `.${segment}`;
  }
  return name;
}

export class RecipeDiagnostics {
  private readonly entries: Diagnostic[] = [];

  constructor(
    private readonly file: string,
    private readonly source: YamlSource | null,
  ) {}

  get list(): readonly Diagnostic[] {
    return this.entries;
  }

  hasErrors(): boolean {
    return this.entries.some((d) => d.severity === 'ERROR');
  }

  /** A problem with the value at `path` (located at the value; the key when the value is missing). */
  error(path: YamlPath, message: string): void {
    this.add('ERROR', path, message, this.valuePosition(path));
  }

  warning(path: YamlPath, message: string): void {
    this.add('WARNING', path, message, this.valuePosition(path));
  }

  /** A problem with the key itself (unknown or misplaced field): located at the key. */
  keyWarning(path: YamlPath, message: string): void {
    this.add('WARNING', path, message, this.source?.keyPosition(path) ?? this.valuePosition(path));
  }

  /** A problem at an explicit position (a template line inside a block scalar). */
  at(severity: Severity, path: YamlPath, message: string, position: YamlPosition): void {
    this.add(severity, path, message, position);
  }

  private valuePosition(path: YamlPath): YamlPosition {
    return this.source?.locate(path) ?? { line: 1, column: 1 };
  }

  private add(severity: Severity, path: YamlPath, message: string, position: YamlPosition): void {
    const field = fieldName(path);
    this.entries.push({ message, severity, path: this.file, line: position.line, column: position.column, ...(field ? { field } : {}) });
  }
}
