import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../api/bin/vance.js');

async function vance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Load: no per-test timeouts below the suite's own; a test starts the CLI up to four times, which a busy machine makes slow.
describe('vance lint', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vance-lint-'));
    mkdirSync(path.join(root, '_vance/skills/good'), { recursive: true });
    mkdirSync(path.join(root, '_vance/recipes'), { recursive: true });
    writeFileSync(path.join(root, '_vance/skills/good/SKILL.md'), '---\ntitle: Good\ndescription: fine\nversion: "1.0.0"\n---\nBody\n');
    writeFileSync(path.join(root, '_vance/recipes/bad.yaml'), 'description: bad\nengine: ford\nprojectKind: sometimes\n');
  });

  it('prints file:line:col severity message and exits 1 on errors', async () => {
    const r = await vance('lint', root);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/_vance\/recipes\/bad\.yaml:3:\d+ error .*projectKind/);
    expect(r.stdout).toContain('2 files (1 skills, 1 recipes): 1 errors, 0 warnings');
  });

  it('reports JSON with --json', async () => {
    const r = await vance('lint', '--json', root);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toBe(1);
    expect(report.files.find((f: { name: string }) => f.name === 'good').diagnostics).toEqual([]);
  });

  it('exits 0 on a clean tree and 2 on bad usage', async () => {
    expect((await vance('lint', path.join(root, '_vance/skills'))).code).toBe(0);
    expect((await vance('lint')).code).toBe(2);
    expect((await vance('lint', '--frobnicate', root)).code).toBe(2);
    expect((await vance('frobnicate')).code).toBe(2);
  });
});
