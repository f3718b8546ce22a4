/**
 * `npm run bench`: every benchmark of the suite (suite.ts), each in its own process (run-one.ts) so
 * that one bench's isolates, servers and heap do not colour the next one's figures, then ONE summary
 * table of the figures issue 18 sets targets for (the SummaryRows the benches report), the benches
 * that failed (FAILED, with their error's first line) and the targets no bench answered ("not
 * measured", targets.ts). A failing bench does not stop the others; the exit code is 1 when one failed.
 *
 *   node --no-node-snapshot --import tsx test/bench/all.ts            # the suite, full size
 *   BENCH_TINY=1 node --no-node-snapshot --import tsx test/bench/all.ts   # seconds per bench (the test's)
 *   node … test/bench/all.ts run.ts turns.ts                          # some benches only
 *
 * With TEST_DATABASE_URL the benches use PostgreSQL, and a bench whose targets the issue sets on
 * both databases (turns.ts) runs twice, PGlite then PostgreSQL, so that one run answers both.
 *
 * BENCH_TIMEOUT_S bounds each bench (default 60 min, tiny 10 min); the per-bench tables are printed
 * as each bench runs, as when it runs alone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { isMain, type SummaryRow } from './harness';
import type { RunOneMessage } from './run-one';
import { forEachDatabase, SUITE, type SuiteBench } from './suite';
import { EXPECTED_TARGETS, type ExpectedTarget } from './targets';

export interface BenchOutcome {
  readonly bench: SuiteBench;
  readonly rows: readonly SummaryRow[];
  /** The first line of the error, when the bench failed. */
  readonly failure: string | null;
  readonly seconds: number;
}

/** Runs one bench in a child process and collects its summary rows; never throws. */
export function runInChild(bench: SuiteBench, timeoutMs: number): Promise<BenchOutcome> {
  const started = performance.now();
  const rows: SummaryRow[] = [];
  let error: string | null = null;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', path.join(__dirname, 'run-one.ts'), bench.file], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: bench.database === 'pglite' ? withoutPostgres(process.env) : process.env,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (message: RunOneMessage) => {
      if ('summary' in message) rows.push(message.summary);
      else error = message.error;
    });
    const done = (failure: string | null) => {
      clearTimeout(timer);
      resolve({ bench, rows, failure, seconds: (performance.now() - started) / 1000 });
    };
    child.once('error', (err) => done(firstLine(err.message)));
    child.once('exit', (code, signal) => {
      if (timedOut) return done(`timed out after ${Math.round(timeoutMs / 1000)} s`);
      if (code === 0) return done(null);
      done(firstLine(error ?? `exited with ${signal ?? `code ${code}`} (no error reported)`));
    });
  });
}

function withoutPostgres(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TEST_DATABASE_URL: _url, ...rest } = env;
  return rest;
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text;
}

/** The targets of targets.ts that no reported row answers. */
export function unmeasuredTargets(rows: readonly SummaryRow[], targets: readonly ExpectedTarget[] = EXPECTED_TARGETS): ExpectedTarget[] {
  return targets.filter((t) => !rows.some((row) => t.pattern.test(row.name)));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const met = (value: boolean | null) => (value === null ? '—' : value ? 'yes' : '**NO**');

/** The summary table: per bench its rows (or that it completed / FAILED), then the unmeasured targets. */
export function summaryTable(outcomes: readonly BenchOutcome[], postgres: boolean): string[] {
  const lines = [
    '| bench | case | figure | baseline | ratio | target | met |',
    '| --- | --- | ---: | --- | ---: | --- | :---: |',
  ];
  for (const { bench, rows, failure, seconds } of outcomes) {
    for (const r of rows) {
      lines.push(`| ${cell(bench.name)} | ${cell(r.name)} | ${cell(r.figure)} | ${cell(r.baseline)} | ${r.ratio === null ? '' : `${r.ratio.toFixed(2)}×`} | ${cell(r.target)} | ${met(r.met)} |`);
    }
    if (failure !== null) lines.push(`| ${cell(bench.name)} | FAILED | ${cell(failure)} | | | | **NO** |`);
    else if (rows.length === 0) lines.push(`| ${cell(bench.name)} | completed (no issue 18 target) | ${seconds.toFixed(0)} s | | | | — |`);
  }
  for (const t of unmeasuredTargets(outcomes.flatMap((o) => o.rows))) {
    const why = t.postgres && !postgres ? 'not measured (needs TEST_DATABASE_URL)' : 'not measured';
    lines.push(`| — | ${cell(t.what)} | ${why} | | | ${cell(t.target)} | — |`);
  }
  return lines;
}

export async function runSuite(benches: readonly SuiteBench[], options: { tiny: boolean; timeoutMs: number; print?: (line: string) => void }): Promise<BenchOutcome[]> {
  const print = options.print ?? ((line: string) => console.log(line));
  const outcomes: BenchOutcome[] = [];
  for (const bench of benches) {
    print(`\n==== bench: ${bench.name} (${bench.file}${options.tiny ? ', tiny' : ''}) ====\n`);
    const outcome = await runInChild(bench, options.timeoutMs);
    print(`\n==== ${bench.name}: ${outcome.failure === null ? 'completed' : `FAILED: ${outcome.failure}`} in ${outcome.seconds.toFixed(1)} s ====`);
    outcomes.push(outcome);
  }
  return outcomes;
}

async function main(): Promise<number> {
  const tiny = process.env.BENCH_TINY === '1';
  const only = process.argv.slice(2);
  const postgres = Boolean(process.env.TEST_DATABASE_URL);
  const chosen = only.length === 0 ? SUITE : only.map((file) => SUITE.find((b) => b.file === file) ?? { name: path.basename(file, '.ts'), file });
  const benches = forEachDatabase(chosen, postgres);
  const timeoutS = Number(process.env.BENCH_TIMEOUT_S) || (tiny ? 600 : 3600);
  const started = performance.now();
  const outcomes = await runSuite(benches, { tiny, timeoutMs: timeoutS * 1000 });
  const rows = outcomes.flatMap((o) => o.rows);
  const failed = outcomes.filter((o) => o.failure !== null);
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  console.log(`\n## Summary (${postgres ? 'PostgreSQL; turns and fan-out on PGlite too' : 'PGlite'}${tiny ? ', tiny: figures are not meaningful' : ''}; ${minutes} min; node ${process.version})\n`);
  for (const line of summaryTable(outcomes, postgres)) console.log(line);
  const targeted = rows.filter((r) => r.met !== null);
  console.log(`\n${targeted.filter((r) => r.met).length} of ${targeted.length} reported targets met; ${unmeasuredTargets(rows).length} of ${EXPECTED_TARGETS.length} issue targets not measured; ${failed.length} of ${outcomes.length} benches failed.`);
  return failed.length === 0 ? 0 : 1;
}

if (isMain(__filename)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
