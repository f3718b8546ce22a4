import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInChild } from './all';
import { forEachDatabase, SUITE, type SuiteBench } from './suite';
import { EXPECTED_TARGETS } from './targets';

interface Run { code: number; stdout: string }

/** `npm run bench`'s runner with these arguments (tiny), its exit code and output. */
function runner(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--no-node-snapshot', '--import', 'tsx', path.join(__dirname, 'all.ts'), ...args], {
      env: { ...process.env, BENCH_TINY: '1', ...env }, maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }));
  });
}

/** The lines of the summary table printed at the end. */
function summaryRows(stdout: string): string[] {
  const at = stdout.lastIndexOf('## Summary');
  expect(at, 'a summary at the end').toBeGreaterThan(-1);
  return stdout.slice(at).split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| bench |') && !line.startsWith('| --- '));
}

// Issue 18, item 6: `npm run bench` chained the benches with &&, so the first failing one stopped the
// rest and no summary was printed. The runner goes on past a failure and ends with one table.
describe('npm run bench (test/bench/all.ts)', () => {
  it('lists every bench of test/bench in its suite', () => {
    const benches = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && /^\s*runAsScript\(__filename/m.test(readFileSync(path.join(__dirname, f), 'utf8')));
    expect(SUITE.map((b) => b.file).sort()).toEqual(benches.sort());
  });

  it('goes on past a failing bench, shows it FAILED with its first line, lists the targets no bench answered, and exits 1', async () => {
    const { code, stdout } = await runner(['fixtures/failing-bench.ts', 'fixtures/reporting-bench.ts']);
    expect(code).toBe(1);
    expect(stdout).toContain('| fixture | table |'); // the second bench ran and printed its table
    const rows = summaryRows(stdout);
    expect(rows).toContainEqual(expect.stringMatching(/^\| failing-bench \| fixture row before the failure \| 1 ms \|/));
    expect(rows).toContainEqual(expect.stringMatching(/^\| failing-bench \| FAILED \| fixture failure: the first line \|/));
    expect(stdout).not.toContain('and a second line');
    expect(rows).toContainEqual(expect.stringMatching(/^\| reporting-bench \| vance lint start, fixture \| 0\.50 s \| node -e 0 0\.10 s \| 5\.00× \| < 1 s \| yes \|$/));
    const unmeasured = rows.filter((r) => r.includes('not measured'));
    expect(unmeasured).toHaveLength(EXPECTED_TARGETS.length - 1); // all but the lint start the fixture answered
    expect(unmeasured.some((r) => r.includes('vance lint'))).toBe(false);
  }, 120_000);

  it('runs a bench whose targets are on both databases once without and once with TEST_DATABASE_URL', async () => {
    const both: SuiteBench = { name: 'db fixture', file: 'fixtures/database-bench.ts', onBothDatabases: true };
    expect(forEachDatabase([both], false)).toEqual([both]);
    const runs = forEachDatabase([both], true);
    expect(runs.map((b) => [b.name, b.database])).toEqual([['db fixture (PGlite)', 'pglite'], ['db fixture (PostgreSQL)', 'postgres']]);
    const url = 'postgres://fixture@127.0.0.1:1/none';
    const previous = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = url;
    try {
      const outcomes = await Promise.all(runs.map((bench) => runInChild(bench, 120_000)));
      expect(outcomes.map((o) => [o.failure, o.rows.map((r) => r.name)])).toEqual([
        [null, ['database fixture on PGlite']],
        [null, [`database fixture on PostgreSQL ${url}`]],
      ]);
    } finally {
      if (previous === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = previous;
    }
  }, 240_000);

  // The whole suite's tiny runs are checked in benchmarks.test.ts (in-process, once per CI run);
  // here two real benches run as the runner runs them, each in its own process.
  it('runs real benches in child processes and prints their rows in the summary', async () => {
    const { code, stdout } = await runner(['trigger-regexes.ts', 'cli-start.ts']);
    const rows = summaryRows(stdout);
    expect(rows.filter((r) => r.includes('| FAILED |'))).toEqual([]);
    expect(code).toBe(0);
    expect(rows).toContainEqual(expect.stringMatching(/^\| trigger regexes \| completed \(no issue 18 target\) \|/));
    expect(rows).toContainEqual(expect.stringMatching(/^\| vance lint start \| vance lint start, one SKILL\.md .* \| < 1 s \| (yes|\*\*NO\*\*) \|$/));
  }, 300_000);
});
