/**
 * A tool document as a tool a turn can call (issue 19): the HTTP implementation builds the request
 * from the URL template and the headers (settings filled in, secrets checked against their binding
 * before anything is sent) and turns a non-2xx answer into a tool error; the script implementation
 * runs in the sandbox as skill scripts do. Failures are DomainErrors, which the registry hands the
 * model as tool errors the turn goes on from.
 */
import type { Process } from '../processes/process';
import type { SettingsReader } from '../settings/settings-reader';
import type { ToolInvocationContext, ToolResult } from './server-tool';
import type { HttpToolCaller } from './http-tool-caller';
import { resolveHeaders } from './secret-binding';
import { ToolCallFailedError } from './tool-call-errors';
import type { HttpImplementation, ScriptImplementation, ToolDocument } from './tool-document';
import type { SourcedTool, ToolOrigin } from './tool-source';
import { expandUrlTemplate } from './url-template';

export interface DocumentToolDeps {
  readonly http: HttpToolCaller;
  /** The settings as the process's project sees them (secrets included, server-side only). */
  readonly settings: (process: Process) => SettingsReader;
  /** Runs a script implementation in the sandbox (domain/scripts/document-script.ts). */
  readonly script: (tool: ToolDocument, implementation: ScriptImplementation, args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext) => Promise<ToolResult>;
}

/** How much of a failed answer's body the model sees. */
const ERROR_BODY_CHARS = 500;

export function documentTool(tool: ToolDocument, origin: ToolOrigin, deps: DocumentToolDeps): SourcedTool {
  const implementation = tool.implementation;
  return {
    name: tool.name,
    labels: tool.labels,
    description: tool.description,
    parameters: tool.parameters,
    deferred: tool.deferred,
    origin,
    invoke: (args, ctx) => implementation.kind === 'HTTP'
      ? callHttp(implementation, args, ctx, deps)
      : deps.script(tool, implementation, args, ctx),
  };
}

async function callHttp(
  http: HttpImplementation, args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext, deps: DocumentToolDeps,
): Promise<ToolResult> {
  const url = expandUrlTemplate(http.url, args);
  const { headers, secretOrigins, secretSettings } = await resolveHeaders(http.headers, deps.settings(ctx.process), url.origin);
  const used = new Set(http.url.placeholders);
  const rest = Object.fromEntries(Object.entries(args).filter(([key]) => !used.has(key)));
  const body = http.body ? JSON.stringify(rest) : null;
  const response = await deps.http.send({
    method: http.method, url, body, timeoutMs: http.timeoutMs, maxResponseBytes: http.maxResponseBytes, secretOrigins, secretSettings,
    headers: body !== null && !hasHeader(headers, 'content-type') ? { ...headers, 'content-type': 'application/json' } : headers,
  }, ctx.signal);
  if (response.status < 200 || response.status > 299) {
    const snippet = response.body.slice(0, ERROR_BODY_CHARS);
    throw new ToolCallFailedError(`${http.method} ${url.origin}${url.pathname} answered HTTP ${response.status}${snippet.trim() ? `: ${snippet}` : ''}`);
  }
  const note = response.truncated ? `\n\n[Response cut at ${http.maxResponseBytes} bytes.]` : '';
  return { content: `${response.body}${note}` };
}

function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}
