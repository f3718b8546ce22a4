/**
 * MCP pack documents as the write-time validator and `vance lint` see them (documents/document-validator.ts's
 * DocumentKind, structurally). Listed before any `_vance/tools/<name>.yaml` kind: first match wins.
 */
import type { Diagnostic } from '../errors';
import { MCP_PACK_PATH_PATTERN, parseMcpPack } from './mcp-pack';

export interface McpPackDocumentKind {
  readonly kind: 'mcp-pack';
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

export function mcpPackDocumentKind(): McpPackDocumentKind {
  return {
    kind: 'mcp-pack',
    pattern: MCP_PACK_PATH_PATTERN,
    validate: (path, _match, content) => [...parseMcpPack(path, content).diagnostics],
  };
}
