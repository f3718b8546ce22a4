import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../api/bin/vance.js');

async function vance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return vanceIn(process.cwd(), ...args);
}

async function vanceIn(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd });
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

// Issue 15: paths came out resolved (relative to the working folder), a warning repeated in every
// file was printed once per file, and a missing folder was a raw ENOENT.
describe('vance lint output', () => {
  let root: string;
  const recipe = (engine: string, extra = '') => `description: d\nengine: ${engine}\n${extra}`;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vance-lint-out-'));
    mkdirSync(path.join(root, 'pack/_vance/recipes'), { recursive: true });
    mkdirSync(path.join(root, 'pack/_vance/skills/tooled'), { recursive: true });
    writeFileSync(path.join(root, 'pack/_vance/recipes/a.yaml'), recipe('zaphod'));
    writeFileSync(path.join(root, 'pack/_vance/recipes/b.yaml'), recipe('zaphod', 'params:\n  maxIterations: lots\n'));
    writeFileSync(path.join(root, 'pack/_vance/recipes/c.yaml'), recipe('zaphod', 'modes:\n  PLANNING: {}\n'));
    writeFileSync(path.join(root, 'pack/_vance/skills/tooled/SKILL.md'), '---\ntitle: T\ndescription: d\nversion: 1.0.0\ntools: [shell_exec]\ntriggers: review\n---\nBody\n');
  });

  it('prints paths as given, a warning repeated across files once with its count and files, and new diagnostics with file:line:col', async () => {
    const r = await vanceIn(root, 'lint', 'pack');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const engine = lines.filter((l) => l.includes("engine 'zaphod' does not run here"));
    expect(engine).toEqual([expect.stringMatching(/^pack\/_vance\/recipes\/a\.yaml:2:9 warning engine 'zaphod' does not run here.* \(engine\) \[3 files\]$/)]);
    const at = lines.indexOf(engine[0]!);
    expect(lines.slice(at + 1, at + 3)).toEqual(['  pack/_vance/recipes/b.yaml:2:9', '  pack/_vance/recipes/c.yaml:2:9']);
    expect(r.stdout).toContain('pack/_vance/recipes/b.yaml:4:18 warning maxIterations must be a whole number');
    expect(r.stdout).toMatch(/^pack\/_vance\/recipes\/c\.yaml:3:1 warning `modes` .*not supported by this deployment/m);
    expect(r.stdout).toMatch(/^pack\/_vance\/skills\/tooled\/SKILL\.md:5:9 warning .*no built-in tool is called 'shell_exec'/im);
    expect(r.stdout).toMatch(/^pack\/_vance\/skills\/tooled\/SKILL\.md:6:11 error `triggers` must be a list/m);
    expect(r.stdout).not.toContain(root);
    expect(lines.at(-1)).toBe('4 files (1 skills, 3 recipes): 1 errors, 6 warnings');
    expect((await vanceIn(root, 'lint', `${root}/pack/`)).stdout).toContain(`${root}/pack/_vance/recipes/a.yaml:2:9 warning`);
  });

  it('reports a missing path as one error line and lints the rest', async () => {
    const r = await vanceIn(root, 'lint', 'nowhere', 'pack/_vance/recipes');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('nowhere: error no such file or folder');
    expect(r.stdout).not.toMatch(/ENOENT|\n\s+at /);
    expect(lines.at(-1)).toBe('3 files (0 skills, 3 recipes): 1 errors, 5 warnings');
  });
});

// Issue 15: engine prompt documents (`_vance/prompts/<engine>-prompt.md`) were checked at save but
// not by vance lint, which knew only skills and recipes.
describe('vance lint: engine prompt documents', () => {
  it('reports a prompt that does not compile at file:line:col and a prompt for an engine that does not run here', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vance-lint-prompts-'));
    mkdirSync(path.join(root, '_vance/prompts'), { recursive: true });
    writeFileSync(path.join(root, '_vance/prompts/ford-prompt.md'), 'You are Ford.\n{% if tier == "small" %}\nBe brief.\n');
    writeFileSync(path.join(root, '_vance/prompts/zaphod-prompt.md'), 'You are Zaphod.\n');
    const r = await vanceIn(root, 'lint', '.');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^\.\/_vance\/prompts\/ford-prompt\.md:\d+:\d+ error The prompt does not compile as a template/m);
    expect(r.stdout).toMatch(/^\.\/_vance\/prompts\/zaphod-prompt\.md:1:1 warning No engine 'zaphod' runs here/m);
    expect(r.stdout).toContain('2 files (0 skills, 0 recipes, 2 engine prompts): 1 errors, 1 warnings');
  });
});

// Issue 19: MCP tool pack documents (`_vance/tools/<pack>.mcp.yaml`) are checked by vance lint as at save.
describe('vance lint: MCP tool packs', () => {
  it('reports a pack error at file:line:col and counts the packs', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vance-lint-packs-'));
    mkdirSync(path.join(root, '_vance/tools'), { recursive: true });
    writeFileSync(path.join(root, '_vance/tools/good.mcp.yaml'), 'url: https://mcp.example.com/mcp\nlabels: [web]\n');
    writeFileSync(path.join(root, '_vance/tools/bad.mcp.yaml'), 'labels: [web]\ntimeoutMs: soon\nurl: https://mcp.example.com/mcp\n');
    const r = await vanceIn(root, 'lint', '.');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^\.\/_vance\/tools\/bad\.mcp\.yaml:2:\d+ error timeoutMs must be a whole number/m);
    expect(r.stdout).not.toContain('good.mcp.yaml');
    expect(r.stdout).toContain('2 files (0 skills, 0 recipes, 2 MCP packs): 1 errors, 0 warnings');
  });
});
