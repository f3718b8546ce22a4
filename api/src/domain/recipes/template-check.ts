/**
 * Compile-validation of recipe templates at load (seed 004 §5.4): `promptPrefix` and each profile's
 * `promptPrefixAppend` go through TemplateEngine.check, and a syntax error is reported at its line
 * in the FILE: the template's own line plus the offset of the scalar's content. For block scalars
 * (`|`, the usual form) the mapping is exact for literal blocks; folded (`>`) and multi-line flow
 * scalars fold lines, so there it points at the nearest line. A template reached through an alias
 * (`promptPrefixAppend: *stance`) is located at its anchor, where the text actually is.
 * Security (no calls, caps) is the render-time boundary of the engine adapter (seed 004 §5.2).
 */
import { isAlias, isScalar, Scalar } from 'yaml';
import type { TemplateEngine } from '../templates/template-engine';
import type { YamlPosition, YamlSource } from '../shared/yaml-source';
import { fieldName, type RecipeDiagnostics, type YamlPath } from './recipe-diagnostics';

type LineMapper = (line?: number, column?: number) => YamlPosition;

export function checkTemplate(
  d: RecipeDiagnostics, source: YamlSource, templates: TemplateEngine, path: YamlPath, template: string,
): void {
  let problems;
  try {
    problems = templates.check(template);
  } catch (error) {
    problems = [{ message: error instanceof Error ? error.message : String(error) }];
  }
  if (problems.length === 0) return;
  const map = templateLineMapper(source, path);
  for (const problem of problems) {
    d.at('ERROR', path, `${fieldName(path)} is not a valid template: ${problem.message}`, map(problem.line, problem.column));
  }
}

/** Maps a 1-based template position to the 1-based file position. */
export function templateLineMapper(source: YamlSource, path: YamlPath): LineMapper {
  let node: unknown = source.document.getIn(path, true);
  if (isAlias(node)) node = node.resolve(source.document);
  if (!isScalar(node) || !node.range) {
    const fallback = source.locate(path);
    return () => fallback;
  }
  const start = positionOf(source.text, node.range[0]);
  if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
    const indent = blockIndent(source.text, start.line);
    return (line, column) => (line === undefined ? start : { line: start.line + line, column: indent + (column ?? 1) });
  }
  const quote = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE ? 1 : 0;
  return (line = 1, column = 1) =>
    line === 1 ? { line: start.line, column: start.column + quote + column - 1 } : { line: start.line + line - 1, column };
}

function positionOf(text: string, offset: number): YamlPosition {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

/** The indentation of a block scalar's content: that of its first non-blank line. */
function blockIndent(text: string, headerLine: number): number {
  const lines = text.split('\n');
  for (let i = headerLine; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '') return line.length - line.trimStart().length;
  }
  return 0;
}
