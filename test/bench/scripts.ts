/**
 * The script sandbox (api/src/sandbox/script-sandbox.ts): what a warm isolate pool saves, and what
 * one `vance.*` binding round trip costs, each against a baseline measured in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/scripts.ts
 *   (BENCH_ITERATIONS=2000 BENCH_CALLS=100 are the defaults; BENCH_TINY=1 for the test's sizes)
 *
 * 1. A small skill-like script (reads args, builds an object) on the warm pool vs. a cold isolate
 *    per run (poolSize 0: create, bootstrap, run, dispose): p50/p99 and the ratio.
 * 2. A script making BENCH_CALLS calls to a trivial host function vs. the same script making none:
 *    (p50 with calls − p50 without) / calls = one round trip (JSON out, applySyncPromise, JSON back),
 *    for a sync and an async host function; each run's p50 against the no-call run's.
 * Numbers are printed, never asserted.
 */
import type { ScriptRunRequest } from '../../api/src/domain/scripting/script-runner';
import { ScriptSandbox } from '../../api/src/sandbox/script-sandbox';
import { BenchReport, envNumber, runAsScript, type BenchOptions, type RatioRow } from './harness';

interface Settings {
  /** Runs per case of the round-trip table (a quarter of it per case of the pool table). */
  readonly iterations: number;
  /** Host calls per run of the round-trip cases. */
  readonly calls: number;
  readonly warmUp: number;
  readonly rounds: number;
}

function settings(tiny: boolean): Settings {
  if (tiny) return { iterations: 40, calls: 10, warmUp: 5, rounds: 2 };
  return { iterations: envNumber('BENCH_ITERATIONS', 2000), calls: envNumber('BENCH_CALLS', 100), warmUp: 50, rounds: 5 };
}

interface Stats { p50: number; p99: number }
type Case = [name: string, run: () => Promise<unknown>];

const SMALL: Omit<ScriptRunRequest, 'bindings'> = {
  filename: 'skills/bench/scripts/small.js',
  mode: 'EXPRESSION',
  source: 'const items = args.items.filter((i) => i.score > 2);\n({ count: items.length, names: items.map((i) => i.name.toUpperCase()) })',
  args: { items: Array.from({ length: 10 }, (_, i) => ({ name: `item ${i}`, score: i % 5 })) },
};

/** Round-robin rounds, so JIT warm-up and GC pressure do not favour whichever case runs last. */
async function measureAll(s: Settings, cases: readonly Case[], iterations: number): Promise<[string, Stats][]> {
  const samples = cases.map(() => [] as number[]);
  for (const [, run] of cases) for (let i = 0; i < s.warmUp; i++) await run();
  for (let round = 0; round < s.rounds; round++) {
    for (const [c, [, run]] of cases.entries()) {
      for (let i = 0; i < iterations / s.rounds; i++) {
        const t0 = performance.now();
        await run();
        samples[c]!.push(performance.now() - t0);
      }
    }
  }
  return cases.map(([name], c) => {
    const times = samples[c]!.sort((a, b) => a - b);
    return [name, { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! }];
  });
}

async function pool(s: Settings, report: BenchReport): Promise<void> {
  const warm = new ScriptSandbox({ poolSize: 2 });
  const cold = new ScriptSandbox({ poolSize: 0 });
  try {
    const rows = await measureAll(s, [
      ['small script, warm pool (fresh context per run) (BASELINE)', () => warm.run({ ...SMALL, bindings: {} })],
      ['small script, cold isolate per run (create + dispose)', () => cold.run({ ...SMALL, bindings: {} })],
    ], s.iterations / 4);
    const base = rows[0]![1].p50;
    const out = report.print;
    out(`\n## Warm pool vs. cold isolate: ${s.iterations / 4} runs per case (${s.rounds} interleaved rounds) after ${s.warmUp} warm-up\n`);
    out('| case | p50 ms | p99 ms | p50 vs baseline |');
    out('| --- | ---: | ---: | ---: |');
    for (const [name, r] of rows) out(`| ${name} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${report.ratio('Warm pool vs. cold isolate', name, r.p50 / base).toFixed(2)}× |`);
    const [warmRow, coldRow] = [rows[0]![1], rows[1]![1]];
    const baseline = `cold isolate per run p50 ${coldRow.p50.toFixed(3)} ms`;
    report.summary({
      name: 'small script on the warm pool, p50', figure: `${warmRow.p50.toFixed(3)} ms`, baseline,
      ratio: warmRow.p50 / coldRow.p50, target: 'p50 < 0.5 ms', met: warmRow.p50 < 0.5,
    });
    report.summary({
      name: 'small script on the warm pool, p99', figure: `${warmRow.p99.toFixed(3)} ms`, baseline: `cold isolate per run p99 ${coldRow.p99.toFixed(3)} ms`,
      ratio: warmRow.p99 / coldRow.p99, target: '(was 5.4 ms)', met: null,
    });
  } finally {
    warm.dispose();
    cold.dispose();
  }
}

async function roundTrip(s: Settings, report: BenchReport): Promise<void> {
  const sandbox = new ScriptSandbox({ poolSize: 2 });
  const bindings = { sync: (x: unknown) => x as number, async: async (x: unknown) => x as number };
  const loop = (fn: string, n: number) => ({
    filename: 'skills/bench/scripts/calls.js', mode: 'EXPRESSION' as const, bindings,
    source: `let sum = 0;\nfor (let i = 0; i < ${n}; i++) sum += vance.${fn}(i);\nsum`,
  });
  try {
    const rows = await measureAll(s, [
      ['0 calls (BASELINE)', () => sandbox.run(loop('sync', 0))],
      [`${s.calls} calls, sync host function`, () => sandbox.run(loop('sync', s.calls))],
      [`${s.calls} calls, async host function`, () => sandbox.run(loop('async', s.calls))],
    ], s.iterations);
    const base = rows[0]![1];
    const out = report.print;
    out(`\n## One binding round trip: ${s.iterations} runs per case (${s.rounds} interleaved rounds) after ${s.warmUp} warm-up\n`);
    out('| case | run p50 ms | run p99 ms | run p50 vs baseline | per call p50 µs | per call p99 µs |');
    out('| --- | ---: | ---: | ---: | ---: | ---: |');
    const per = (t: number, b: number) => (((t - b) / s.calls) * 1000).toFixed(1);
    for (const [c, [name, r]] of rows.entries()) {
      const ratio = report.ratio('One binding round trip', name, r.p50 / base.p50).toFixed(2);
      out(`| ${name} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${ratio}× | ${c === 0 ? '–' : per(r.p50, base.p50)} | ${c === 0 ? '–' : per(r.p99, base.p99)} |`);
    }
  } finally {
    sandbox.dispose();
  }
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  await pool(s, report);
  await roundTrip(s, report);
  return report.rows;
}

runAsScript(__filename, runBench);
