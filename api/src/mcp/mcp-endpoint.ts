import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { CascadeScope } from '../domain/cascade/scope';
import { DomainError } from '../domain/errors';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from '../domain/events/document-changed';
import { hashApiToken } from '../domain/identity/api-token';
import type { Principal } from '../domain/identity/principal';
import { SKILLS_PREFIX } from '../domain/skills/skill-paths';
import { bearerToken } from '../graphql/context';
import { BodyTooLargeError, readBody } from '../graphql/http-body';
import type { Services } from '../services';
import { jsonRpcError } from './mcp-errors';
import { IdleSessions } from './idle-sessions';
import { registerSkillsExtension, SKILLS_EXTENSION } from './skills-extension';

/**
 * `/mcp` (issue 19): Vance's skills over MCP, streamable HTTP on the GraphQL port. The SDK's
 * transport and server run one session per client; this file owns what the SDK does not know:
 *
 * - **Who**: every request carries a Vance API token (`Authorization: Bearer …`, the same tokens and
 *   identity service as GraphQL); none or an unknown one is HTTP 401. A session belongs to the token
 *   and project that opened it; a request naming it with another token or project is "session not
 *   found" (404), so a session id alone is worth nothing.
 * - **Where**: the project is the URL parameter `project` (`/mcp?project=lab`) or, when absent, the
 *   header `X-Vance-Project`; neither: the tenant project (the VANCE and RESOURCE layers and the
 *   caller's own). A project the caller cannot see — missing or another tenant's — is refused alike
 *   with HTTP 404 and the JSON-RPC error `NOT_FOUND: Project '<name>' not found` (`data.code` NOT_FOUND).
 * - **Changes**: one subscription to `documentChanged` for the endpoint; a write under
 *   `_vance/skills/` in a layer a session reads (its tenant only; its own USER layer only) sends that
 *   session `notifications/resources/list_changed`, coalesced per session.
 * - **Bounds**: the body limit of GraphQL; at most `sessionsPerToken` open sessions per token (the
 *   oldest is closed); a session without an open request for `sessionIdleMs` is closed
 *   (idle-sessions.ts), so clients that vanish without DELETE do not keep theirs.
 *
 * Loaded on the first request to `/mcp` (graphql/server.ts), so the SDK costs a server start nothing.
 */
export interface McpEndpointOptions {
  readonly services: Services;
  readonly logger: Logger;
  readonly maxRequestBytes: number;
  readonly pageSize: number;
  readonly sessionsPerToken: number;
  /** A session with no open request for this long is closed (ms). */
  readonly sessionIdleMs: number;
}

export const PROJECT_PARAMETER = 'project';
export const PROJECT_HEADER = 'x-vance-project';
/** readJson's answer when it has refused the body itself. */
const REFUSED = Symbol('refused');
/** How long a burst of writes is gathered into one list-changed notification. */
const NOTIFY_AFTER_MS = 50;

interface McpSession {
  readonly id: string;
  readonly tokenKey: string;
  readonly project: string | null;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** As the session's last request checked it (handle() resolves it before every request). */
  scope: CascadeScope;
  notifyTimer: NodeJS.Timeout | null;
}

export class McpEndpoint {
  private readonly sessions = new Map<string, McpSession>();
  private readonly idle: IdleSessions<string>;
  private readonly sweeper: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: McpEndpointOptions) {
    this.unsubscribe = options.services.bus.subscribe<DocumentChanged>(DOCUMENT_CHANGED_TOPIC, (event) => this.documentChanged(event));
    this.idle = new IdleSessions(options.sessionIdleMs);
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(100, Math.min(options.sessionIdleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const caller = await this.authenticate(req);
    if (!caller) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendJson(res, 401, jsonRpcError(null, ErrorCode.InvalidRequest, 'UNAUTHENTICATED: a valid Vance API token is required (Authorization: Bearer <token>)', { code: 'UNAUTHENTICATED' }));
    }
    // Read only for a caller with a valid token: a large body costs reading and parsing.
    const body = req.method === 'POST' ? await this.readJson(req, res) : undefined;
    if (body === REFUSED) return;
    const project = projectOf(req, url);
    const requestId = (body as { id?: unknown } | undefined)?.id;
    const scope = await this.options.services.skillPublisher.scope(caller.principal, project).catch((err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      // Another tenant's project and a missing one are the same NOT_FOUND (the target resolver's check).
      sendJson(res, err.category === 'NOT_FOUND' ? 404 : 403, jsonRpcError(requestId, ErrorCode.InvalidParams, `${err.category}: ${err.message}`, { code: err.category }));
      return null;
    });
    if (!scope) return;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session || session.tokenKey !== caller.tokenKey || session.project !== project) {
        return sendJson(res, 404, jsonRpcError(requestId, -32001, 'Session not found'));
      }
      session.scope = scope;
      const end = this.idle.begin(session.id);
      res.once('close', end);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJson(res, 400, jsonRpcError(requestId, ErrorCode.InvalidRequest, 'Bad Request: no valid session id; start with an initialize request'));
    }
    const transport = await this.open(caller.tokenKey, project, scope);
    await transport.handleRequest(req, res, body);
  }

  /** The caller of a valid bearer token, or null (the same tokens and identity service as GraphQL). */
  private async authenticate(req: IncomingMessage): Promise<{ principal: Principal; tokenKey: string } | null> {
    const token = bearerToken(req.headers.authorization);
    if (token === null) return null;
    const tokenKey = hashApiToken(token);
    const principal = await this.options.services.identity.authenticateTokenHash(tokenKey).catch(() => null);
    return principal ? { principal, tokenKey } : null;
  }

  /** The parsed JSON body, or REFUSED after answering 413 (too large) or 400 (not JSON). */
  private async readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    try {
      return JSON.parse(await readBody(req, this.options.maxRequestBytes));
    } catch (err) {
      if (err instanceof BodyTooLargeError) sendJson(res, 413, jsonRpcError(null, ErrorCode.InvalidRequest, `The request body is larger than ${this.options.maxRequestBytes} bytes`));
      else if (err instanceof SyntaxError) sendJson(res, 400, jsonRpcError(null, ErrorCode.ParseError, 'Parse error: the body is not JSON'));
      else throw err;
      return REFUSED;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.unsubscribe();
    await Promise.all([...this.sessions.values()].map((session) => this.closeSession(session)));
  }

  private async open(tokenKey: string, project: string | null, scope: CascadeScope): Promise<StreamableHTTPServerTransport> {
    const mine = [...this.sessions.values()].filter((session) => session.tokenKey === tokenKey);
    // Map order is opening order: the first ones are the oldest.
    for (const old of mine.slice(0, Math.max(0, mine.length - this.options.sessionsPerToken + 1))) await this.closeSession(old);
    const server = new Server(
      { name: 'vance', version: '1' },
      { capabilities: { resources: { listChanged: true }, extensions: { [SKILLS_EXTENSION]: {} } } },
    );
    let session: McpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A request's answer is one JSON body (no SSE stream per request); notifications go over the client's GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        session = { id, tokenKey, project, transport, server, scope, notifyTimer: null };
        this.sessions.set(id, session);
        this.idle.add(id);
      },
    });
    transport.onclose = () => {
      if (session) this.forget(session);
    };
    registerSkillsExtension(server, {
      publisher: this.options.services.skillPublisher,
      // The scope the last request of the session checked (handle() resolves it before every request).
      scope: async () => session?.scope ?? scope,
      pageSize: this.options.pageSize,
      logger: this.options.logger,
    });
    await server.connect(transport);
    return transport;
  }

  private forget(session: McpSession): void {
    if (session.notifyTimer) clearTimeout(session.notifyTimer);
    session.notifyTimer = null;
    this.sessions.delete(session.id);
    this.idle.remove(session.id);
  }

  private closeIdle(): void {
    for (const id of this.idle.expired()) {
      const session = this.sessions.get(id);
      if (session) void this.closeSession(session);
      else this.idle.remove(id);
    }
  }

  private async closeSession(session: McpSession): Promise<void> {
    this.forget(session);
    await session.server.close().catch((err: unknown) => this.options.logger.warn({ err }, 'closing an MCP session failed'));
  }

  private documentChanged(event: DocumentChanged): void {
    if (!event.path.startsWith(SKILLS_PREFIX)) return;
    for (const session of this.sessions.values()) {
      const { scope } = session;
      if (scope.tenantId !== event.tenantId) continue;
      if (event.projectId !== scope.userProjectId && event.projectId !== scope.projectId && event.projectId !== scope.tenantProjectId) continue;
      if (session.notifyTimer) continue;
      session.notifyTimer = setTimeout(() => {
        session.notifyTimer = null;
        session.server.sendResourceListChanged().catch((err: unknown) => this.options.logger.debug({ err }, 'an MCP list-changed notification was not sent'));
      }, NOTIFY_AFTER_MS);
      session.notifyTimer.unref();
    }
  }
}

/** The URL parameter wins over the header; an empty value is "no project". */
function projectOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers[PROJECT_HEADER];
  const value = url.searchParams.get(PROJECT_PARAMETER) ?? (typeof header === 'string' ? header : null);
  return value && value.trim() !== '' ? value.trim() : null;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  return new McpEndpoint(options);
}
