/**
 * Engine prompt documents (`_vance/prompts/<engine>-prompt.md`, engine-prompts.ts) are templates
 * every turn of the engine renders: a syntax error is refused at save with its line, as for a
 * recipe's promptPrefix (seed 004 §5.4), instead of failing each turn. A prompt for an engine that
 * does not run here is a warning: nothing reads it. Shaped like documents/document-validator.ts's
 * DocumentKind (structurally, so this folder does not depend on that one).
 */
import type { Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import { ENGINE_NAMES, isKnownEngine } from './engine-names';

/** `_vance/prompts/<engine>-prompt.md`; group 1 is the engine. */
export const ENGINE_PROMPT_PATH_PATTERN = /^_vance\/prompts\/([^/]+)-prompt\.md$/;

export interface EnginePromptDocumentKind {
  readonly kind: 'engine-prompt';
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

export function enginePromptDocumentKind(templates?: TemplateEngine): EnginePromptDocumentKind {
  return {
    kind: 'engine-prompt',
    pattern: ENGINE_PROMPT_PATH_PATTERN,
    validate: (path, match, content) => {
      const engine = match[1] ?? '';
      const diagnostics: Diagnostic[] = isKnownEngine(engine) ? [] : [{
        severity: 'WARNING', path, line: 1, column: 1,
        message: `No engine '${engine}' runs here (engines: ${ENGINE_NAMES.join(', ')}); no turn uses this prompt.`,
      }];
      for (const problem of templates?.check(content) ?? []) {
        diagnostics.push({
          severity: 'ERROR', path, message: `The prompt does not compile as a template: ${problem.message}`,
          ...(problem.line ? { line: problem.line } : {}), ...(problem.column ? { column: problem.column } : {}),
        });
      }
      return diagnostics;
    },
  };
}
