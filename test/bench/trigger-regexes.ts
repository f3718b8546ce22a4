/**
 * Trigger regexes that cannot run away (issue 13; DESIGN §6, §9): the four patterns of the measured
 * attack, each on a 10,000-character adversarial message (PATTERN_INPUT_CAP, the most a trigger
 * reads), matched by re2js as the trigger matcher runs them — TriggerRegex.find, and a whole
 * TriggerIndex.evaluate with that one skill — against a baseline measured in the same run: V8's
 * RegExp searching the same message for a safe literal (`/zzz/iu`, no match, so the whole message is
 * read). A last column runs the old engine (V8's backtracking RegExp) on the attack pattern for scale,
 * once, on an input small enough to finish.
 *
 *   node --no-node-snapshot --import tsx test/bench/trigger-regexes.ts
 *   (BENCH_REPS=50 to change the repetitions per measurement; BENCH_OLD=0 skips the old engine;
 *   BENCH_TINY=1 for the test's: 5 repetitions)
 *
 * Every answer is checked first (no match on the adversarial message, a match once its last
 * character completes the pattern). Numbers are printed, never asserted.
 */
import { TriggerIndex } from '../../api/src/domain/processes/triggers';
import { PATTERN_INPUT_CAP, patternInput } from '../../api/src/domain/processes/triggers/trigger-match';
import { compileJavaRegex, parseSkill, type AvailableSkill, type TriggerRegex } from '../../api/src/domain/skills';
import { BenchReport, collectGarbage, envNumber, runAsScript, type BenchOptions, type RatioRow } from './harness';

const N = PATTERN_INPUT_CAP;
interface Case {
  readonly source: string;
  readonly miss: string;
  readonly hit: string;
  /** The old engine on a smaller input of the same shape (it does not finish on 10,000 characters). */
  readonly old: { readonly input: string; readonly what: string };
}
const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const CASES: Case[] = [
  { source: '(a{1,5})+b', miss: 'a'.repeat(N), hit: `${'a'.repeat(N - 1)}b`, old: { input: 'a'.repeat(22), what: '22 × a' } },
  { source: '(日+)+x', miss: '日'.repeat(N), hit: `${'日'.repeat(N - 1)}x`, old: { input: '日'.repeat(22), what: '22 × 日' } },
  { source: 'please.*deploy.*prod', miss: repeatTo('please deploy ', N), hit: `${repeatTo('please deploy ', N - 4)}prod`, old: { input: repeatTo('please deploy ', 3_000), what: '3,000 chars' } },
  { source: '.*a.*x', miss: 'a'.repeat(N), hit: `${'a'.repeat(N - 1)}x`, old: { input: 'a'.repeat(1_000), what: '1,000 × a' } },
];

function compile(source: string): TriggerRegex {
  const compiled = compileJavaRegex(source);
  if (!compiled.ok) throw new Error(`${source}: ${compiled.message}`);
  return compiled.regex;
}

function skillFor(source: string): AvailableSkill {
  const name = 'attacked';
  const path = `_vance/skills/${name}/SKILL.md`;
  const content = ['---', 'title: Attacked', 'description: D', 'version: 1.0.0', 'triggers:', '  - type: PATTERN', `    pattern: '${source}'`, '---', 'Body'].join('\n');
  const parsed = parseSkill({ name, path, content });
  if (!parsed.skill) throw new Error(JSON.stringify(parsed.diagnostics));
  return { name, path, source: 'VANCE', shadowed: [], documentVersion: 1, diagnostics: parsed.diagnostics, status: 'AVAILABLE', skill: parsed.skill, references: [] };
}

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median of `reps` runs after two warm-ups. */
function medianOf(reps: number, fn: () => void): number {
  fn();
  fn();
  collectGarbage();
  const times = Array.from({ length: reps }, () => time(fn)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const ms = (x: number) => (x < 0.01 ? x.toFixed(4) : x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));
const ratio = (x: number, base: number) => `${(x / base).toFixed(x / base < 10 ? 1 : 0)}×`;

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const reps = options.tiny ? 5 : envNumber('BENCH_REPS', 50);
  const old = options.tiny || process.env.BENCH_OLD !== '0';
  const report = new BenchReport(options.print, options.summary);
  const median = (fn: () => void) => medianOf(reps, fn);
  report.print(`# Trigger regexes on ${N.toLocaleString('en')}-character adversarial messages: re2js against a V8 literal search in the same run\n`);
  const filter = { active: [], allowedSkillsOverride: null };
  const literal = /zzz/iu;
  const rows: string[] = [];
  for (const c of CASES) {
    const regex = compile(c.source);
    const index = new TriggerIndex([skillFor(c.source)]);
    const miss = patternInput(c.miss);
    const hit = patternInput(c.hit);
    if (regex.find(miss) !== null || regex.find(hit) === null) throw new Error(`${c.source}: wrong answer`);
    if (index.match(c.miss, filter).length !== 0 || index.match(c.hit, filter).length !== 1) throw new Error(`${c.source}: the index gives a wrong answer`);
    const baseline = median(() => literal.exec(miss));
    const findMiss = median(() => regex.find(miss));
    const findHit = median(() => regex.find(hit));
    const evaluate = median(() => index.evaluate(c.miss, filter));
    let oldEngine = 'skipped';
    if (old) {
      const backtracking = new RegExp(c.source, 'iu');
      oldEngine = `${ms(time(() => backtracking.exec(c.old.input)))} ms on ${c.old.what}`;
    }
    const table = 'Trigger regexes ÷ V8 literal search';
    report.ratio(table, `${c.source}: find, no match`, findMiss / baseline);
    report.ratio(table, `${c.source}: find, match`, findHit / baseline);
    report.ratio(table, `${c.source}: TriggerIndex.evaluate, no match`, evaluate / baseline);
    rows.push(`| \`${c.source}\` | ${ms(baseline)} | ${ms(findMiss)} (${ratio(findMiss, baseline)}) | ${ms(findHit)} (${ratio(findHit, baseline)}) | ${ms(evaluate)} (${ratio(evaluate, baseline)}) | ${oldEngine} |`);
  }
  report.print('| pattern | baseline: V8 `/zzz/iu` on the message (ms) | re2js find, no match (ms, ratio) | re2js find, match (ms, ratio) | TriggerIndex.evaluate, no match (ms, ratio) | old engine, one run |');
  report.print('|---|---|---|---|---|---|');
  for (const row of rows) report.print(row);
  report.print(`\nMedians of ${reps} runs after two warm-ups; ratios are against the baseline of the same row.`);
  return report.rows;
}

runAsScript(__filename, runBench);
