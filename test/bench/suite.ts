/**
 * The benchmarks `npm run bench` runs (test/bench/all.ts), in this order, each in its own process.
 * Every file of test/bench that runs as a bench script (`runAsScript(`) must be listed here:
 * all.test.ts checks it, so a new bench cannot be left out of the suite by mistake.
 */
export interface SuiteBench {
  /** Shown in the summary table. */
  readonly name: string;
  /** Its file, relative to test/bench; it exports `runBench(options)` (harness.ts). */
  readonly file: string;
  /**
   * Issue 18 sets this bench's targets on PGlite AND on PostgreSQL: with TEST_DATABASE_URL the
   * runner runs it twice (forEachDatabase), so one run answers both.
   */
  readonly onBothDatabases?: true;
  /** Set by the runner: 'pglite' runs the bench without TEST_DATABASE_URL. */
  readonly database?: 'pglite' | 'postgres';
}

/**
 * The suite as one run runs it: a bench with `onBothDatabases` becomes two, PGlite then PostgreSQL,
 * when PostgreSQL is configured; without it the bench runs once, on PGlite.
 */
export function forEachDatabase(benches: readonly SuiteBench[], postgres: boolean): SuiteBench[] {
  return benches.flatMap((bench) =>
    bench.onBothDatabases && postgres
      ? [
          { ...bench, name: `${bench.name} (PGlite)`, database: 'pglite' as const },
          { ...bench, name: `${bench.name} (PostgreSQL)`, database: 'postgres' as const },
        ]
      : [bench],
  );
}

export const SUITE: readonly SuiteBench[] = [
  { name: 'GraphQL throughput', file: 'run.ts' },
  { name: 'templates', file: 'templates.ts' },
  { name: 'turn preparation', file: 'turn-preparation.ts' },
  { name: 'turns and fan-out', file: 'turns.ts', onBothDatabases: true },
  { name: 'fan-out write path', file: 'ws-write-path.ts' },
  { name: 'scripts', file: 'scripts.ts' },
  { name: 'MCP pack tool calls', file: 'mcp-pack-call.ts' },
  { name: 'triggers', file: 'triggers.ts' },
  { name: 'trigger regexes', file: 'trigger-regexes.ts' },
  { name: 'scale-out', file: 'scale-out.ts' },
  { name: 'skills over MCP', file: 'mcp-skills.ts' },
  { name: 'skill evals', file: 'skill-evals.ts' },
  { name: 'job engines', file: 'job-engines.ts' },
  { name: 'abuse', file: 'abuse.ts' },
  { name: 'vance lint start', file: 'cli-start.ts' },
  { name: 'embedded start and server memory', file: 'embedded-start.ts' },
];
