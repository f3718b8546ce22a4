import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeLlmServer, openai, sse } from '../llm/fake-llm-server';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../api/bin/vance.js');
const REPO = path.resolve(__dirname, '../..');

async function vance(args: string[], env: Record<string, string> = {}, cwd = REPO): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function skill(root: string, name: string, frontmatter: string, evals?: string): void {
  mkdirSync(path.join(root, '_vance/skills', name), { recursive: true });
  writeFileSync(path.join(root, '_vance/skills', name, 'SKILL.md'), `---\ntitle: ${name}\ndescription: The ${name} skill\nversion: "1.0.0"\n${frontmatter}\n---\nBody\n`);
  if (evals !== undefined) writeFileSync(path.join(root, '_vance/skills', name, 'evals.yaml'), evals);
}

// Load: no per-test timeouts below the suite's own; each test starts the CLI once or twice.
describe('vance eval', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vance-eval-'));
    skill(root, 'review', 'triggers:\n  - type: KEYWORDS\n    keywords: [review, diff]\n    minMatch: 1', [
      'cases:',
      '  - message: please review this',
      '    fires: true',
      '  - message: what changed in the diff?',
      '    fires: true',
      '    only: true',
      '  - message: check my pull request',
      '    fires: true',
      '  - message: lunch?',
      '    fires: false',
    ].join('\n'));
    skill(root, 'git', 'triggers:\n  - type: KEYWORDS\n    keywords: [diff, commit]\n    minMatch: 1');
  });

  it('runs the bundled skills\' evals clean (the CI gate: npm test runs vance eval vance-defaults)', async () => {
    const r = await vance(['eval', 'vance-defaults']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}typescript-style: \d+ passed, 0 failed · precision 100% · recall 100%$/m);
    expect(r.stdout).toMatch(/\d+ skills, \d+ cases: \d+ passed, 0 failed, 0 skipped$/m);
  });

  it('exits 1 on a failing case and names it file:line with the turn\'s verdict sentence, and reports confusions', async () => {
    const r = await vance(['eval', root]);
    expect(r.code).toBe(1);
    const file = `${root}/_vance/skills/review/evals.yaml`;
    expect(r.stdout).toContain(`${file}:2 pass fires: true "please review this" — Mentioned: review.`);
    expect(r.stdout).toContain(`${file}:4 FAIL fires: true "what changed in the diff?" — Mentioned: diff. Expected only this skill to fire; also: git.`);
    expect(r.stdout).toContain(`${file}:7 FAIL fires: true "check my pull request" — Not triggered. Expected to fire; it did not.`);
    expect(r.stdout).toContain('  review: 2 passed, 2 failed · precision 100% · recall 67% · confusions: git (1 case)');
    expect(r.stdout).toMatch(/1 skills, 4 cases: 2 passed, 2 failed, 0 skipped$/m);
  });

  it('runs the folder it is started in when no path is given', async () => {
    const r = await vance(['eval'], {}, root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('./_vance/skills/review/evals.yaml:7 FAIL fires: true "check my pull request"');
  });

  it('reports JSON with --json', async () => {
    const r = await vance(['eval', '--json', root]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ cases: 4, passed: 2, failed: 2 });
    expect(report.skills[0]).toMatchObject({ skill: 'review', recall: 2 / 3, confusions: [{ skill: 'git', cases: [1] }] });
  });

  it('refuses an invalid evals file with file:line:col, and vance lint reports the same error', async () => {
    const bad = mkdtempSync(path.join(tmpdir(), 'vance-eval-bad-'));
    skill(bad, 'broken', 'triggers: []', 'cases:\n  - message: hi\n    fires: perhaps\n');
    const r = await vance(['eval', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${bad}/_vance/skills/broken/evals.yaml:3:12 error fires: true or false (cases[0].fires)`);
    const lint = await vance(['lint', bad]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`${bad}/_vance/skills/broken/evals.yaml:3:12 error fires: true or false (cases[0].fires)`);
  });
});

describe('vance eval — picked: cases against a model', () => {
  const server = new FakeLlmServer();
  let root: string;
  beforeAll(async () => {
    await server.start();
    // An OpenAI-compatible endpoint that opens the skill only when a dragon is mentioned.
    server.handler = (req, res) => {
      const messages = (req.body.messages ?? []) as { content?: string }[];
      const s = sse(res);
      if (messages.some((m) => String(m.content ?? '').includes('dragon'))) {
        s.data(openai.toolStart(0, 'call_1', 'open_skill'));
        s.data(openai.toolArgs(0, '{"name":"dragons"}'));
        s.data(openai.finish('tool_calls'));
      } else {
        s.data(openai.text('No skill needed.', true));
        s.data(openai.finish('stop'));
      }
      s.data('[DONE]');
      s.end();
    };
    root = mkdtempSync(path.join(tmpdir(), 'vance-eval-picked-'));
    skill(root, 'dragons', 'when: picked', 'picked: { runs: 2 }\ncases:\n  - message: a dragon attacks\n    picked: true\n  - message: a cat sleeps\n    picked: false\n  - message: the weather\n    picked: true\n');
  });
  afterAll(() => server.stop());

  it('skips them with a note when no provider is configured', async () => {
    const r = await vance(['eval', root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('skip picked: true "a dragon attacks" — Skipped: no model provider is configured.');
    expect(r.stdout).toContain('note: picked: cases skipped: no model provider is configured.');
    expect(server.requests).toHaveLength(0);
  });

  it('runs each case N times against the configured provider and reports the rate', async () => {
    const settings = { 'ai.default.provider': 'openai', 'ai.default.model': 'judge-model', 'ai.openai.apiKey': 'sk-test', 'ai.openai.baseUrl': `${server.baseUrl}/v1` };
    const r = await vance(['eval', root], { VANCE_DEFAULT_SETTINGS: JSON.stringify(settings) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('pass picked: true "a dragon attacks" — Opened in 2 of 2 runs (100%; threshold 67%).');
    expect(r.stdout).toContain('pass picked: false "a cat sleeps" — Left closed in 2 of 2 runs (100%; threshold 67%).');
    expect(r.stdout).toContain('FAIL picked: true "the weather" — Opened in 0 of 2 runs (0%; threshold 67%).');
    expect(server.requests).toHaveLength(6);
    const tool = (server.requests[0]?.body.tools as { function: { name: string; description: string } }[])[0]?.function;
    expect(tool?.name).toBe('open_skill');
    expect(tool?.description).toContain('dragons');
  });
});
