import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { ADMIN_TOKEN, startTestVance, type TestVance } from '../graphql/harness';
import { testDatabases } from '../support/databases';
import { mcpUrl } from './mcp-client';

/**
 * A client that goes away without DELETE does not keep its MCP session (issue 19): with
 * VANCE_MCP_SESSION_IDLE_MS at its minimum (1 s), a session without requests is closed and its id
 * answers "Session not found". Each probe that still finds the session starts its idle time anew, so
 * the wait doubles until one is longer than the idle time and the sweep on a loaded machine.
 */
describe.each(testDatabases())('MCP sessions left idle ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  const headers = (session?: string) => ({
    'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ADMIN_TOKEN}`,
    'mcp-protocol-version': '2025-06-18', ...(session ? { 'mcp-session-id': session } : {}),
  });

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_MCP_SESSION_IDLE_MS: '1000' });
  });

  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('closes a session that had no request for the idle time', async () => {
    const init = await fetch(mcpUrl(t.url), {
      method: 'POST', headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'idle-test', version: '1' } } }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    await init.text();
    const probe = async (id: number) => {
      const res = await fetch(mcpUrl(t.url), { method: 'POST', headers: headers(session!), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'skills/list', params: {} }) });
      return { status: res.status, body: await res.text() };
    };
    const alive = await probe(2);
    expect(alive.status).toBe(200);
    expect(alive.body).toContain('"skills"');

    let wait = 1_500;
    let answer = await probe(3);
    for (let round = 0; answer.status === 200 && round < 6; round++, wait *= 2) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      answer = await probe(4 + round);
    }
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('Session not found');
  }, 120_000);
});
