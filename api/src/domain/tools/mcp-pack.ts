/**
 * An MCP tool pack document (`_vance/tools/<pack>.mcp.yaml`, issue 19 part 2, seed 004 §6.2): one MCP
 * server whose tools join the turn's catalog under the labels `mcp`, `mcp:<pack>` and the pack's own.
 * This module owns the typed model and its parser (pure: YAML in, model + located diagnostics out);
 * the connection, its pool and the calls live in the adapter (`api/src/mcp/`). The parser is what
 * `vance lint`, the write-time validator and the adapter all use, so the three never disagree.
 *
 * The pack's name comes from the file name, never from a field; it prefixes every tool name
 * (mcp-tool-names.ts), so it is held to the characters every provider accepts in a tool name.
 */
import type { Diagnostic } from '../errors';
import { fieldName, RecipeDiagnostics } from '../recipes/recipe-diagnostics';
import { describe, isPlainMap, readBoolean, readName, readPositiveInt, readStringList, type PlainMap } from '../recipes/read-fields';
import { YamlSource } from '../shared/yaml-source';

/** `_vance/tools/<pack>.mcp.yaml`; group 1 is the pack. Checked before the server-tool pattern (`<name>.yaml`). */
export const MCP_PACK_PATH_PATTERN = /^_vance\/tools\/([^/]+)\.mcp\.yaml$/;
export const MCP_PACK_PREFIX = '_vance/tools/';
export const MCP_PACK_SUFFIX = '.mcp.yaml';
/** Short enough to leave room for the tool's own name inside the 64 characters providers allow. */
export const PACK_NAME = /^[a-z0-9][a-z0-9_-]{0,23}$/;

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 5_000;
export const MAX_MCP_TIMEOUT_MS = 600_000;
/** A turn waits for its packs' connects: a minute at most. */
export const MAX_MCP_CONNECT_TIMEOUT_MS = 60_000;
const MAX_HEADERS = 32;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

/** A header value: literal text, or the value of a setting (optionally after a prefix such as `Bearer `). */
export type McpHeaderValue =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'setting'; readonly setting: string; readonly prefix: string };

export type McpServerSpec =
  | { readonly transport: 'http'; readonly url: string; readonly headers: Readonly<Record<string, McpHeaderValue>> }
  /** Runs a local process; only where the tenant policy allows it (`tools.mcp.allowStdio`, off by default). */
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] };

export interface McpPack {
  readonly name: string;
  readonly description: string | null;
  readonly server: McpServerSpec;
  /** The pack's own labels, lower-case; `mcp` and `mcp:<pack>` are added to every tool (mcpToolLabels). */
  readonly labels: readonly string[];
  /** Per tool call. */
  readonly timeoutMs: number;
  /** Connect + initialize + tools/list. */
  readonly connectTimeoutMs: number;
  /** When non-empty: only these of the server's tool names (the server's names, not the catalog's). */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Offered without schemas; reached through tool_list/tool_describe (seed 004 §6). */
  readonly deferred: boolean;
}

export interface ParseMcpPackResult {
  /** null on any ERROR, and when disabled. */
  readonly pack: McpPack | null;
  readonly diagnostics: readonly Diagnostic[];
  /** false: `enabled: false` hides this pack and every outer copy. */
  readonly enabled: boolean;
}

const FIELDS = ['description', 'url', 'command', 'args', 'headers', 'labels', 'timeoutMs', 'connectTimeoutMs', 'include', 'exclude', 'deferred', 'enabled'];
const LABEL = /^[a-z0-9][a-z0-9:_-]*$/;

export function packNameOf(path: string): string | null {
  return MCP_PACK_PATH_PATTERN.exec(path)?.[1] ?? null;
}

export function mcpPackPath(pack: string): string {
  return `${MCP_PACK_PREFIX}${pack}${MCP_PACK_SUFFIX}`;
}

/** The labels every tool of `pack` carries (seed 004 §6.2). */
export function mcpToolLabels(pack: McpPack): string[] {
  return [...new Set(['mcp', `mcp:${pack.name}`, ...pack.labels])];
}

export function parseMcpPack(path: string, content: string): ParseMcpPackResult {
  const source = new YamlSource(content);
  const d = new RecipeDiagnostics(path, source);
  const failed = (enabled = true): ParseMcpPackResult => ({ pack: null, diagnostics: d.list, enabled });
  if (source.errors.length > 0) {
    for (const e of source.errors) d.at('ERROR', [], `YAML: ${e.message}`, e);
    return failed();
  }
  const name = packNameOf(path) ?? '';
  if (!PACK_NAME.test(name)) {
    d.error([], `The pack name '${name}' (from the file name) must be 1-24 characters of a-z, 0-9, '-' and '_', starting with a letter or digit: it prefixes every tool name`);
  }
  const raw = source.toJS();
  if (!isPlainMap(raw)) {
    d.error([], `An MCP pack is a map of fields (url, labels, …), not ${raw === null || raw === undefined ? 'an empty document' : describe(raw)}`);
    return failed();
  }
  for (const key of Object.keys(raw)) if (!FIELDS.includes(key)) d.keyWarning([key], `Unknown field '${key}' (fields: ${FIELDS.join(', ')}); it is ignored`);
  const enabled = readBoolean(d, raw['enabled'], ['enabled'], true);
  const server = readServer(d, raw);
  const labels = readStringList(d, raw['labels'], ['labels'], (l) => (LABEL.test(l.toLowerCase()) ? null : 'must be a label of a-z, 0-9, ":", "_" and "-" (without "@")'))
    .map((l) => l.toLowerCase());
  const timeoutMs = readTimeout(d, raw, 'timeoutMs', DEFAULT_MCP_CALL_TIMEOUT_MS, MAX_MCP_TIMEOUT_MS);
  const connectTimeoutMs = readTimeout(d, raw, 'connectTimeoutMs', DEFAULT_MCP_CONNECT_TIMEOUT_MS, MAX_MCP_CONNECT_TIMEOUT_MS);
  const include = readStringList(d, raw['include'], ['include']);
  const exclude = readStringList(d, raw['exclude'], ['exclude']);
  const deferred = readBoolean(d, raw['deferred'], ['deferred'], false);
  const description = readName(d, raw['description'], ['description']);
  if (d.hasErrors() || !server) return failed(enabled);
  if (!enabled) return failed(false);
  return {
    pack: Object.freeze({ name, description, server, labels, timeoutMs, connectTimeoutMs, include, exclude, deferred }),
    diagnostics: d.list, enabled,
  };
}

function readServer(d: RecipeDiagnostics, raw: PlainMap): McpServerSpec | null {
  const hasUrl = raw['url'] !== undefined && raw['url'] !== null;
  const hasCommand = raw['command'] !== undefined && raw['command'] !== null;
  if (hasUrl === hasCommand) {
    d.error(hasUrl ? ['command'] : [], hasUrl
      ? 'Give either url (a streamable HTTP server) or command (a stdio server), not both'
      : 'An MCP pack needs a server: url (streamable HTTP) or command (stdio, where the tenant allows it)');
    return null;
  }
  if (hasUrl) {
    const url = readUrl(d, raw['url']);
    const headers = readHeaders(d, raw['headers']);
    if (raw['args'] !== undefined) d.keyWarning(['args'], 'args belongs to a stdio server (command); it is ignored with url');
    return url && headers ? { transport: 'http', url, headers } : null;
  }
  const command = readName(d, raw['command'], ['command']);
  const args = Array.isArray(raw['args']) || raw['args'] === undefined || raw['args'] === null
    ? ((raw['args'] as unknown[] | undefined) ?? []).map((a, i) => {
      if (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean') return String(a);
      d.error(['args', i], `args[${i}] must be text, not ${describe(a)}`);
      return '';
    })
    : (d.error(['args'], `args must be a list of arguments, not ${describe(raw['args'])}`), []);
  if (raw['headers'] !== undefined) d.keyWarning(['headers'], 'headers belong to an HTTP server (url); they are ignored with command');
  return command ? { transport: 'stdio', command, args } : null;
}

function readUrl(d: RecipeDiagnostics, value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') {
    d.error(['url'], `url must be the server's http(s) address, not ${describe(value)}`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    d.error(['url'], `url '${value}' is not a valid URL`);
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    d.error(['url'], `url must be http or https (streamable HTTP), not '${url.protocol}'`);
    return null;
  }
  if (url.username || url.password) {
    d.error(['url'], 'url must not carry credentials; give them as headers from settings');
    return null;
  }
  return url.href;
}

function readHeaders(d: RecipeDiagnostics, value: unknown): Record<string, McpHeaderValue> | null {
  if (value === undefined || value === null) return {};
  if (!isPlainMap(value)) {
    d.error(['headers'], `headers must be a map of header: value, not ${describe(value)}`);
    return null;
  }
  const headers: Record<string, McpHeaderValue> = {};
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) d.error(['headers'], `headers may hold at most ${MAX_HEADERS} entries`);
  for (const [name, raw] of entries.slice(0, MAX_HEADERS)) {
    const path = ['headers', name];
    if (!HEADER_NAME.test(name)) {
      d.error(path, `'${name}' is not a valid HTTP header name`);
      continue;
    }
    if (typeof raw === 'string' || typeof raw === 'number') {
      const text = String(raw);
      if (/[\r\n\0]/.test(text)) d.error(path, `${fieldName(path)} must be one line`);
      else headers[name] = { kind: 'literal', value: text };
      continue;
    }
    if (isPlainMap(raw) && typeof raw['setting'] === 'string' && raw['setting'].trim() !== '') {
      const prefix = raw['prefix'] === undefined ? '' : typeof raw['prefix'] === 'string' && !/[\r\n\0]/.test(raw['prefix']) ? raw['prefix'] : null;
      if (prefix === null) d.error([...path, 'prefix'], `${fieldName([...path, 'prefix'])} must be one line of text`);
      else headers[name] = { kind: 'setting', setting: raw['setting'].trim(), prefix };
      for (const key of Object.keys(raw)) if (key !== 'setting' && key !== 'prefix') d.keyWarning([...path, key], `Unknown field '${key}' (a header from a setting has setting and prefix)`);
      continue;
    }
    d.error(path, `${fieldName(path)} must be text or { setting: <key>, prefix: <text> }, not ${describe(raw)}`);
  }
  return headers;
}

function readTimeout(d: RecipeDiagnostics, raw: PlainMap, field: string, fallback: number, max: number): number {
  const value = readPositiveInt(d, raw[field], [field]);
  if (value === null) return fallback;
  if (value > max) {
    d.error([field], `${field} may be at most ${max} ms, not ${value}`);
    return fallback;
  }
  return value;
}
