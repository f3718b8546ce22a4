/**
 * One live MCP client session to one pack's server (issue 19 part 2): connected once (connect +
 * initialize + tools/list under the pack's connect timeout), its tool list cached and refreshed when
 * the server announces `notifications/tools/list_changed`, each call under the pack's call timeout
 * and the caller's signal. The pool (mcp-connection-pool.ts) owns its lifetime; a connection that
 * the server or the network closed reports itself `closed` and is replaced on the next turn.
 *
 * Secrets: headers are added by our own fetch, and only to requests for the pack's own origin; the
 * SDK's default redirect policy ('same-origin') refuses to follow a redirect elsewhere, and our fetch
 * strips the headers from anything that is not the pack's origin anyway (defence in depth). Each
 * response is bounded in bytes (llm/bounded-fetch.ts): a server cannot make Vance buffer 1 GB.
 */
import type { Tool, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { boundedFetch } from '../llm/bounded-fetch';
import { loadMcpSdk, type McpClient } from './mcp-sdk';

/** What the connection needs of the pack: the server and its resolved headers, the timeouts. */
export type McpEndpoint =
  | { readonly transport: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> }
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] };

export interface McpConnectionOptions {
  readonly endpoint: McpEndpoint;
  readonly connectTimeoutMs: number;
  /** Longest tool list kept (a server listing more is cut, with a problem). */
  readonly maxTools: number;
  /** Told after the cached list was refreshed on the server's list_changed. */
  readonly onToolsChanged?: () => void;
}

/** A server tool as listed, bounded (description, schema size). */
export interface ListedMcpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export class McpCallError extends Error {
  constructor(message: string, readonly kind: 'TIMEOUT' | 'CANCELLED' | 'PROTOCOL' | 'TRANSPORT') {
    super(message);
  }
}

const MAX_DESCRIPTION = 2_000;
const MAX_SCHEMA_CHARS = 64_000;
const MAX_TOOL_NAME = 200;
/** Most bytes one response of the pack's server may hold (a result, a tool list): bound the work, not only the input. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class McpConnection {
  private tools: readonly ListedMcpTool[] = [];
  private truncated = false;
  private closedFlag = false;

  private constructor(private readonly client: McpClient) {}

  /** Connects, initializes and lists the tools within the connect timeout, or throws. */
  static async open(options: McpConnectionOptions): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    let connection: McpConnection | null = null;
    const client = new sdk.Client({ name: 'vance', version: '1.0.0' }, {
      listChanged: {
        tools: {
          // The SDK refetches tools/list on the server's notification; we keep what it got.
          onChanged: (error, tools) => {
            if (error || !tools || !connection) return;
            connection.keep(tools, options.maxTools);
            options.onToolsChanged?.();
          },
        },
      },
    });
    const transport = options.endpoint.transport === 'http'
      ? new sdk.StreamableHTTPClientTransport(new URL(options.endpoint.url), { fetch: originBoundFetch(options.endpoint.url, options.endpoint.headers) })
      : new (await sdk.stdio())({ command: options.endpoint.command, args: [...options.endpoint.args], stderr: 'ignore' });
    const deadline = AbortSignal.timeout(options.connectTimeoutMs);
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs, signal: deadline });
      connection = new McpConnection(client);
      client.onclose = () => { connection!.closedFlag = true; };
      const listed = await listAll(client, options.connectTimeoutMs, deadline);
      connection.keep(listed, options.maxTools);
      return connection;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpCallError(deadline.aborted ? `no answer within ${options.connectTimeoutMs} ms (connectTimeoutMs)` : describeError(error), deadline.aborted ? 'TIMEOUT' : 'TRANSPORT');
    }
  }

  /** Closed, or broken: a call failed below JSON-RPC (the server restarted and forgot the session, the network). */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** The cached tools/list answer (refreshed on list_changed). */
  listTools(): { readonly tools: readonly ListedMcpTool[]; readonly truncated: boolean } {
    return { tools: this.tools, truncated: this.truncated };
  }

  /** One tools/call; a result with isError is returned, not thrown (the model reads it). */
  async call(name: string, args: Readonly<Record<string, unknown>>, timeoutMs: number, signal?: AbortSignal): Promise<{ content: string; isError: boolean }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const result = await this.client.callTool({ name, arguments: { ...args } }, undefined, { timeout: timeoutMs, signal: combined }) as CallToolResult;
      return { content: resultText(result), isError: result.isError === true };
    } catch (error) {
      if (signal?.aborted) throw new McpCallError('the turn was cancelled', 'CANCELLED');
      if (timeout.aborted || isRequestTimeout(error)) throw new McpCallError(`no answer within ${timeoutMs} ms (timeoutMs)`, 'TIMEOUT');
      // A JSON-RPC error is the server's answer; anything else (HTTP 404 for a session the server
      // forgot, a refused connection) leaves this session unusable: the pool replaces it next turn.
      if (isJsonRpcError(error)) throw new McpCallError(describeError(error), 'PROTOCOL');
      this.closedFlag = true;
      throw new McpCallError(describeError(error), 'TRANSPORT');
    }
  }

  async close(): Promise<void> {
    this.closedFlag = true;
    await this.client.close().catch(() => undefined);
  }

  private keep(tools: readonly Tool[], max: number): void {
    this.truncated = tools.length > max;
    this.tools = Object.freeze(tools.slice(0, max).flatMap((t) => {
      if (typeof t.name !== 'string' || t.name === '' || t.name.length > MAX_TOOL_NAME) return [];
      const schema = t.inputSchema as Record<string, unknown> | undefined;
      // A schema the registry cannot hold is replaced by an open object schema: the server still checks.
      const fits = schema && schema['type'] === 'object' && JSON.stringify(schema).length <= MAX_SCHEMA_CHARS;
      const inputSchema = fits ? schema : { type: 'object' };
      return [{ name: t.name, description: (t.description ?? t.title ?? '').slice(0, MAX_DESCRIPTION), inputSchema: Object.freeze({ ...inputSchema }) }];
    }));
  }
}

/** tools/list with its pages, bounded by the same deadline. */
async function listAll(client: McpClient, timeoutMs: number, signal: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** The fetch the transport uses: the pack's headers on requests to the pack's origin, never elsewhere. */
function originBoundFetch(url: string, headers: Readonly<Record<string, string>>): typeof fetch {
  const origin = new URL(url).origin;
  const fetch = boundedFetch(globalThis.fetch, MAX_RESPONSE_BYTES);
  return (input, init) => {
    const target = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (target.origin !== origin || Object.keys(headers).length === 0) return fetch(input, init);
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

/** The result as the model reads it: text parts as they are, other parts described. */
function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case 'text': return part.text;
      case 'image': return `[image ${part.mimeType}, ${part.data.length} base64 characters]`;
      case 'audio': return `[audio ${part.mimeType}, ${part.data.length} base64 characters]`;
      case 'resource': return 'text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}]`;
      case 'resource_link': return `[resource ${part.uri}]`;
      default: return '';
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

function isRequestTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32001;
}

/** JSON-RPC error codes are negative (-32602 invalid params, …); the SDK's HTTP errors carry the HTTP status. */
function isJsonRpcError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' && code < 0;
}

function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return (cause ? `${cause}: ${message}` : message).slice(0, 500);
}
