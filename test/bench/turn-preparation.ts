/**
 * Turn preparation (issue 4 "Measured"; DESIGN §4, §9): trigger matching + resolving the active skills
 * + the skills prompt section + the tool pool, at 10, 100, 1,000 and 10,000 skills in the cascade,
 * against the naive path measured in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/turn-preparation.ts
 *   (BENCH_SIZES=10,100,1000,10000 BENCH_ITERATIONS=3000 BENCH_NAIVE_MS=4000 are the defaults;
 *   BENCH_TINY=1 for the test's sizes)
 *
 * - OURS: SkillSetCache.list(scope) (warm: the scope's listing is kept until a skill document
 *   changes) + prepareTurn (TriggerIndex found by the list's identity, section, tool pool).
 * - NAIVE, what the original does per turn (seed 000 §4a "one listAvailable call per turn … plus
 *   O(skills × triggers) matching"): list every SKILL.md of the three stored layers straight from the
 *   store (no document cache), merge the cascade, parseSkill every one (no parse cache), run every
 *   trigger (matchTriggersNaive), find the active skills, read their reference files from the store,
 *   then the same section composer and tool pool. The store is in memory, so the naive "database" is
 *   free: the ratio is a lower bound.
 * - Both compose with the real NunjucksTemplateEngine, once in the isolate (the default) and once
 *   in-process. The cold costs (index build, a listAvailable miss) are printed separately.
 * Numbers are printed, never asserted (DESIGN §9); every naive turn of the run is checked to agree
 * with ours on the same message (outside the timed window).
 */
import type { ToolDescriptor } from '../../api/src/domain/tools/tool-descriptor';
import { CachedDocumentReader } from '../../api/src/domain/cascade/document-cache';
import { DocumentCascade } from '../../api/src/domain/cascade/document-cascade';
import type { StoredLayer } from '../../api/src/domain/cascade/layer';
import { ResourceLayer } from '../../api/src/domain/cascade/resource-layer';
import type { CascadeScope } from '../../api/src/domain/cascade/scope';
import type { ActiveSkillRef } from '../../api/src/domain/processes/process';
import { matchTriggersNaive, SkillSetCache, TriggerIndex } from '../../api/src/domain/processes/triggers';
import { composeSkillsSection, createTurnCaches, prepareTurn, RenderedBodyCache, type PreparedTurn, type TurnCaches } from '../../api/src/domain/processes/turn-preparation';
import { computeToolPool, type ToolPoolInput } from '../../api/src/domain/recipes/tool-pool';
import { parseSkill, SKILLS_PREFIX, skillNameOfPath, SkillResolver, type AvailableSkill, type LoadedReferenceDoc } from '../../api/src/domain/skills';
import type { TemplateEngine } from '../../api/src/domain/templates/template-engine';
import { InMemoryDocumentStore } from '../../api/src/domain/testing/in-memory-document-store';
import { NunjucksTemplateEngine } from '../../api/src/templates';
import { generate, MESSAGES, messages } from './turn-preparation-corpus';
import { tokenEstimateTable } from './token-estimate';
import { BenchReport, collectGarbage as collect, envNumber, runAsScript, UNHURRIED_TEMPLATE_LIMITS, type BenchOptions, type RatioRow } from './harness';

interface Settings {
  readonly sizes: readonly number[];
  /** Turns of each of our variants per size, and calls per step of the breakdown. */
  readonly iterations: number;
  /** Untimed calls before each timed window. */
  readonly warmUp: number;
  /** Time budget per size for the naive path (at least one turn a round). */
  readonly naiveBudgetMs: number;
  readonly rounds: number;
  /** The size whose time is broken down by step. */
  readonly detailSize: number;
}

function settings(tiny: boolean): Settings {
  if (tiny) return { sizes: [10, 100], iterations: 40, warmUp: 10, naiveBudgetMs: 200, rounds: 2, detailSize: 100 };
  const sizes = (process.env.BENCH_SIZES ?? '10,100,1000,10000').split(',').map(Number);
  return { sizes, iterations: envNumber('BENCH_ITERATIONS', 3000), warmUp: 300, naiveBudgetMs: envNumber('BENCH_NAIVE_MS', 4000), rounds: 5, detailSize: 1000 };
}

/** Messages of ours behind the "triggered per turn" and "section chars" columns. */
const SHAPE_MESSAGES = 100;

const SCOPE: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const PROJECT_OF: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };
const STORED: readonly StoredLayer[] = ['USER', 'PROJECT', 'VANCE'];
const RENDER_CONTEXT = { recipe: 'analyze', engine: 'ford', mode: 'NORMAL', profile: 'web', params: { maxSteps: 6, language: 'en' } };
/** A 34-tool catalog of the size and label mix the original platform's deployments have (the input's shape, not Vance's catalog). */
const BENCH_CATALOG: readonly ToolDescriptor[] = [
  { name: 'respond', labels: ['read', 'chat'] },
  { name: 'whoami', labels: ['read'] },
  { name: 'current_time', labels: ['read'] },
  { name: 'how_do_i', labels: ['read', 'manual'] },
  { name: 'manual_list', labels: ['read', 'docs'] },
  { name: 'manual_read', labels: ['read', 'docs'] },
  { name: 'recipe_list', labels: ['read', 'recipes'] },
  { name: 'recipe_describe', labels: ['read', 'recipes'] },
  { name: 'skill_reference_doc', labels: ['read', 'skills'] },
  { name: 'process_spawn', labels: ['side-effect', 'executive', 'process'] },
  { name: 'process_status', labels: ['read', 'process'] },
  { name: 'process_list', labels: ['read', 'process'] },
  { name: 'process_stop', labels: ['executive', 'process'] },
  { name: 'workspace_read', labels: ['read', 'workspace'] },
  { name: 'workspace_list', labels: ['read', 'workspace'] },
  { name: 'workspace_write', labels: ['write', 'workspace'] },
  { name: 'workspace_delete', labels: ['write', 'destructive', 'workspace'] },
  { name: 'doc_read', labels: ['read', 'docs'] },
  { name: 'doc_list', labels: ['read', 'docs'] },
  { name: 'doc_find', labels: ['read', 'docs'] },
  { name: 'doc_grep', labels: ['read', 'docs'] },
  { name: 'doc_info', labels: ['read', 'docs'] },
  { name: 'doc_link', labels: ['read', 'docs'] },
  { name: 'doc_write', labels: ['write', 'docs'] },
  { name: 'doc_edit', labels: ['write', 'docs'] },
  { name: 'doc_append', labels: ['write', 'docs'] },
  { name: 'doc_replace_lines', labels: ['write', 'docs'] },
  { name: 'doc_delete', labels: ['write', 'destructive', 'docs'] },
  { name: 'doc_restore', labels: ['write', 'destructive', 'docs'] },
  { name: 'doc_purge', labels: ['write', 'destructive', 'docs'] },
  { name: 'memory_search', labels: ['read', 'memory'] },
  { name: 'rag_query', labels: ['read', 'rag'] },
  { name: 'web_search', labels: ['read', 'side-effect', 'web'] },
  { name: 'web_fetch', labels: ['read', 'side-effect', 'web'] },
];

const TOOL_INPUT: ToolPoolInput = {
  available: BENCH_CATALOG,
  engineAllowed: ['respond', '@read'],
  add: ['doc_write', 'web_fetch'],
  remove: ['@destructive', 'web_search'],
  defer: ['@process'],
  maxTools: 24,
};

// ---------------------------------------------------------------------------------------------
// The two paths
// ---------------------------------------------------------------------------------------------

interface World {
  readonly store: InMemoryDocumentStore;
  readonly resolver: SkillResolver;
  /** The same cascade with a parse cache that holds every skill (the default keeps 5,000). */
  readonly roomyResolver: SkillResolver;
  readonly skillSets: SkillSetCache;
  readonly caches: TurnCaches;
  readonly refs: readonly ActiveSkillRef[];
  readonly messages: readonly string[];
  readonly size: number;
}

async function world(n: number, templates: TemplateEngine): Promise<World> {
  const generated = generate(n);
  const store = new InMemoryDocumentStore();
  for (const doc of generated.docs) await store.put({ tenantId: SCOPE.tenantId, projectId: PROJECT_OF[doc.layer], path: doc.path, content: doc.content, author: 'bench' });
  const reader = new CachedDocumentReader(store);
  const cascade = new DocumentCascade(reader, new ResourceLayer([]));
  const resolver = new SkillResolver(cascade, templates);
  const roomyResolver = new SkillResolver(cascade, templates, { maxCachedSkills: 50_000 });
  const at = new Date(0).toISOString();
  const refs = generated.active.map((name, k): ActiveSkillRef => ({
    name, resolvedFromScope: 'VANCE', oneShot: false, fromRecipe: k === 0, activatedAt: at, args: k === 1 ? 'src/domain the lane' : null, reason: `Explicit: /skill ${name}.`,
  }));
  return { store, resolver, roomyResolver, skillSets: new SkillSetCache(resolver), caches: createTurnCaches(), refs, messages: messages(generated.topics), size: n };
}

/** `memo: false` renders every templated body every turn (no RenderedBodyCache). */
function ours(w: World, templates: TemplateEngine, memo = true) {
  const caches: TurnCaches = memo ? w.caches : { ...w.caches, bodies: null };
  return async (message: string): Promise<PreparedTurn> => {
    const skills = await w.skillSets.list(SCOPE);
    return prepareTurn({ skills, activeSkills: w.refs, allowedSkillsOverride: null, message, templates, renderContext: RENDER_CONTEXT, toolInput: TOOL_INPUT, caches });
  };
}

/** The original per turn: re-read and re-parse every SKILL.md, run every trigger, then compose. */
function naive(w: World, templates: TemplateEngine) {
  return async (message: string) => {
    const perLayer = await Promise.all(STORED.map((layer) => w.store.listByPrefix({ tenantId: SCOPE.tenantId, projectId: PROJECT_OF[layer] }, SKILLS_PREFIX)));
    const winners = new Map<string, { layer: StoredLayer; path: string; content: string; version: number }>();
    perLayer.forEach((docs, l) => {
      for (const doc of docs) if (!winners.has(doc.path)) winners.set(doc.path, { layer: STORED[l]!, path: doc.path, content: doc.content, version: doc.version });
    });
    const skills: AvailableSkill[] = [];
    for (const doc of winners.values()) {
      const name = skillNameOfPath(doc.path);
      if (name === null) continue;
      const parsed = parseSkill({ name, path: doc.path, content: doc.content }, templates);
      if (!parsed.skill?.enabled) continue;
      skills.push({ name, path: doc.path, source: doc.layer, shadowed: [], documentVersion: doc.version, diagnostics: parsed.diagnostics, status: 'AVAILABLE', skill: parsed.skill, references: [] });
    }
    skills.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)); // listAvailable's order
    const triggered = matchTriggersNaive(skills, message, { active: w.refs.map((r) => r.name), allowedSkillsOverride: null });
    const composing = [];
    for (const ref of w.refs) {
      const skill = skills.find((s) => s.name === ref.name);
      if (skill) composing.push({ skill: await withReferences(w, skill), args: ref.args });
    }
    for (const match of triggered) if (match.available.skill.lifecycle !== 'shot') composing.push({ skill: await withReferences(w, match.available), args: null });
    const section = await composeSkillsSection(composing, templates, RENDER_CONTEXT);
    const skillTools = [...new Set(composing.flatMap((c) => c.skill.skill.tools))];
    const toolPool = computeToolPool({ ...TOOL_INPUT, skillTools });
    return { triggered, skillsSection: section.text, toolPool };
  };
}

async function withReferences(w: World, skill: AvailableSkill): Promise<AvailableSkill> {
  const references: LoadedReferenceDoc[] = await Promise.all(
    skill.skill.referenceDocs.map(async (doc) => {
      const found = await w.store.find({ tenantId: SCOPE.tenantId, projectId: PROJECT_OF[skill.source as StoredLayer] }, `${SKILLS_PREFIX}${skill.name}/${doc.file}`);
      return { doc, content: found?.content ?? null };
    }),
  );
  return { ...skill, references };
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

interface Stats {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
  return { p50: at(0.5), p99: at(0.99), count: sorted.length };
}

type Turn = (message: string) => Promise<unknown>;

/** Wall-clock time per call. (Process CPU time is no better on Node 20: it also counts V8's parallel GC threads.) */
interface Samples {
  readonly wall: number[];
}

const samples = (): Samples => ({ wall: [] });

/** `check` sees each call's result after its time is taken. */
async function timeCalls<T>(run: (message: string) => Promise<T>, msgs: readonly string[], count: number, offset: number, into: Samples, check?: (message: string, result: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i++) {
    const message = msgs[(offset + i) % msgs.length]!;
    const t0 = performance.now();
    const result = await run(message);
    into.wall.push(performance.now() - t0);
    await check?.(message, result);
  }
}

interface Measured {
  readonly wall: Stats;
}

type NaiveTurn = Awaited<ReturnType<ReturnType<typeof naive>>>;
type Agreement = (message: string, naiveTurn: NaiveTurn) => Promise<void>;

/**
 * Interleaved rounds, so JIT warm-up and background load do not favour the path that runs last, with
 * a full collection before each path's window so none pays for another's garbage. The naive path gets
 * a time budget (at least one turn a round): at 10,000 skills one naive turn takes seconds, which is
 * also why its agreement with ours is checked on the turns it runs anyway rather than on extra ones.
 */
async function compare(s: Settings, cases: readonly [string, Turn][], slow: ReturnType<typeof naive>, agree: Agreement, msgs: readonly string[]): Promise<{ ours: Measured[]; naive: Measured }> {
  for (const [, run] of cases) await timeCalls(run, msgs, s.warmUp, 0, samples());
  const probe = samples();
  await timeCalls(slow, msgs, 1, 0, probe, agree);
  const naivePerRound = Math.max(1, Math.min(s.iterations / s.rounds, Math.floor(s.naiveBudgetMs / s.rounds / probe.wall[0]!)));
  const fast = cases.map(samples);
  const naiveSamples = samples();
  for (let round = 0; round < s.rounds; round++) {
    for (const [c, [, run]] of cases.entries()) {
      collect();
      await timeCalls(run, msgs, s.iterations / s.rounds, round * 997, fast[c]!);
    }
    collect();
    await timeCalls(slow, msgs, naivePerRound, 1 + round * 31, naiveSamples, agree);
  }
  const measured = (x: Samples): Measured => ({ wall: stats(x.wall) });
  return { ours: fast.map(measured), naive: measured(naiveSamples) };
}

/** Ours and naive must agree on every message the naive path ran: triggers, section, tool pool. */
function agreement(fast: (message: string) => Promise<PreparedTurn>): Agreement {
  return async (message, y) => {
    const x = await fast(message);
    const names = (m: readonly { skill: string; reason: string }[]) => JSON.stringify(m.map((t) => [t.skill, t.reason]));
    if (names(x.triggered) !== names(y.triggered)) throw new Error(`triggers differ on ${JSON.stringify(message)}: ${names(x.triggered)} vs ${names(y.triggered)}`);
    if (x.skillsSection !== y.skillsSection) throw new Error(`skills sections differ on ${JSON.stringify(message)}`);
    if (JSON.stringify(x.toolPool) !== JSON.stringify(y.toolPool)) throw new Error('tool pools differ');
  };
}

/** What our turns look like (no warnings allowed), over the first SHAPE_MESSAGES messages. */
async function turnShape(w: World, fast: (message: string) => Promise<PreparedTurn>): Promise<{ triggeredPerTurn: number; sectionChars: number }> {
  let triggered = 0;
  let chars = 0;
  const checked = w.messages.slice(0, SHAPE_MESSAGES);
  for (const message of checked) {
    const x = await fast(message);
    if (x.warnings.length > 0) throw new Error(`warnings: ${JSON.stringify(x.warnings)}`);
    triggered += x.triggered.length;
    chars += x.skillsSection.length;
  }
  return { triggeredPerTurn: triggered / checked.length, sectionChars: Math.round(chars / checked.length) };
}

/**
 * A cache miss: listing the scope (with the resolver's default parse cache, and with one large enough
 * for every skill), then building its index; the index is weighed as the heap growth of retaining
 * five of them, on collected heaps.
 */
async function coldCosts(w: World): Promise<{ list: number; roomyList: number; build: number; megabytes: number }> {
  const time = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return performance.now() - t0;
  };
  const list = await time(() => w.resolver.listAvailable(SCOPE));
  await w.roomyResolver.listAvailable(SCOPE);
  const roomyList = await time(() => w.roomyResolver.listAvailable(SCOPE));
  const skills = await w.roomyResolver.listAvailable(SCOPE);
  const build = await time(async () => new TriggerIndex(skills));
  collect();
  const heap = process.memoryUsage().heapUsed;
  const kept = Array.from({ length: 5 }, () => new TriggerIndex(skills));
  collect();
  const megabytes = (process.memoryUsage().heapUsed - heap) / kept.length / 1e6;
  return { list, roomyList, build, megabytes };
}

/** Where the time of our path goes, at one size. */
async function breakdown(s: Settings, w: World, templates: TemplateEngine): Promise<[string, Measured][]> {
  const skills = await w.skillSets.list(SCOPE);
  const index = w.caches.indexes.indexFor(skills);
  const filter = { active: w.refs.map((r) => r.name), allowedSkillsOverride: null };
  const section = w.refs.map((ref) => ({ skill: index.find(ref.name)!, args: ref.args }));
  const longMessages = w.messages.filter((m) => m.length > 1000);
  const bodies = new RenderedBodyCache();
  const cases: [string, Turn, readonly string[]][] = [
    ['SkillSetCache.list (warm)', () => w.skillSets.list(SCOPE), w.messages],
    ['TriggerIndexCache.indexFor (hit)', async () => w.caches.indexes.indexFor(skills), w.messages],
    ['TriggerIndex.match, all messages', async (m) => index.match(m, filter), w.messages],
    [`TriggerIndex.match, the ${longMessages.length} pasted-log messages (~3 KB)`, async (m) => index.match(m, filter), longMessages],
    ['composeSkillsSection, 3 active, rendering', () => composeSkillsSection(section, templates, RENDER_CONTEXT), w.messages],
    ['composeSkillsSection, 3 active, RenderedBodyCache', () => composeSkillsSection(section, templates, RENDER_CONTEXT, { bodies }), w.messages],
    ['computeToolPool', async () => computeToolPool({ ...TOOL_INPUT, skillTools: ['doc_read', 'skill_reference_doc'] }), w.messages],
    ['ToolPoolCache.poolFor (hit)', async () => w.caches.toolPools.poolFor({ ...TOOL_INPUT, skillTools: ['doc_read', 'skill_reference_doc'] }), w.messages],
  ];
  const rows: [string, Measured][] = [];
  for (const [name, run, msgs] of cases) {
    const into = samples();
    await timeCalls(run, msgs, s.warmUp, 0, samples());
    collect();
    await timeCalls(run, msgs, s.iterations, 0, into);
    rows.push([name, { wall: stats(into.wall) }]);
  }
  return rows;
}

const VARIANTS = ['isolate + memo', 'isolate, render every turn', 'in-process + memo', 'in-process, render every turn'];
const ms = (x: number) => (x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(1));
const n = (x: number) => x.toLocaleString('en');

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  /** naive ÷ ours, recorded as a row of `table`. */
  const ratio = (table: string, name: string, naiveMs: number, oursMs: number) => `${report.ratio(table, name, naiveMs / oursMs).toFixed(0)}×`;
  const isolate = new NunjucksTemplateEngine({ sandbox: 'isolate', limits: UNHURRIED_TEMPLATE_LIMITS });
  const inProcess = new NunjucksTemplateEngine({ sandbox: 'in-process', limits: UNHURRIED_TEMPLATE_LIMITS });
  const headline: string[] = [];
  const variants: string[] = [];
  const cold: string[] = [];
  const shape: string[] = [];
  let detail: [number, [string, Measured][]] | null = null;
  try {
    for (const size of s.sizes) {
      const w = await world(size, isolate);
      const fast = ours(w, isolate);
      const cases: [string, Turn][] = [
        ['isolate + RenderedBodyCache', fast],
        ['isolate, rendering every turn', ours(w, isolate, false)],
        ['in-process + RenderedBodyCache', ours(w, inProcess)],
        ['in-process, rendering every turn', ours(w, inProcess, false)],
      ];
      const result = await compare(s, cases, naive(w, isolate), agreement(fast), w.messages);
      const check = await turnShape(w, fast);
      const [o] = result.ours;
      const nv = result.naive;
      headline.push(`| ${n(size)} | ${ms(o!.wall.p50)} | ${ms(o!.wall.p99)} | ${ms(nv.wall.p50)} | ${ms(nv.wall.p99)} | ${ratio('naive ÷ ours, p50', `${size} skills`, nv.wall.p50, o!.wall.p50)} | ${ratio('naive ÷ ours, p99', `${size} skills`, nv.wall.p99, o!.wall.p99)} | ${n(o!.wall.count)} / ${nv.wall.count} |`);
      const p99Ratios = result.ours.map((m, v) => ratio('naive p99 ÷ variant p99', `${size} skills, ${VARIANTS[v]}`, nv.wall.p99, m.wall.p99));
      variants.push(`| ${n(size)} | ${result.ours.map((m) => `${ms(m.wall.p50)} / ${ms(m.wall.p99)}`).join(' | ')} | ${p99Ratios.join(' · ')} |`);
      const c = await coldCosts(w);
      const stats = w.caches.indexes.indexFor(await w.skillSets.list(SCOPE)).stats;
      cold.push(`| ${n(size)} | ${ms(c.list)} | ${ms(c.roomyList)} | ${ms(c.build)} | ${c.megabytes.toFixed(2)} | ${w.caches.indexes.builds} | ${w.skillSets.loads} |`);
      shape.push(`| ${n(size)} | ${stats.skills} | ${stats.candidates} | ${stats.keywordTriggers} | ${stats.patternTriggers} | ${stats.unfilteredPatterns} | ${stats.distinctTokens} | ${check.triggeredPerTurn.toFixed(2)} | ${check.sectionChars} |`);
      if (size === s.detailSize) detail = [size, await breakdown(s, w, isolate)];
    }
  } finally {
    isolate.dispose();
    inProcess.dispose();
  }
  const out = report.print;
  out(`\n## Turn preparation at N skills: ours (isolate templates + RenderedBodyCache, the default) vs naive, same run\n`);
  out(`${s.iterations} turns of ours per size, naive within ~${s.naiveBudgetMs / 1000} s per size (at least one a round); ${s.rounds} interleaved rounds; ${MESSAGES} distinct messages (5 % are ~3 KB pasted logs); wall-clock ms.\n`);
  out('| skills | ours p50 | ours p99 | naive p50 | naive p99 | ratio p50 | ratio p99 | turns (ours / naive) |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of headline) out(row);
  out('\n## Our path by template sandbox and body memo (p50 / p99 ms; last column: naive p99 ÷ each p99)\n');
  out(`| skills | ${VARIANTS.join(' | ')} | p99 ratios |`);
  out('| ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of variants) out(row);
  out(`\n## The skill sets (ours agrees with every naive turn of the run on triggers, section and tool pool; the last two columns are over ${SHAPE_MESSAGES} messages)\n`);
  out('| skills in cascade | listed | can auto-trigger | KEYWORDS triggers | PATTERN triggers | patterns without a literal (always run) | indexed tokens | triggered per turn | section chars |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of shape) out(row);
  out('\n## Cold costs: once per change of a skill document in the scope with SkillSetCache; listAvailable is paid on EVERY turn by a caller that lists instead\n');
  out('| skills | listAvailable, default parse cache (ms) | listAvailable, parse cache ≥ skills (ms) | TriggerIndex build (ms) | index heap (MB) | index builds in the run | listings in the run |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of cold) out(row);
  if (detail) {
    out(`\n## Where our time goes at ${n(detail[0])} skills (isolate; ${s.iterations} calls each; ms)\n`);
    out('| step | p50 | p99 |');
    out('| --- | ---: | ---: |');
    for (const [name, m] of detail[1]) out(`| ${name} | ${ms(m.wall.p50)} | ${ms(m.wall.p99)} |`);
  }
  tokenEstimateTable(report, options.tiny ?? false);
  return report.rows;
}

runAsScript(__filename, runBench);
