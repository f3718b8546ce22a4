import { isScalar } from 'yaml';
import type { Diagnostic } from '../errors';
import type { TemplateEngine, TemplateProblem } from '../templates/template-engine';
import type { FrontmatterReader } from './frontmatter-reader';
import type { Skill, SourceLocation } from './skill';

/**
 * Load-time syntax checks of a skill's templates (seed 000 §2a, §9; seed 004 §5.4): the body and
 * `action:`, through the injected TemplateEngine port. Problems come back relative to the template;
 * here they are moved to the SKILL.md's own lines and columns. Reference docs are data, never
 * templates (seed 000 §9), so they are not checked.
 */
type Origin = (problem: TemplateProblem) => SourceLocation;

export function checkBodyTemplate(templates: TemplateEngine, body: string, bodyLine: number, path: string): Diagnostic[] {
  // Body lines are file lines; columns are unchanged.
  const origin: Origin = (p) => ({ line: bodyLine + (p.line ?? 1) - 1, column: p.column ?? 1 });
  return problems(templates, body).map((p) => diagnostic(p, origin, path, 'body', 'the body'));
}

export function checkActionTemplate(templates: TemplateEngine, reader: FrontmatterReader, action: string): Diagnostic[] {
  const origin = scalarOrigin(reader, ['action']);
  return problems(templates, action).map((p) => diagnostic(p, origin, reader.path, 'action', '`action`'));
}

/**
 * A skill without `arguments:` binds nothing (seed 000 §2b): its templates see no `args`, and the rest
 * of a `/skill` line goes to the chat instead. A body or `action:` that reads `args` then always reads
 * nothing — a warning at the template, so the author learns it before a user does (issue 15).
 */
export function checkArgsWithoutArguments(templates: TemplateEngine, reader: FrontmatterReader, skill: Skill): Diagnostic[] {
  if (skill.arguments.mode !== 'NONE') return [];
  const found: Diagnostic[] = [];
  const message = (what: string) =>
    `${what} uses \`args\`, but the skill has no \`arguments:\`, so nothing is bound: the rest of a /skill line goes to the chat as the user's message. Add \`arguments: true\` (or a list) to receive it.`;
  if (uses(templates, skill.promptExtension)) found.push({ severity: 'WARNING', message: message('The body'), path: reader.path, line: skill.bodyLine, column: 1, field: 'body' });
  if (skill.action !== null && uses(templates, skill.action)) {
    found.push({ severity: 'WARNING', message: message('`action`'), path: reader.path, ...reader.location(['action']), field: 'action' });
  }
  return found;
}

function uses(templates: TemplateEngine, source: string): boolean {
  return /\{[{%]/.test(source) && templates.referencedVariables(source).has('args');
}

function problems(templates: TemplateEngine, source: string): TemplateProblem[] {
  try {
    return templates.check(source);
  } catch (error) {
    return [{ message: `the template could not be checked (${(error as Error).message})` }];
  }
}

function diagnostic(problem: TemplateProblem, origin: Origin, path: string, field: string, what: string): Diagnostic {
  const { line, column } = origin(problem);
  return { severity: 'ERROR', message: `Template syntax error in ${what}: ${problem.message}`, path, line, column, field };
}

/**
 * Where line 1, column 1 of a scalar's value is in the file. Exact for block scalars (`action: |`,
 * the usual form): content starts on the line after the indicator, shifted by its indentation.
 * For quoted and plain scalars the first line is exact and folded continuation lines approximate.
 */
function scalarOrigin(reader: FrontmatterReader, at: readonly string[]): Origin {
  const start = reader.location(at);
  const node = reader.source.document.getIn(at, true);
  if (isScalar(node) && node.range && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED')) {
    const raw = reader.source.text.slice(node.range[0], node.range[1]);
    const firstContent = raw.split('\n').slice(1).find((line) => line.trim() !== '') ?? '';
    const indent = firstContent.length - firstContent.trimStart().length;
    return (p) => ({ line: start.line + (p.line ?? 1), column: indent + (p.column ?? 1) });
  }
  const quote = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') ? 1 : 0;
  return (p) => {
    const line = p.line ?? 1;
    return { line: start.line + line - 1, column: line === 1 ? start.column + quote + (p.column ?? 1) - 1 : (p.column ?? 1) };
  };
}
