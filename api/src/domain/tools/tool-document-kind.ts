/**
 * Tool document validation by path, for `putDocument` (refuse on errors unless forced),
 * `validateDocument` and `vance lint` (issue 19). Shaped like documents/document-validator.ts's
 * DocumentKind. `.mcp.yaml` packs are another kind's (the pattern does not match them).
 */
import type { Diagnostic } from '../errors';
import { parseToolDocument } from './parse-tool-document';
import { TOOL_DOCUMENT_PATTERN } from './tool-document';
import type { ToolCatalog } from './tool-descriptor';

export interface ToolDocumentKind {
  readonly kind: 'tool';
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

/** `builtins`: the catalog of built-in tools, whose names a document may not take. */
export function toolDocumentKind(builtins?: ToolCatalog): ToolDocumentKind {
  return {
    kind: 'tool',
    pattern: TOOL_DOCUMENT_PATTERN,
    validate: (path, match, content) => [
      ...parseToolDocument({ name: match[1] ?? path, path, content }, new Set(builtins?.list().map((t) => t.name) ?? [])).diagnostics,
    ],
  };
}
