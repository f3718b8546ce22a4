/**
 * A real MCP server for tests (the SDK's own McpServer over streamable HTTP, stateful sessions) on
 * loopback, with tools that answer, fail (`isError`), hang until cancelled, and carry names no
 * provider accepts. It counts sessions and records the headers of every request it received, so a
 * test can assert connection reuse and that a secret reached only the pack's own origin.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface McpTestServer {
  readonly url: string;
  /** Sessions initialized so far (one per client connection). */
  sessions(): number;
  /** Headers of every HTTP request received. */
  readonly requests: IncomingHttpHeaders[];
  /** tools/call requests received, by tool name. */
  readonly calls: string[];
  /** Forgets every session, as a restarted server would: the next request of an old session gets 404. */
  forgetSessions(): Promise<void>;
  /** Adds a tool to every session and announces the change (notifications/tools/list_changed). */
  addTool(name: string): void;
  close(): Promise<void>;
}

/** `oddNames: false` leaves out the tool with a name providers refuse (the SDK warns on stderr about it). */
export async function startMcpTestServer(options: { readonly prefix?: string; readonly oddNames?: boolean } = {}): Promise<McpTestServer> {
  const prefix = options.prefix ?? '';
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const calls: string[] = [];
  const extra: string[] = [];
  let sessions = 0;

  const newServer = (): McpServer => {
    const mcp = new McpServer({ name: 'test-pack', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    mcp.registerTool(`${prefix}echo`, { description: 'Echoes text back', inputSchema: { text: z.string() } }, async ({ text }) => {
      calls.push('echo');
      return { content: [{ type: 'text', text: `echo: ${text}` }] };
    });
    mcp.registerTool(`${prefix}fail`, { description: 'Always fails', inputSchema: {} }, async () => {
      calls.push('fail');
      return { content: [{ type: 'text', text: 'the database of the pack is on fire' }], isError: true };
    });
    mcp.registerTool(`${prefix}hang`, { description: 'Never answers', inputSchema: {} }, async (_args, ctx) => {
      calls.push('hang');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      return { content: [{ type: 'text', text: 'too late' }] };
    });
    if (options.oddNames !== false) mcp.registerTool('search.v2/query', { description: 'A name with characters providers refuse', inputSchema: {} }, async () => {
      calls.push('search.v2/query');
      return { content: [{ type: 'text', text: 'found' }] };
    });
    for (const name of extra) registerExtra(mcp, name);
    servers.push(mcp);
    return mcp;
  };
  const registerExtra = (mcp: McpServer, name: string) => {
    mcp.registerTool(name, { description: `Added later: ${name}`, inputSchema: {} }, async () => ({ content: [{ type: 'text', text: `${name} ran` }] }));
  };

  const http: Server = createServer(async (req, res) => {
    requests.push(req.headers);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { sessions++; transports.set(id, created); },
      });
      created.onclose = () => { if (created.sessionId) transports.delete(created.sessionId); };
      await newServer().connect(created);
      transport = created;
    }
    if (!transport) {
      res.writeHead(404).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions: () => sessions,
    requests,
    calls,
    forgetSessions: async () => {
      const open = [...transports.values()];
      transports.clear();
      await Promise.all(open.map((tr) => tr.close().catch(() => undefined)));
    },
    addTool: (name) => {
      extra.push(name);
      for (const mcp of servers) {
        registerExtra(mcp, name); // registerTool announces list_changed on a connected server
      }
    },
    close: async () => {
      await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A plain HTTP server that records requests and answers each as `respond` says (never, a redirect, …). */
export async function startRecorder(respond: 'never' | { redirectTo: string } | 'ok'): Promise<{ url: string; requests: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const requests: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    requests.push(req.headers);
    req.resume();
    if (respond === 'never') return; // hangs: the client's timeout must end it
    if (respond === 'ok') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else res.writeHead(307, { location: respond.redirectTo }).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A loopback URL nothing listens on (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  await new Promise<void>((resolve) => http.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}
