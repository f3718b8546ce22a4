import { describe, expect, it } from 'vitest';
import { runBench as abuse } from './abuse';
import { runBench as embeddedStart } from './embedded-start';
import type { Bench } from './harness';
import { runJobEngines } from './job-engines';
import { runBench as run } from './run';
import { runBench as scaleOut } from './scale-out';
import { runBench as scripts } from './scripts';
import { runBench as templates } from './templates';
import { runBench as triggers } from './triggers';
import { runBench as turnPreparation } from './turn-preparation';
import { runBench as turns } from './turns';

// Guards against a past bug: `npm run bench` stopped at its first step (a fixture refused by tightened
// validation) and nobody noticed, because nothing ran the benchmarks in between (issue 12). Each one
// runs here in its tiny configuration; what is checked is that it completes and returns its ratio
// rows, each finite and positive — never how fast anything is (DEVELOPERS: speed is measured in
// benchmarks as same-run ratios, not asserted in tests).
const BENCHES: [name: string, bench: Bench, tables: string[]][] = [
  ['run (GraphQL throughput)', run, ['vs bare node:http', 'vs trivial query', 'warm vs naive']],
  ['templates', templates, ['Cold start', 'Render latency']],
  ['turn-preparation', turnPreparation, ['naive ÷ ours, p50', 'naive ÷ ours, p99', 'naive p99 ÷ variant p99', 'Token estimate, tokenx ÷ chars/4']],
  ['turns', turns, ['Turn overhead, turn ÷ bare', 'Fan-out, many ÷ 1 subscriber']],
  ['scripts', scripts, ['Warm pool vs. cold isolate', 'One binding round trip', 'Memory after large operations ÷ idle']],
  ['triggers', triggers, ['naive ÷ index']],
  ['scale-out', scaleOut, [
    ...(process.env.TEST_DATABASE_URL ? ['Scale-out: turns/s ÷ 1 instance', 'Takeover ÷ lease'] : []), 'sendMessage: beside a waiting turn ÷ idle process',
  ]],
  ['abuse', abuse, ['Abuse: probe p50 ÷ baseline p50', 'Abuse: probe p99 ÷ baseline p99', 'Abuse: RSS after ÷ before']],
  // Tiny: the existing data directory only, under tsx (the empty one needs the build's template).
  ['embedded-start', embeddedStart, ['Embedded start ÷ bare node', 'Server RSS ÷ idle']],
];

describe('benchmarks in their tiny configuration', () => {
  it.each(BENCHES)('%s completes and prints its tables with a finite positive ratio in every row', async (_name, bench, tables) => {
    const lines: string[] = [];
    const rows = await bench({ tiny: true, print: (line) => lines.push(line) });
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
});
