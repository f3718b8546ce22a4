/**
 * graphql-ws over the same origin (/graphql), the token in connectionParams.authorization as
 * `Bearer <token>` (how the server authenticates WebSocket operations). One client per token.
 */
import { createClient, type Client } from 'graphql-ws';
import { session } from './session';

let current: { token: string | null; client: Client } | null = null;

export function wsClient(): Client {
  const token = session.token();
  if (current && current.token === token) return current.client;
  void current?.client.dispose();
  const url = new URL(`${import.meta.env.BASE_URL.replace(/admin\/$/, '')}graphql`, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const client = createClient({
    url: url.toString(),
    connectionParams: () => (token ? { authorization: `Bearer ${token}` } : {}),
    lazy: true,
    retryAttempts: 3,
  });
  current = { token, client };
  return client;
}

export function disposeWsClient(): void {
  void current?.client.dispose();
  current = null;
}
