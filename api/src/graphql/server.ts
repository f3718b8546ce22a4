import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import type { BudgetsConfig, IntrospectionPolicy, OperationLimitsConfig } from '../config';
import { LimitExceededError } from '../domain/errors';
import type { Services } from '../services';
import type { LargeJsonParser } from '../validation/validation-pool';
import { serveAdmin } from './admin-static';
import { apolloGuardPlugin } from './apollo-guard';
import { createContext, type GraphQLContext } from './context';
import { formatGraphQLError } from './errors';
import { BodyTooLargeError, readBody } from './http-body';
import { operationLimitError } from './operation-limits';
import { RequestGuard } from './request-guard';
import { SubscriptionCaps } from './subscription-caps';
import { serveGraphQLWs } from './ws-server';
import type * as McpModule from '../mcp';

export interface GraphQLServerOptions {
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly logger: Logger;
  /** Largest HTTP body and WebSocket message. */
  readonly maxRequestBytes: number;
  /** Largest HTTP body of a request without an Authorization header. */
  readonly maxAnonymousRequestBytes?: number;
  /** Parses a JSON body of at least `minChars` off the event loop (the validation pool); undefined: inline. */
  readonly largeJson?: LargeJsonParser;
  readonly operationLimits: OperationLimitsConfig;
  readonly introspection: IntrospectionPolicy;
  readonly budgets: BudgetsConfig;
  /** Stack traces and exception messages in error responses. */
  readonly devErrors: boolean;
  /** Answers GET /healthz; throws when the instance cannot serve (e.g. database down). */
  readonly healthCheck: () => Promise<void>;
  /** The MCP endpoint at /mcp (issue 19). */
  readonly mcp: { readonly pageSize: number; readonly sessionsPerToken: number; readonly sessionIdleMs: number };
}

export interface GraphQLServer {
  readonly httpServer: Server;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Apollo on plain node:http (express halves throughput, STACK.md §3) and graphql-ws on the same
 * path and port (`ws-server.ts`). Both transports share the context factory, the error formatter
 * and the request guard (operation limits, introspection policy, budgets: `request-guard.ts`).
 */
export async function createGraphQLServer(options: GraphQLServerOptions): Promise<GraphQLServer> {
  const { schema, services, logger } = options;
  const httpServer = createServer();
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: options.maxRequestBytes });
  const guard = new RequestGuard(options);
  const wsCleanup = serveGraphQLWs({
    wsServer, schema, services, logger, guard, devErrors: options.devErrors,
    caps: new SubscriptionCaps(options.budgets),
  });
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    // Who may introspect is the guard's decision (introspection-policy.ts), per caller.
    introspection: true,
    // Explicit, not Apollo's NODE_ENV default: a stack trace names server paths (issue 13).
    includeStacktraceInErrorResponses: options.devErrors,
    // main.ts owns signal handling and the shutdown order (server, bus, database).
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, logger),
    plugins: [
      apolloGuardPlugin(guard),
      // No field carries a cache hint, so the default cache-control plugin only ever answered
      // `cache-control: no-store` (now set in handle()); its willResolveField hook made Apollo wrap
      // and time every resolver of every request (issue 18).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => wsCleanup.dispose() }) },
    ],
  });
  await apollo.start();
  // The MCP SDK is loaded with the first request to /mcp, not at start (issue 18: start time and memory).
  let mcp: Promise<McpModule.McpEndpoint> | undefined;
  const mcpEndpoint = (): Promise<McpModule.McpEndpoint> =>
    (mcp ??= import('../mcp/index.js').then((loaded) => loaded.createMcpEndpoint({
      services, logger, maxRequestBytes: options.maxRequestBytes, ...options.mcp,
    })));
  httpServer.on('request', (req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err }, 'request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal server error' });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      try {
        await options.healthCheck();
        return sendJson(res, 200, { status: 'ok' });
      } catch (err) {
        logger.warn({ err }, 'health check failed');
        return sendJson(res, 503, { status: 'unavailable' });
      }
    }
    if (await serveAdmin(req, res, url.pathname)) return;
    if (url.pathname === '/mcp') return (await mcpEndpoint()).handle(req, res, url);
    if (url.pathname !== '/graphql') return sendJson(res, 404, { error: 'Not found' });
    let body: string;
    // A caller without a token can do nothing a large body needs; it costs reading and parsing.
    const anonymous = req.headers.authorization === undefined && options.maxAnonymousRequestBytes !== undefined;
    const [limitName, limit] = anonymous ? ['maxAnonymousRequestBytes', options.maxAnonymousRequestBytes!] as const : ['maxRequestBytes', options.maxRequestBytes] as const;
    try {
      body = req.method === 'POST' ? await readBody(req, limit) : '';
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        return sendJson(res, 413, { errors: [operationLimitError(limitName, limit).toJSON()] });
      }
      throw err;
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    let parsed: unknown;
    try {
      parsed = await parseJson(body, headers, options.largeJson);
    } catch (err) {
      if (err instanceof LimitExceededError) {
        const error = new GraphQLError(err.message, { originalError: err });
        return sendJson(res, 429, { errors: [formatGraphQLError(error.toJSON(), error, logger)] });
      }
      throw err;
    }
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body: parsed },
      context: async () => createContext(services, logger, req.headers.authorization),
    });
    for (const [key, value] of response.headers) res.setHeader(key, value);
    // What Apollo's cache-control plugin answered for every response (no field has a cache hint):
    // a proxy or browser must not keep a caller's data. Set here, as the plugin is off.
    if (!res.hasHeader('cache-control')) res.setHeader('cache-control', 'no-store');
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') return void res.end(response.body.string);
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  }

  return {
    httpServer,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const address = httpServer.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(`http://${shownHost}:${address.port}/graphql`);
        });
      }),
    // Drains HTTP (in-flight requests finish), closes WebSockets, then stops Apollo.
    close: async () => {
      await mcp?.then((endpoint) => endpoint.close(), () => undefined);
      for (const client of wsServer.clients) client.close(1001, 'Server shutting down');
      await apollo.stop();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/**
 * A JSON body as Apollo wants it. A large one (a 1 MB document, a 5 MB message the resolver will
 * refuse) costs 10–40 ms of JSON.parse; on the event loop every other request waited that long.
 */
async function parseJson(body: string, headers: HeaderMap, large: LargeJsonParser | undefined): Promise<unknown> {
  if (!body) return undefined;
  if (!(headers.get('content-type') ?? '').includes('json')) return body;
  if (large && body.length >= large.minChars) return (await large.parse(body))?.value ?? body;
  try {
    return JSON.parse(body);
  } catch {
    return body; // Apollo answers 400 for a body it cannot read.
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}
