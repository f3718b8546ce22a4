/**
 * A server tool defined as a document (issue 19, seed 004 §6.2 "Server Tools"): `_vance/tools/<name>.yaml`
 * in the tenant or project layer (or bundled). It names the tool, describes it, gives its JSON-schema
 * parameters, the labels `@label` selectors match, whether it is offered deferred, and one
 * implementation Vance runs: an HTTP call or a sandboxed script. Parsing lives in
 * parse-tool-document.ts; running in document-tool.ts; `.mcp.yaml` files are MCP packs, not these.
 */
import type { UrlTemplate } from './url-template';

export const TOOLS_PREFIX = '_vance/tools/';
/** `_vance/tools/<name>.yaml` directly in the folder, not a pack (`<pack>.mcp.yaml`); group 1 is the name. */
export const TOOL_DOCUMENT_PATTERN = /^_vance\/tools\/((?:(?!\.mcp\.yaml$)[^/])+)\.yaml$/;

export function toolDocumentName(path: string): string | null {
  if (path.endsWith('.mcp.yaml')) return null;
  return TOOL_DOCUMENT_PATTERN.exec(path)?.[1] ?? null;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A header value: literal text with `{setting:<key>}` references, resolved at call time. */
export interface HeaderTemplate {
  readonly name: string;
  readonly parts: readonly ({ readonly text: string } | { readonly setting: string })[];
}

export interface HttpImplementation {
  readonly kind: 'HTTP';
  readonly method: HttpMethod;
  readonly url: UrlTemplate;
  readonly headers: readonly HeaderTemplate[];
  /** POST/PUT/PATCH: the arguments not used in the URL are sent as a JSON body. */
  readonly body: boolean;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export interface ScriptImplementation {
  readonly kind: 'SCRIPT';
  /** JavaScript run in the sandbox as skill scripts run (seed 000 §13.4): the arguments are the global `args`. */
  readonly source: string;
  readonly timeoutMs: number;
}

export type ToolImplementation = HttpImplementation | ScriptImplementation;

export interface ToolDocument {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Lower-cased, without `@`. */
  readonly labels: readonly string[];
  readonly deferred: boolean;
  readonly implementation: ToolImplementation;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;
export const MAX_HTTP_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;
