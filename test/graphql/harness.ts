/**
 * Starts a real Vance (HTTP + WebSocket on an ephemeral port) over a test database and speaks
 * GraphQL to it the way clients do: fetch for HTTP, graphql-ws (with the `ws` implementation,
 * Node 20 has no global WebSocket) for subscriptions.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import pino from 'pino';
import { startVance, type RunningVance, type StartOptions } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { Database } from '../../api/src/persistence';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface GraphQLResult<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface TestVance {
  readonly vance: RunningVance;
  readonly url: string;
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GraphQLResult<T>>;
  ws(token?: string | null): Client;
  close(): Promise<void>;
}

export async function startTestVance(database: Database, env: Record<string, string> = {}, options: Pick<StartOptions, 'runTurns' | 'modelProvider' | 'extraTools'> = {}): Promise<TestVance> {
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', ...env });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, identityCacheTtlMs: 0, ...options });
  const clients: Client[] = [];
  return {
    vance,
    url: vance.url,
    gql: async (query, variables = {}, token = ADMIN_TOKEN) => {
      const res = await fetch(vance.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as GraphQLResult<any>;
    },
    ws: (token = ADMIN_TOKEN) => {
      const client = createClient({
        url: vance.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.dispose()));
      await vance.close();
    },
  };
}

/** The first error's GraphQL code, for `expect(codeOf(r)).toBe('NOT_FOUND')`. */
export function codeOf(result: GraphQLResult): string | undefined {
  return result.errors?.[0]?.extensions?.code;
}

/** Subscribes and collects events; `next()` waits for the next one (with a timeout). */
export function collect<T>(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const events: GraphQLResult<T>[] = [];
  const waiters: (() => void)[] = [];
  let error: unknown;
  let unsubscribe = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    unsubscribe = client.subscribe<T>({ query, variables }, {
      next: (value) => { events.push(value as GraphQLResult<T>); waiters.shift()?.(); },
      error: (err) => { error = err; waiters.splice(0).forEach((w) => w()); resolve(); },
      complete: () => { waiters.splice(0).forEach((w) => w()); resolve(); },
    });
  });
  let read = 0;
  return {
    events,
    done,
    /** Completes the subscription from the client's side. */
    stop: () => unsubscribe(),
    get error() { return error; },
    async next(timeoutMs = 5_000): Promise<GraphQLResult<T>> {
      const deadline = Date.now() + timeoutMs;
      while (events.length <= read) {
        if (error) throw error;
        if (Date.now() > deadline) throw new Error('timed out waiting for a subscription event');
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 50); });
      }
      return events[read++]!;
    },
  };
}
