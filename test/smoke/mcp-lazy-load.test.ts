import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 18 (start time and memory) for issue 19's endpoint: loading the server (app.ts and everything
// it imports) must not load the MCP SDK's server side; graphql/server.ts imports it with the first
// request to /mcp. Run in a child so this process's own imports cannot answer for the server's.
const ROOT = path.resolve(__dirname, '../..');
const PROBE = `
require('./api/src/app');
const sdk = Object.keys(require.cache).filter((key) => key.includes('/@modelcontextprotocol/sdk/dist/') && key.includes('/server/'));
const mcp = Object.keys(require.cache).filter((key) => key.includes('/api/src/mcp/'));
process.stdout.write(JSON.stringify({ sdk, mcp }) + '\\n');
`;

describe('the MCP endpoint', () => {
  it("is not loaded with the server: neither the SDK's server side nor api/src/mcp", () => {
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '-e', PROBE], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout.trim().split('\n').pop()!) as { sdk: string[]; mcp: string[] };
    expect(loaded).toEqual({ sdk: [], mcp: [] });
  });
});
