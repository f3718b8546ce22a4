/**
 * Trigger matching with the issue-8 controls (issue 8 "Measured"; DESIGN §4, §9): 10,000 skills that
 * use secondary triggers with all four selectiveLogic modes, caseSensitive, matchWholeWords: false,
 * lorebook regexes and scan depths up to 10, matched over conversations scanned 10 messages deep —
 * the TriggerIndex against the naive matcher (evaluateTriggersNaive: every skill, every trigger,
 * every scanned message) in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/triggers.ts
 *   (BENCH_SKILLS=10000 BENCH_DEPTH=10 BENCH_TURNS=400 BENCH_NAIVE_MS=4000 are the defaults;
 *   BENCH_TINY=1 for the test's sizes)
 *
 * Both paths are checked to agree on every measured turn first. Numbers are printed, never asserted.
 */
import { evaluateTriggersNaive, TriggerIndex } from '../../api/src/domain/processes/triggers';
import { parseSkill, type AvailableSkill } from '../../api/src/domain/skills';
import { BenchReport, collectGarbage as collect, envNumber, runAsScript, type BenchOptions, type RatioRow } from './harness';
import { mulberry32, pick, topicWord } from './turn-preparation-corpus';

interface Settings {
  readonly skills: number;
  /** Messages per scan window. */
  readonly depth: number;
  /** Conversations the index is timed on (the naive path gets through as many as its budget allows). */
  readonly turns: number;
  readonly naiveBudgetMs: number;
  /** Turns on which both paths must agree before anything is timed. */
  readonly checkedTurns: number;
}

function settings(tiny: boolean): Settings {
  if (tiny) return { skills: 200, depth: 10, turns: 30, naiveBudgetMs: 200, checkedTurns: 10 };
  return {
    skills: envNumber('BENCH_SKILLS', 10_000), depth: envNumber('BENCH_DEPTH', 10), turns: envNumber('BENCH_TURNS', 400),
    naiveBudgetMs: envNumber('BENCH_NAIVE_MS', 4000), checkedTurns: 20,
  };
}

const COMMON = (
  'the a to of and in is it you that for on with this be are not have can do what how please check look ' +
  'code review test build deploy release bug fix error issue change diff branch merge commit file function ' +
  'sword blade moon night dragon castle forest river king queen knight shield spell potion tavern road ' +
  'schau mal bitte den die das und ist nicht warum wie änderung prüfen abwägen besser übersicht'
).split(' ');
const sentence = (rng: () => number, words: number) => Array.from({ length: words }, () => pick(rng, COMMON)).join(' ');
const LOGICS = ['AND ANY', 'AND ALL', 'NOT ANY', 'NOT ALL'];

function skillDocument(rng: () => number, t1: string, t2: string): string {
  const lines = ['---', `title: Skill ${t1}`, `description: Lore about ${t1} and ${t2}`, 'version: 1.0.0'];
  const roll = rng();
  if (roll < 0.6) lines.push(`when: ${pick(rng, ['mentioned', 'mentioned', 'picked'])}`);
  if (roll >= 0.6 && roll < 0.65) lines.push('when: always');
  const primary = [t1, `${t2} ${pick(rng, ['sword', 'castle', 'review'])}`];
  if (rng() < 0.3) primary.push(`/${t1}[0-9]{2,4}/`);
  if (rng() < 0.2) primary.push(`/\\b(show|explain) (the )?${t2}/i`);
  lines.push(`triggers: [${primary.map((p) => JSON.stringify(p)).join(', ')}]`);
  if (rng() < 0.5) {
    const secondary = [pick(rng, COMMON.slice(40, 60)), pick(rng, COMMON.slice(40, 60))];
    if (rng() < 0.2) secondary.push(`/${pick(rng, ['night', 'moon', 'dragon'])}s?/`);
    lines.push(`secondaryTriggers: [${secondary.map((s) => JSON.stringify(s)).join(', ')}]`, `selectiveLogic: ${pick(rng, LOGICS)}`);
  }
  if (rng() < 0.2) lines.push('caseSensitive: true');
  if (rng() < 0.2) lines.push('matchWholeWords: false');
  lines.push(`scanDepth: ${1 + Math.floor(rng() * 10)}`);
  if (rng() < 0.3) lines.push('closeWhenUnmentioned: true');
  lines.push('---', `Body of ${t1}.`);
  return lines.join('\n');
}

function generate(n: number): { skills: AvailableSkill[]; topics: [string, string][] } {
  const rng = mulberry32(n);
  const skills: AvailableSkill[] = [];
  const topics: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const t1 = topicWord(2 * i);
    const t2 = topicWord(2 * i + 1);
    topics.push([t1, t2]);
    const name = `skill-${i}`;
    const path = `_vance/skills/${name}/SKILL.md`;
    const parsed = parseSkill({ name, path, content: skillDocument(rng, t1, t2) });
    if (!parsed.skill) throw new Error(`${name}: ${JSON.stringify(parsed.diagnostics)}`);
    skills.push({ name, path, source: 'VANCE', shadowed: [], documentVersion: 1, diagnostics: parsed.diagnostics, status: 'AVAILABLE', skill: parsed.skill, references: [] });
  }
  return { skills, topics };
}

/** Conversations of `depth` messages (newest first): chat lines, some naming topics, some pasted logs. */
function conversations(topics: readonly [string, string][], count: number, depth: number): string[][] {
  const rng = mulberry32(7);
  const message = (): string => {
    const roll = rng();
    if (roll < 0.1) return Array.from({ length: 40 }, () => `${sentence(rng, 8)} ${Math.floor(rng() * 1e6)}`).join('\n');
    const [t1, t2] = pick(rng, topics);
    if (roll < 0.5) return `${sentence(rng, 6)} ${t1} ${sentence(rng, 4)} ${t2} sword at night ${sentence(rng, 3)}`;
    return `${sentence(rng, 5 + Math.floor(rng() * 20))}`;
  };
  return Array.from({ length: count }, () => Array.from({ length: depth }, message));
}

interface Samples {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

function summarize(times: number[]): Samples {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), count: sorted.length };
}

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const ms = (x: number) => (x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const out = report.print;
  out(`# Trigger matching with the issue-8 controls: ${s.skills.toLocaleString('en')} skills, scan depth ${s.depth}\n`);
  let generated!: ReturnType<typeof generate>;
  const generateMs = time(() => (generated = generate(s.skills)));
  const { skills, topics } = generated;
  let index!: TriggerIndex;
  const buildMs = time(() => (index = new TriggerIndex(skills)));
  const filter = { active: [], allowedSkillsOverride: null };
  const turns = conversations(topics, s.turns, s.depth);

  // Agreement first (also warms both paths up).
  let matched = 0;
  let missed = 0;
  const checked = turns.slice(0, s.checkedTurns);
  for (const scan of checked) {
    const ours = index.evaluate(scan, filter);
    const naive = evaluateTriggersNaive(skills, scan, filter);
    if (JSON.stringify(ours) !== JSON.stringify(naive)) throw new Error('index and naive matcher disagree');
    matched += ours.matches.length;
    missed += ours.misses.length;
  }

  collect();
  const oursTimes = turns.map((scan) => time(() => index.evaluate(scan, filter)));
  collect();
  const naiveTimes: number[] = [];
  const deadline = Date.now() + s.naiveBudgetMs;
  for (const scan of turns) {
    naiveTimes.push(time(() => evaluateTriggersNaive(skills, scan, filter)));
    if (Date.now() > deadline && naiveTimes.length >= Math.min(20, turns.length)) break;
  }
  const ours = summarize(oursTimes);
  const naive = summarize(naiveTimes);
  const chars = turns.reduce((sum, scan) => sum + scan.reduce((n, m) => n + m.length, 0), 0) / turns.length;

  out(`Parse ${s.skills.toLocaleString('en')} SKILL.md: ${ms(generateMs)} ms; index build: ${ms(buildMs)} ms.`);
  out(`Index: ${JSON.stringify(index.stats)}`);
  out(`Scan window: ${s.depth} messages, ${Math.round(chars).toLocaleString('en')} characters on average; ${matched} matches and ${missed} secondary misses in the ${checked.length} checked turns (both paths agree).\n`);
  out('| path | p50 (ms) | p99 (ms) | turns |');
  out('|---|---|---|---|');
  out(`| TriggerIndex.evaluate | ${ms(ours.p50)} | ${ms(ours.p99)} | ${ours.count} |`);
  out(`| naive (every skill × trigger × message) | ${ms(naive.p50)} | ${ms(naive.p99)} | ${naive.count} |`);
  const ratio = (name: string, x: number) => report.ratio('naive ÷ index', name, x).toFixed(0);
  out(`| ratio naive ÷ index | ${ratio('p50', naive.p50 / ours.p50)}× | ${ratio('p99', naive.p99 / ours.p99)}× | |`);
  return report.rows;
}

runAsScript(__filename, runBench);
