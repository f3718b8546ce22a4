/**
 * `vance lint` start (issue 18: "≈ 3 s; target < 1 s for a single file"): the wall time of a whole
 * `vance lint <one SKILL.md>` process, as an author runs it (api/bin/vance.js: the compiled build
 * when it is fresh, the sources through tsx otherwise), and of the sources through tsx for
 * comparison, against `node -e 0` in the same run (what any Node process costs on this machine now).
 * Interleaved rounds, medians; the target is absolute, so a loaded machine can miss it on its own.
 *
 *   node --no-node-snapshot --import tsx test/bench/cli-start.ts
 *   (BENCH_ROUNDS=7 is the default; BENCH_TINY=1 for the test's: one round)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow, timeProcess } from './harness';

const API = path.resolve(__dirname, '../../api');
const { compiledIsFresh } = createRequire(__filename)(path.join(API, 'bin/compiled-cli.js')) as { compiledIsFresh: (apiDir: string) => boolean };

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const rounds = options.tiny ? 1 : envNumber('BENCH_ROUNDS', 7);
  const report = new BenchReport(options.print, options.summary);
  const dir = mkdtempSync(path.join(tmpdir(), 'vance-lint-bench-'));
  try {
    const skill = path.join(dir, '_vance/skills/bench/SKILL.md');
    mkdirSync(path.dirname(skill), { recursive: true });
    writeFileSync(skill, '---\ntitle: Bench\ndescription: The skill the lint start bench lints.\nversion: "1.0.0"\n---\nAnswer briefly.\n');
    const compiled = compiledIsFresh(API);
    const cases = [
      { name: 'node -e 0 (BASELINE)', args: ['-e', '0'] },
      { name: `vance lint, one SKILL.md (api/bin/vance.js: ${compiled ? 'the fresh build' : 'no fresh build, the sources through tsx'})`, args: [path.join(API, 'bin/vance.js'), 'lint', skill] },
      { name: 'vance lint, one SKILL.md, the sources through tsx', args: ['-r', 'tsx/cjs', path.join(API, 'src/cli/main.ts'), 'lint', skill] },
    ];
    const times = cases.map(() => [] as number[]);
    await timeProcess(cases[2]!.args); // warms tsx's transform cache, as any second run finds it
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of cases.entries()) times[i]!.push(await timeProcess(c.args));
    }
    const medians = times.map((t) => percentile(t, 50));
    const base = medians[0]!;
    const out = report.print;
    out(`\n## vance lint start: wall time of the whole process, median of ${rounds} interleaved rounds\n`);
    out('| case | median ms | max ms | vs node -e 0 |');
    out('| --- | ---: | ---: | ---: |');
    for (const [i, c] of cases.entries()) {
      out(`| ${c.name} | ${medians[i]!.toFixed(0)} | ${Math.max(...times[i]!).toFixed(0)} | ${report.ratio('vance lint start ÷ node -e 0', c.name, medians[i]! / base).toFixed(2)}× |`);
    }
    if (!compiled) out('\n(no fresh build: `npm run build` first to measure what an installed CLI starts with)');
    const lint = medians[1]!;
    report.summary({
      name: `vance lint start, one SKILL.md (${compiled ? 'build' : 'sources through tsx'})`,
      figure: `${(lint / 1000).toFixed(2)} s`, baseline: `node -e 0 ${(base / 1000).toFixed(2)} s`, ratio: lint / base,
      target: '< 1 s', met: lint < 1000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return report.rows;
}

runAsScript(__filename, runBench);
