import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../api/bin/vance.js');

async function vance(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

/** Issue 19: `vance lint` validates tool documents (`_vance/tools/<name>.yaml`) and leaves MCP packs to their own kind. */
describe('vance lint on tool documents', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vance-lint-tools-'));
    mkdirSync(path.join(root, '_vance/tools'), { recursive: true });
    writeFileSync(path.join(root, '_vance/tools/good.yaml'), [
      'description: Fine', 'labels: [web]', 'parameters:', '  type: object', '  properties:', '    q: { type: string }',
      'http:', '  url: "https://api.example/search?q={q}"',
    ].join('\n'));
    writeFileSync(path.join(root, '_vance/tools/hop.yaml'), [
      'description: Moves the host', 'parameters:', '  type: object', '  properties:', '    host: { type: string }',
      'http:', '  url: "https://{host}/x"',
    ].join('\n'));
    writeFileSync(path.join(root, '_vance/tools/respond.yaml'), 'description: Takes a built-in name\nscript:\n  source: "1"\n');
    writeFileSync(path.join(root, '_vance/tools/web.mcp.yaml'), 'not: [a tool document\n');
  });

  it('reports located errors for tool documents and counts them; a .mcp.yaml pack is checked as a pack, not as a tool', async () => {
    const r = await vance('lint', root);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/_vance\/tools\/hop\.yaml:7:\d+ error http\.url: the scheme, host and port of url are literal/);
    expect(r.stdout).toMatch(/_vance\/tools\/respond\.yaml:\d+:\d+ error 'respond' is the name of a built-in tool/);
    expect(r.stdout).not.toContain('good.yaml');
    // h-packs: packs have their own kind now (domain/tools/mcp-pack.ts); its YAML error is a pack's.
    expect(r.stdout).toMatch(/_vance\/tools\/web\.mcp\.yaml:\d+:\d+ error YAML/);
    expect(r.stdout).not.toMatch(/web\.mcp\.yaml.*(parameters|http|script)/);
    expect(r.stdout).toContain('4 files (0 skills, 0 recipes, 3 tools, 1 MCP packs): 3 errors');
  });
});
