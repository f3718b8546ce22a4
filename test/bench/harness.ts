/**
 * What the six benchmarks share: their options, the ratio rows they return, and the guard that runs
 * one as a script (`npm run bench`). Each benchmark exports `runBench(options)`; `tiny` is the
 * configuration test/bench/benchmarks.test.ts runs so that no benchmark rots between the runs that
 * matter. Speed is reported as ratios against a baseline measured in the same run and never asserted
 * (DEVELOPERS: "Speed and memory are measured in benchmarks … never as timed assertions in tests").
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface BenchOptions {
  /** Seconds instead of minutes: fixed small sizes (the BENCH_* variables are ignored). */
  readonly tiny?: boolean;
  /** Where the tables go (default: stdout). */
  readonly print?: (line: string) => void;
  /** Where the summary rows go (the runner prints them as one table at the end of `npm run bench`). */
  readonly summary?: (row: SummaryRow) => void;
}

/**
 * One line of the summary table of `npm run bench`: a figure the issues set a target for, next to
 * the baseline it is compared with (both from the same run), their ratio, the target as text, and
 * whether this run met it (null: no target, shown for information).
 */
export interface SummaryRow {
  /** What was measured, e.g. "turn overhead p50, PGlite, 5 sticky skills". */
  readonly name: string;
  /** The figure as shown, e.g. "3.1 ms". */
  readonly figure: string;
  /** The baseline as shown, e.g. "bare provider call 0.1 ms" ('' when the target is absolute). */
  readonly baseline: string;
  /** figure ÷ baseline, or null when the target is absolute. */
  readonly ratio: number | null;
  /** The target as shown, e.g. "< 5 ms" or "≤ 1.5×". */
  readonly target: string;
  readonly met: boolean | null;
}

/** One printed ratio: a case's measure ÷ its table's baseline, both from the same run. */
export interface RatioRow {
  readonly table: string;
  readonly name: string;
  readonly ratio: number;
}

export type Bench = (options?: BenchOptions) => Promise<readonly RatioRow[]>;

/** The tables of one run: prints lines and records every ratio it prints. */
export class BenchReport {
  readonly rows: RatioRow[] = [];

  readonly summaries: SummaryRow[] = [];

  constructor(
    readonly print: (line: string) => void = (line) => console.log(line),
    private readonly summarySink?: (row: SummaryRow) => void,
  ) {}

  /** Records a summary row (and passes it to the runner's sink, when there is one). */
  summary(row: SummaryRow): void {
    this.summaries.push(row);
    this.summarySink?.(row);
  }

  /** Records `ratio` as a row of `table` and returns it, for printing in place. */
  ratio(table: string, name: string, ratio: number): number {
    this.rows.push({ table, name, ratio });
    return ratio;
  }
}

/** The p-th percentile (nearest rank) of `values`; NaN for none. */
/** Wall time of one node process with `args`, from spawn to exit; throws with its stderr unless it exits 0. */
export function timeProcess(args: readonly string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`))));
  });
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A BENCH_* override of a full-size setting (tiny runs never read them). */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got '${raw}'`);
  return value;
}

/**
 * Template time limits for benchmarks that measure rendering, not its limits: one render stalled by
 * a GC pause on a loaded machine must not abort the run (DEFAULT_TEMPLATE_LIMITS stops a render at
 * 50 ms, the isolate at 100 ms), and the budget costs the same to check whatever its value. The
 * SSTI and DoS tables of templates.ts keep the defaults: there the limits are what is shown.
 */
export const UNHURRIED_TEMPLATE_LIMITS = Object.freeze({ timeLimitMs: 10_000, hardTimeoutMs: 20_000, compileTimeoutMs: 20_000 });

let gc: (() => void) | undefined;

/**
 * A full collection, so a path does not pay for the previous one's garbage. `--expose-gc` is set
 * on first use rather than on import, so a test that only imports a bench leaves V8 alone.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Whether `filename` is the script node was started with (not imported by a test or another bench). */
export function isMain(filename: string): boolean {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === filename;
}

/**
 * The main guard: when `filename` is the started script, runs the bench (tiny with BENCH_TINY=1) and
 * exits — explicitly, because a closed server or a disposed client may leave a handle open for a while.
 */
export function runAsScript(filename: string, bench: Bench): void {
  if (!isMain(filename)) return;
  bench({ tiny: process.env.BENCH_TINY === '1' }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
