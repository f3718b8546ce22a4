import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startMcpTestServer, type McpTestServer } from '../../../test/support/mcp-test-server';
import { McpConnection, type McpConnectionOptions } from './mcp-connection';
import { McpConnectionPool } from './mcp-connection-pool';

const options = (url: string, headers: Record<string, string> = {}): McpConnectionOptions => ({
  endpoint: { transport: 'http', url, headers }, connectTimeoutMs: 10_000, maxTools: 50,
});

describe('McpConnectionPool (the SDK client against the SDK\'s McpServer on loopback)', () => {
  let server: McpTestServer;
  beforeAll(async () => { server = await startMcpTestServer(); });
  afterAll(async () => { await server.close(); });

  it('reuses a connection per key, holds at most maxPerTenant per tenant and counts each tenant apart', async () => {
    const pool = new McpConnectionPool({ maxPerTenant: 2 });
    try {
      const before = server.sessions();
      const a1 = await pool.connection('A', 's1', 'k1', options(server.url));
      expect(await pool.connection('A', 's1', 'k1', options(server.url))).toBe(a1);
      expect(server.sessions()).toBe(before + 1);
      await pool.connection('A', 's2', 'k2', options(server.url));
      await pool.connection('A', 's3', 'k3', options(server.url));
      expect(pool.size('A')).toBe(2);
      expect(a1.closed).toBe(true); // the least recently used went first
      await pool.connection('B', 's1', 'k1', options(server.url));
      expect(pool.size('B')).toBe(1);
      expect(pool.size('A')).toBe(2);
      expect(server.sessions()).toBe(before + 4);
    } finally {
      await pool.close();
    }
  });

  it('replaces the connection of a slot when its key changes (a new document version)', async () => {
    const pool = new McpConnectionPool();
    try {
      const v1 = await pool.connection('A', 'doc', 'v1', options(server.url));
      const v2 = await pool.connection('A', 'doc', 'v2', options(server.url));
      expect(v2).not.toBe(v1);
      expect(v1.closed).toBe(true);
      expect(pool.size('A')).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('closes idle connections', async () => {
    const pool = new McpConnectionPool({ idleMs: 1 });
    try {
      const c = await pool.connection('A', 'doc', 'k', options(server.url));
      while (pool.size('A') > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(c.closed).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('remembers a failed connect for retryAfterMs instead of connecting again every turn', async () => {
    let opens = 0;
    const open = (o: McpConnectionOptions) => { opens++; return McpConnection.open(o); };
    const down = await closedPortUrl();
    const remembering = new McpConnectionPool({ open });
    const retrying = new McpConnectionPool({ open, retryAfterMs: 0 });
    try {
      await expect(remembering.connection('A', 'doc', 'k', options(down))).rejects.toThrow();
      await expect(remembering.connection('A', 'doc', 'k', options(down))).rejects.toThrow();
      expect(opens).toBe(1);
      await expect(retrying.connection('A', 'doc', 'k', options(down))).rejects.toThrow();
      await expect(retrying.connection('A', 'doc', 'k', options(down))).rejects.toThrow();
      expect(opens).toBe(3);
    } finally {
      await remembering.close();
      await retrying.close();
    }
  });
});
