/**
 * Issue 18 (start time and memory) for issue 19's MCP packs: the MCP SDK's client is not loaded when
 * Vance starts, nor by turns in a tenant without packs; the first turn that meets a pack loads it.
 * (The server bundle leaves the SDK outside, build-bundle.ts, so a start does not even read it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startMcpTestServer, type McpTestServer } from '../support/mcp-test-server';
import type { Database } from '../../api/src/persistence';
import { mcpSdkLoaded } from '../../api/src/mcp-client/mcp-sdk';
import { startTestVance, type TestVance } from './harness';

const PUT = `mutation Put($path: String!, $content: String!) { putDocument(layer: VANCE, path: $path, content: $content) { version } }`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { tools } }`;

describe('the MCP SDK is loaded on first use', () => {
  const driver = testDatabases()[0]!;
  let db: Database;
  let t: TestVance;
  let server: McpTestServer;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    server = await startMcpTestServer();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await db?.close();
  });

  it('not at start, not for a tenant without packs; with the first pack', async () => {
    expect(mcpSdkLoaded()).toBe(false);
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    await t.gql(PUT, { path: '_vance/recipes/plain.yaml', content: 'description: Worker\nengine: ford\nparams:\n  validation: false\n' });
    const id = (await t.gql(`mutation { spawnProcess(input: { project: "ops", recipe: "plain" }) { id } }`)).data!.spawnProcess.id;
    const before = await t.gql(PREVIEW, { id });
    expect(before.errors).toBeUndefined();
    expect(mcpSdkLoaded()).toBe(false);
    await t.gql(PUT, { path: '_vance/tools/main.mcp.yaml', content: `url: ${server.url}\n` });
    const after = await t.gql(PREVIEW, { id });
    expect(after.data!.composeTurnPreview.tools).toContain('main_echo');
    expect(mcpSdkLoaded()).toBe(true);
  });
});
