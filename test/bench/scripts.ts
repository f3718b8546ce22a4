/**
 * The script sandbox (api/src/sandbox/script-sandbox.ts): what a warm isolate pool saves, and what
 * one `vance.*` binding round trip costs, each against a baseline measured in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/scripts.ts
 *   (BENCH_ITERATIONS=2000 BENCH_CALLS=100 to change the defaults)
 *
 * 1. A small skill-like script (reads args, builds an object) on the warm pool vs. a cold isolate
 *    per run (poolSize 0: create, bootstrap, run, dispose): p50/p99 and the ratio.
 * 2. A script making BENCH_CALLS calls to a trivial host function vs. the same script making none:
 *    (p50 with calls − p50 without) / calls = one round trip (JSON out, applySyncPromise, JSON back),
 *    for a sync and an async host function.
 * Numbers are printed, never asserted.
 */
import type { ScriptRunRequest } from '../../api/src/domain/scripting/script-runner';
import { ScriptSandbox } from '../../api/src/sandbox/script-sandbox';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const WARMUP = 50;
const ROUNDS = 5;

interface Stats { p50: number; p99: number }
type Case = [name: string, run: () => Promise<unknown>];

const SMALL: Omit<ScriptRunRequest, 'bindings'> = {
  filename: 'skills/bench/scripts/small.js',
  mode: 'EXPRESSION',
  source: 'const items = args.items.filter((i) => i.score > 2);\n({ count: items.length, names: items.map((i) => i.name.toUpperCase()) })',
  args: { items: Array.from({ length: 10 }, (_, i) => ({ name: `item ${i}`, score: i % 5 })) },
};

/** Round-robin rounds, so JIT warm-up and GC pressure do not favour whichever case runs last. */
async function measureAll(cases: readonly Case[], iterations: number): Promise<[string, Stats][]> {
  const samples = cases.map(() => [] as number[]);
  for (const [, run] of cases) for (let i = 0; i < WARMUP; i++) await run();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, [, run]] of cases.entries()) {
      for (let i = 0; i < iterations / ROUNDS; i++) {
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

async function pool(): Promise<void> {
  const warm = new ScriptSandbox({ poolSize: 2 });
  const cold = new ScriptSandbox({ poolSize: 0 });
  const rows = await measureAll([
    ['small script, warm pool (fresh context per run) (BASELINE)', () => warm.run({ ...SMALL, bindings: {} })],
    ['small script, cold isolate per run (create + dispose)', () => cold.run({ ...SMALL, bindings: {} })],
  ], ITERATIONS / 4);
  const base = rows[0]![1].p50;
  console.log(`\n## Warm pool vs. cold isolate: ${ITERATIONS / 4} runs per case (${ROUNDS} interleaved rounds) after ${WARMUP} warm-up\n`);
  console.log('| case | p50 ms | p99 ms | p50 vs baseline |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, s] of rows) console.log(`| ${name} | ${s.p50.toFixed(3)} | ${s.p99.toFixed(3)} | ${(s.p50 / base).toFixed(2)}× |`);
  warm.dispose();
  cold.dispose();
}

async function roundTrip(): Promise<void> {
  const sandbox = new ScriptSandbox({ poolSize: 2 });
  const bindings = { sync: (x: unknown) => x as number, async: async (x: unknown) => x as number };
  const loop = (fn: string, n: number) => ({
    filename: 'skills/bench/scripts/calls.js', mode: 'EXPRESSION' as const, bindings,
    source: `let sum = 0;\nfor (let i = 0; i < ${n}; i++) sum += vance.${fn}(i);\nsum`,
  });
  const rows = await measureAll([
    ['0 calls (BASELINE)', () => sandbox.run(loop('sync', 0))],
    [`${CALLS} calls, sync host function`, () => sandbox.run(loop('sync', CALLS))],
    [`${CALLS} calls, async host function`, () => sandbox.run(loop('async', CALLS))],
  ], ITERATIONS);
  const [base, ...withCalls] = rows;
  console.log(`\n## One binding round trip: ${ITERATIONS} runs per case (${ROUNDS} interleaved rounds) after ${WARMUP} warm-up\n`);
  console.log('| case | run p50 ms | run p99 ms | per call p50 µs | per call p99 µs |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  console.log(`| ${base![0]} | ${base![1].p50.toFixed(3)} | ${base![1].p99.toFixed(3)} | – | – |`);
  for (const [name, s] of withCalls) {
    const per = (t: number, b: number) => (((t - b) / CALLS) * 1000).toFixed(1);
    console.log(`| ${name} | ${s.p50.toFixed(3)} | ${s.p99.toFixed(3)} | ${per(s.p50, base![1].p50)} | ${per(s.p99, base![1].p99)} |`);
  }
  sandbox.dispose();
}

async function main(): Promise<void> {
  await pool();
  await roundTrip();
}

void main();
