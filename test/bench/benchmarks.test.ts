import { describe, expect, it } from 'vitest';
import { runBench as abuse } from './abuse';
import { summaryTable, type BenchOutcome } from './all';
import { runBench as cliStart } from './cli-start';
import { runBench as embeddedStart } from './embedded-start';
import { runBench as mcpSkills } from './mcp-skills';
import { runBench as skillEvals } from './skill-evals';
import type { Bench, SummaryRow } from './harness';
import { runJobEngines } from './job-engines';
import { runBench as mcpPackCall } from './mcp-pack-call';
import { runBench as run } from './run';
import { runBench as scaleOut } from './scale-out';
import { runBench as scripts } from './scripts';
import { runBench as templates } from './templates';
import { runBench as triggerRegexes } from './trigger-regexes';
import { runBench as triggers } from './triggers';
import { SUITE } from './suite';
import { runBench as turnPreparation } from './turn-preparation';
import { runBench as turns } from './turns';
import { runBench as wsWritePath } from './ws-write-path';

// Guards against a past bug: `npm run bench` stopped at its first step (a fixture refused by tightened
// validation) and nobody noticed, because nothing ran the benchmarks in between (issue 12). Each one
// runs here in its tiny configuration; what is checked is that it completes and returns its ratio
// rows, each finite and positive — never how fast anything is (DEVELOPERS: speed is measured in
// benchmarks as same-run ratios, not asserted in tests).
// `npm run bench` (all.ts) runs the same benches, each in a process of its own; to keep CI short,
// its summary is checked here from these runs (all.test.ts checks the runner itself on fixtures).
const BENCHES: [file: string, bench: Bench, tables: string[]][] = [
  ['run.ts', run, ['vs bare node:http', 'vs trivial query', 'warm vs naive']],
  ['templates.ts', templates, ['Cold start', 'Render latency']],
  ['turn-preparation.ts', turnPreparation, ['naive ÷ ours, p50', 'naive ÷ ours, p99', 'naive p99 ÷ variant p99', 'Token estimate, tokenx ÷ chars/4']],
  ['turns.ts', turns, ['Turn overhead, turn ÷ bare', 'Fan-out, many ÷ 1 subscriber']],
  ['ws-write-path.ts', wsWritePath, ['Direct frame ÷ ws send, server CPU']],
  ['scripts.ts', scripts, ['Warm pool vs. cold isolate', 'One binding round trip', 'Memory after large operations ÷ idle']],
  ['mcp-pack-call.ts', mcpPackCall, ['MCP pack call ÷ built-in call']],
  ['triggers.ts', triggers, ['naive ÷ index']],
  ['trigger-regexes.ts', triggerRegexes, ['Trigger regexes ÷ V8 literal search']],
  ['scale-out.ts', scaleOut, [
    ...(process.env.TEST_DATABASE_URL ? ['Scale-out: turns/s ÷ 1 instance', 'Takeover ÷ lease'] : []), 'sendMessage: beside a waiting turn ÷ idle process',
  ]],
  ['mcp-skills.ts', mcpSkills, ['skills/list: MCP ÷ GraphQL']],
  ['skill-evals.ts', skillEvals, ['Skill evals: through the API ÷ vance eval, per case']],
  ['abuse.ts', abuse, ['Abuse: probe p50 ÷ baseline p50', 'Abuse: probe p99 ÷ baseline p99', 'Abuse: RSS after ÷ before']],
  ['cli-start.ts', cliStart, ['vance lint start ÷ node -e 0']],
  // Tiny: the existing data directory only, under tsx (the empty one needs the build's template).
  ['embedded-start.ts', embeddedStart, ['Embedded start ÷ bare node', 'Server RSS ÷ idle']],
];

describe('benchmarks in their tiny configuration', () => {
  const outcomes = new Map<string, BenchOutcome>();
  const suiteBench = (file: string) => SUITE.find((b) => b.file === file) ?? { name: file, file };

  it('covers every bench of the suite (job-engines below)', () => {
    expect([...BENCHES.map(([file]) => file), 'job-engines.ts'].sort()).toEqual(SUITE.map((b) => b.file).sort());
  });

  it.each(BENCHES)('%s completes and prints its tables with a finite positive ratio in every row', async (file, bench, tables) => {
    const lines: string[] = [];
    const summaries: SummaryRow[] = [];
    const started = performance.now();
    outcomes.set(file, { bench: suiteBench(file), rows: summaries, failure: 'did not complete', seconds: 0 });
    const rows = await bench({ tiny: true, print: (line) => lines.push(line), summary: (row) => summaries.push(row) });
    outcomes.set(file, { bench: suiteBench(file), rows: summaries, failure: null, seconds: (performance.now() - started) / 1000 });
    expect([...new Set(rows.map((r) => r.table))].sort()).toEqual([...tables].sort());
    for (const { table, name, ratio } of rows) {
      expect(Number.isFinite(ratio) && ratio > 0, `${table} / ${name}: ${ratio}`).toBe(true);
    }
    expect(lines.some((line) => line.startsWith('| '))).toBe(true); // a markdown table was printed
  }, 180_000);

  // The job-engine comparison needs PostgreSQL; tiny runs the lease lane only (its engines' takeover takes minutes).
  it.skipIf(!process.env.TEST_DATABASE_URL)('job-engines completes, and the lease lane never runs two jobs of one key at once', async () => {
    const lines: string[] = [];
    const { rows, overlaps } = await runJobEngines({ tiny: true, print: (line) => lines.push(line) });
    expect([...new Set(rows.map((r) => r.table))].sort()).toEqual(['Job engines: jobs/s ÷ lease, 1 worker', 'Job engines: jobs/s ÷ same candidate, 1 worker', 'Job engines: takeover ÷ lease'].sort());
    for (const { table, name, ratio } of rows) {
      expect(Number.isFinite(ratio) && ratio > 0, `${table} / ${name}: ${ratio}`).toBe(true);
    }
    expect(overlaps.lease).toBe(0);
    expect(lines.some((line) => line.startsWith('| lease |'))).toBe(true);
  }, 180_000);

  // The table `npm run bench` ends with, from the runs above: a line per bench that ran (its
  // figures, or "completed"), FAILED for one that did not, never a bench left out.
  it('ends with one summary table with a line per bench and no FAILED line', () => {
    const table = summaryTable([...outcomes.values()], Boolean(process.env.TEST_DATABASE_URL));
    for (const file of outcomes.keys()) { // every bench that ran (all of them, unless filtered with -t)
      const name = suiteBench(file).name;
      expect(table.some((line) => line.startsWith(`| ${name} | `)), name).toBe(true);
      expect(table.some((line) => line.startsWith(`| ${name} | FAILED |`)), name).toBe(false);
    }
  });
});
