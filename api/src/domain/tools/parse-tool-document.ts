/**
 * Parses and validates `_vance/tools/<name>.yaml` into a ToolDocument (issue 19), with located
 * diagnostics (path, line, column, field) as the recipe parser gives them, so `vance lint`,
 * `validateDocument` and a refused write all say where a tool document is wrong.
 */
import type { Diagnostic } from '../errors';
import { RecipeDiagnostics, fieldName } from '../recipes/recipe-diagnostics';
import { describe, isPlainMap, readBoolean, readEnum, readMap, readName, readPositiveInt, readStringList, type PlainMap } from '../recipes/read-fields';
import { YamlSource } from '../shared/yaml-source';
import {
  DEFAULT_HTTP_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_SCRIPT_TIMEOUT_MS, HTTP_METHODS, MAX_HTTP_TIMEOUT_MS, MAX_RESPONSE_BYTES,
  type HeaderTemplate, type HttpImplementation, type ScriptImplementation, type ToolDocument, type ToolImplementation,
} from './tool-document';
import { parseUrlTemplate } from './url-template';

export interface ToolDocumentInput {
  /** The name from the file name. */
  readonly name: string;
  readonly path: string;
  readonly content: string;
}

export interface ParseToolDocumentResult {
  readonly tool: ToolDocument | null;
  readonly diagnostics: readonly Diagnostic[];
}

const FIELDS = ['name', 'description', 'parameters', 'labels', 'deferred', 'http', 'script'];
const HTTP_FIELDS = ['method', 'url', 'headers', 'body', 'timeoutMs', 'maxResponseBytes'];
const SCRIPT_FIELDS = ['source', 'timeoutMs'];
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const LABEL = /^[a-z0-9][a-z0-9:._-]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const SETTING_REF = /\{setting:([A-Za-z0-9_.-]+)\}/g;

/** `builtins`: names of the built-in tools; a document tool may not take one. */
export function parseToolDocument(input: ToolDocumentInput, builtins: ReadonlySet<string> = new Set()): ParseToolDocumentResult {
  const source = new YamlSource(input.content);
  const d = new RecipeDiagnostics(input.path, source);
  for (const problem of source.errors) d.at('ERROR', [], `YAML syntax: ${problem.message}`, problem);
  if (source.errors.length > 0) return { tool: null, diagnostics: d.list };
  let value: unknown;
  try {
    value = source.toJS();
  } catch (error) {
    d.error([], `YAML: ${error instanceof Error ? error.message : String(error)}`);
    return { tool: null, diagnostics: d.list };
  }
  if (!isPlainMap(value)) {
    d.error([], 'a tool document is a YAML map of fields (description:, parameters:, http: or script:, …)');
    return { tool: null, diagnostics: d.list };
  }
  const tool = readTool(d, input, value, builtins);
  return { tool: d.hasErrors() ? null : tool, diagnostics: d.list };
}

function readTool(d: RecipeDiagnostics, input: ToolDocumentInput, doc: PlainMap, builtins: ReadonlySet<string>): ToolDocument | null {
  for (const key of Object.keys(doc)) if (!FIELDS.includes(key)) d.keyWarning([key], `unknown field '${key}' in a tool document (known: ${FIELDS.join(', ')})`);
  const name = readName(d, doc.name, ['name']) ?? input.name;
  if (name !== input.name) d.error(['name'], `name '${name}' must match the file name '${input.name}'`);
  if (!TOOL_NAME.test(input.name)) d.error([], `'${input.name}' is not a tool name: use letters, digits, '_' and '-'`);
  if (builtins.has(input.name)) d.error(['name'], `'${input.name}' is the name of a built-in tool; choose another name`);
  const description = readName(d, doc.description, ['description']);
  if (!description) d.error(['description'], 'description is required: the model decides from it when to call the tool');
  const parameters = readParameters(d, doc.parameters);
  const labels = readStringList(d, doc.labels, ['labels'], (l) => (LABEL.test(l.replace(/^@/, '').toLowerCase()) ? null : 'is not a label: lower-case letters, digits, : . _ -'))
    .map((l) => l.replace(/^@/, '').toLowerCase());
  const deferred = readBoolean(d, doc.deferred, ['deferred'], false);
  const implementation = readImplementation(d, doc, parameters);
  if (!description || !implementation) return null;
  return { name: input.name, description, parameters, labels, deferred, implementation };
}

function readParameters(d: RecipeDiagnostics, value: unknown): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return { type: 'object', properties: {} };
  if (!isPlainMap(value)) {
    d.error(['parameters'], `parameters must be a JSON schema of type object, not ${describe(value)}`);
    return { type: 'object', properties: {} };
  }
  if (value.type !== 'object') d.error(['parameters', 'type'], "parameters must be a JSON schema with type: object");
  if (value.properties !== undefined && !isPlainMap(value.properties)) d.error(['parameters', 'properties'], 'parameters.properties must be a map of argument name to schema');
  return value;
}

function readImplementation(d: RecipeDiagnostics, doc: PlainMap, parameters: Readonly<Record<string, unknown>>): ToolImplementation | null {
  const has = (key: string) => doc[key] !== undefined && doc[key] !== null;
  if (has('http') && has('script')) {
    d.error(['script'], 'a tool has one implementation: http or script, not both');
    return null;
  }
  if (has('http')) return readHttp(d, doc.http, parameters);
  if (has('script')) return readScript(d, doc.script);
  d.error([], 'a tool needs an implementation: an http: block (method, url, headers) or a script: block (source)');
  return null;
}

function readHttp(d: RecipeDiagnostics, value: unknown, parameters: Readonly<Record<string, unknown>>): HttpImplementation | null {
  const block = readMap(d, value, ['http']);
  if (!block) return null;
  for (const key of Object.keys(block)) if (!HTTP_FIELDS.includes(key)) d.keyWarning(['http', key], `unknown field '${key}' in http (known: ${HTTP_FIELDS.join(', ')})`);
  const method = readEnum(d, block.method, ['http', 'method'], HTTP_METHODS, 'GET', (t) => t.toUpperCase());
  const urlText = readName(d, block.url, ['http', 'url']);
  if (!urlText) {
    d.error(['http', 'url'], 'http.url is required');
    return null;
  }
  if (urlText.includes('{setting:')) {
    d.error(['http', 'url'], 'settings go into headers, not the URL (a URL is logged and cached by proxies)');
    return null;
  }
  const url = parseUrlTemplate(urlText);
  if ('problem' in url) {
    d.error(['http', 'url'], `http.url: ${url.problem}`);
    return null;
  }
  const properties = isPlainMap(parameters.properties) ? parameters.properties : {};
  for (const name of url.placeholders) {
    if (!Object.prototype.hasOwnProperty.call(properties, name)) d.error(['http', 'url'], `http.url uses {${name}}, which is not one of the parameters`);
  }
  const headers = readHeaders(d, block.headers);
  const body = method !== 'GET' && method !== 'DELETE' && readBoolean(d, block.body, ['http', 'body'], true);
  const timeoutMs = bounded(d, block.timeoutMs, ['http', 'timeoutMs'], DEFAULT_HTTP_TIMEOUT_MS, MAX_HTTP_TIMEOUT_MS);
  const maxResponseBytes = bounded(d, block.maxResponseBytes, ['http', 'maxResponseBytes'], DEFAULT_MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES);
  return { kind: 'HTTP', method, url, headers, body, timeoutMs, maxResponseBytes };
}

function readHeaders(d: RecipeDiagnostics, value: unknown): HeaderTemplate[] {
  const map = readMap(d, value, ['http', 'headers']);
  if (!map) return [];
  const headers: HeaderTemplate[] = [];
  for (const [name, raw] of Object.entries(map)) {
    const path = ['http', 'headers', name];
    if (!HEADER_NAME.test(name)) {
      d.error(path, `'${name}' is not a header name`);
      continue;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      d.error(path, `${fieldName(path)} must be text, not ${describe(raw)}`);
      continue;
    }
    const text = String(raw);
    if (/[\r\n]/.test(text)) {
      d.error(path, `${fieldName(path)} must be one line`);
      continue;
    }
    const parts: HeaderTemplate['parts'][number][] = [];
    let last = 0;
    for (const match of text.matchAll(SETTING_REF)) {
      if (match.index! > last) parts.push({ text: text.slice(last, match.index) });
      parts.push({ setting: match[1]! });
      last = match.index! + match[0].length;
    }
    if (last < text.length) parts.push({ text: text.slice(last) });
    if (parts.some((p) => 'text' in p && p.text.includes('{setting:'))) d.error(path, `${fieldName(path)}: a {setting:<key>} reference names a dotted setting key`);
    headers.push({ name, parts });
  }
  return headers;
}

function readScript(d: RecipeDiagnostics, value: unknown): ScriptImplementation | null {
  const block = readMap(d, value, ['script']);
  if (!block) return null;
  for (const key of Object.keys(block)) if (!SCRIPT_FIELDS.includes(key)) d.keyWarning(['script', key], `unknown field '${key}' in script (known: ${SCRIPT_FIELDS.join(', ')})`);
  const source = typeof block.source === 'string' && block.source.trim() !== '' ? block.source : null;
  if (!source) {
    d.error(['script', 'source'], 'script.source is required: the JavaScript the sandbox runs (the arguments are the global `args`)');
    return null;
  }
  return { kind: 'SCRIPT', source, timeoutMs: bounded(d, block.timeoutMs, ['script', 'timeoutMs'], DEFAULT_SCRIPT_TIMEOUT_MS, 120_000) };
}

function bounded(d: RecipeDiagnostics, value: unknown, path: (string | number)[], fallback: number, max: number): number {
  const number = readPositiveInt(d, value, path);
  if (number === null) return fallback;
  if (number > max) {
    d.error(path, `${fieldName(path)} must be at most ${max}`);
    return max;
  }
  return number;
}
