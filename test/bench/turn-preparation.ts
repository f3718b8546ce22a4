/**
 * Turn preparation (issue 4 "Measured"; DESIGN §4, §9): trigger matching + resolving the active skills
 * + the skills prompt section + the tool pool, at 10, 100, 1,000 and 10,000 skills in the cascade,
 * against the naive path measured in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/turn-preparation.ts
 *   (BENCH_SIZES=10,100 BENCH_ITERATIONS=3000 BENCH_NAIVE_MS=3000 to change the defaults)
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
 * Numbers are printed, never asserted (DESIGN §9); the two paths are checked to agree first.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BUILTIN_TOOLS } from '../../api/src/domain/tools/builtin-tools';
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

const SIZES = (process.env.BENCH_SIZES ?? '10,100,1000,10000').split(',').map(Number);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3000);
/** Time budget per size for the naive path (at least 20 turns). */
const NAIVE_BUDGET_MS = Number(process.env.BENCH_NAIVE_MS ?? 4000);
const ROUNDS = 5;
const MESSAGES = 400;

// A full collection between the two paths' windows, so one path does not pay for the other's garbage.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const SCOPE: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const PROJECT_OF: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };
const STORED: readonly StoredLayer[] = ['USER', 'PROJECT', 'VANCE'];
const RENDER_CONTEXT = { recipe: 'analyze', engine: 'ford', mode: 'NORMAL', profile: 'web', params: { maxSteps: 6, language: 'en' } };
const TOOL_INPUT: ToolPoolInput = {
  available: BUILTIN_TOOLS,
  engineAllowed: ['respond', '@read'],
  add: ['doc_write', 'web_fetch'],
  remove: ['@destructive', 'web_search'],
  defer: ['@process'],
  maxTools: 24,
};

// ---------------------------------------------------------------------------------------------
// Deterministic, realistic skills and messages
// ---------------------------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = (
  'the a to of and in is it you that for on with this be are not have can do what how please check look ' +
  'code review test build deploy release bug fix error issue change diff branch merge commit file function ' +
  'class module type api endpoint request response database query index table schema migration config ' +
  'server client cache latency memory performance security token user project tenant document report ' +
  'summary plan step write read update delete create list find explain compare better faster simple ' +
  'schau mal bitte den die das und ist nicht warum wie änderung prüfen abwägen besser übersicht'
).split(' ');
const CODE = ['src/app.ts', 'index.tsx', 'TS2345', 'package.json', 'main.py', 'Dockerfile', 'v1.2.3', 'PR #42', 'http://localhost:4000', '--force', 'SELECT *', 'npm test'];
const CONSONANTS = 'bcdfghklmnprstvwz';
const VOWELS = 'aeiou';

function topicWord(i: number): string {
  // A unique pronounceable word per i (z-suffix keeps it clear of COMMON words).
  let n = i + 1000;
  let word = '';
  while (n > 0) {
    word += CONSONANTS[n % CONSONANTS.length]! + VOWELS[Math.floor(n / CONSONANTS.length) % VOWELS.length]!;
    n = Math.floor(n / (CONSONANTS.length * VOWELS.length));
  }
  return `${word}z`;
}

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const sentence = (rng: () => number, words: number) => Array.from({ length: words }, () => pick(rng, COMMON)).join(' ');

interface SkillDoc {
  readonly layer: StoredLayer;
  readonly path: string;
  readonly content: string;
}

interface Generated {
  readonly docs: SkillDoc[];
  readonly topics: readonly [string, string][];
  readonly active: readonly string[];
}

const yamlQuote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function skillTriggers(rng: () => number, t1: string, t2: string): string[] {
  const lines = ['triggers:'];
  const roll = rng();
  if (roll < 0.45) {
    const keywords = [t1, t2, pick(rng, COMMON.slice(20, 90))];
    if (rng() < 0.3) keywords.push(`${t1} ${pick(rng, ['review', 'plan', 'report', 'check'])}`);
    lines.push('  - type: KEYWORDS', `    keywords: [${keywords.map(yamlQuote).join(', ')}]`);
    if (rng() < 0.2) lines.push('    minMatch: 2');
  }
  if (roll >= 0.3) {
    const patterns = [
      `(?i)\\b${t1}\\b.*\\b(${t2}|${pick(rng, ['deploy', 'review', 'release'])})\\b`,
      `(?i)(show|check|explain) (the )?${t1}`,
      `(?i)\\b${t2}[0-9]{2,4}\\b`,
      `(?i)^\\s*(please )?${t1}`,
      `(?i)(${t1}|${t2})-(api|service|job)`,
    ];
    lines.push('  - type: PATTERN', `    pattern: ${yamlQuote(pick(rng, patterns))}`);
  }
  if (rng() < 0.03) lines.push('  - type: PATTERN', `    pattern: ${yamlQuote('(?i)^[0-9a-f]{40}$')}`); // no required literal: always runs
  return lines;
}

function skillBody(rng: () => number, i: number): string {
  const parts = [`# Skill ${i}`, '', `${sentence(rng, 18)}.`, `- ${sentence(rng, 10)}.`, `- ${sentence(rng, 12)}.`, `- ${sentence(rng, 9)}.`];
  if (rng() < 0.4) parts.push('{% if args.text %}Focus on: {{ args.text }}.{% else %}Work on the whole change.{% endif %}', 'Recipe: {{ recipe }} ({{ mode }}).');
  parts.push(`${sentence(rng, 14)}.`);
  return parts.join('\n');
}

function skillDocument(rng: () => number, i: number, t1: string, t2: string, extra: string[] = []): string {
  const lines = ['---', `title: Skill ${t1}`, `description: ${yamlQuote(`Helps with ${t1} and ${t2} work — ${sentence(rng, 6)}`)}`, 'version: 1.0.0', `tags: [${t1}, bench]`];
  if (rng() < 0.9) lines.push(...skillTriggers(rng, t1, t2));
  if (rng() < 0.05) lines.push('disable-model-invocation: true');
  if (rng() < 0.03) lines.push('run:', '  target: spawn', '  recipe: code-read', 'action: Review the current changes now.');
  lines.push(`tools: [${[pick(rng, ['doc_read', 'doc_grep', 'workspace_read']), pick(rng, ['web_fetch', 'rag_query', 'doc_write'])].join(', ')}]`);
  lines.push(...extra, '---', skillBody(rng, i));
  return lines.join('\n');
}

function generate(n: number): Generated {
  const rng = mulberry32(n);
  const docs: SkillDoc[] = [];
  const topics: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const t1 = topicWord(2 * i);
    const t2 = topicWord(2 * i + 1);
    topics.push([t1, t2]);
    const roll = rng();
    const layer: StoredLayer = roll < 0.05 ? 'USER' : roll < 0.2 ? 'PROJECT' : 'VANCE';
    const path = `${SKILLS_PREFIX}skill-${String(i).padStart(5, '0')}-${t1}/SKILL.md`;
    docs.push({ layer, path, content: skillDocument(rng, i, t1, t2) });
    if (rng() < 0.05) docs.push({ layer: 'VANCE', path, content: skillDocument(rng, i, t1, t2) }); // shadowed by the inner copy when layers differ
  }
  // Three active skills (sticky, one with arguments), each with an INLINE and an ON_DEMAND reference doc.
  const active: string[] = [];
  for (const [k, templated] of [[0, true], [1, true], [2, false]] as const) {
    const name = `active-${k}`;
    active.push(name);
    const dir = `${SKILLS_PREFIX}${name}`;
    const refs = [
      'arguments: true',
      'referenceDocs:',
      '  - title: Checklist',
      '    file: references/checklist.md',
      '    loadMode: INLINE',
      '  - title: Deep dive',
      '    file: references/deep-dive.md',
      '    summary: Background and edge cases',
      '    loadMode: ON_DEMAND',
    ];
    const body = templated
      ? `# Active ${k}\n\n${sentence(rng, 30)}.\n{% if args.text %}Focus on: {{ args.text }}.{% endif %}\nRecipe {{ recipe }}, profile {{ profile }}, at most {{ params.maxSteps }} steps.\n${sentence(rng, 25)}.`
      : `# Active ${k}\n\n${sentence(rng, 30)}.\n- ${sentence(rng, 20)}.\n- ${sentence(rng, 20)}.`;
    const head = ['---', `title: Active ${k}`, `description: Active skill ${k} for the bench`, 'version: 1.0.0', 'tools: [doc_read, skill_reference_doc]', ...refs, '---'];
    docs.push({ layer: 'VANCE', path: `${dir}/SKILL.md`, content: [...head, body].join('\n') });
    docs.push({ layer: 'VANCE', path: `${dir}/references/checklist.md`, content: `- ${sentence(rng, 12)}\n- ${sentence(rng, 12)}\n` });
    docs.push({ layer: 'VANCE', path: `${dir}/references/deep-dive.md`, content: `${sentence(rng, 80)}\n` });
  }
  return { docs, topics, active };
}

function messages(topics: readonly [string, string][]): string[] {
  const rng = mulberry32(7);
  const out: string[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const words: string[] = [];
    const length = 12 + Math.floor(rng() * 40);
    for (let w = 0; w < length; w++) words.push(rng() < 0.1 ? pick(rng, CODE) : pick(rng, COMMON));
    const roll = rng();
    const mention = (k: number) => {
      const [t1, t2] = pick(rng, topics);
      const at = Math.floor(rng() * words.length);
      words.splice(at, 0, ...(k % 2 === 0 ? [t1, 'and', t2] : [`check the ${t1}`, `${t2}-service`]));
    };
    if (roll < 0.3) mention(i);
    if (roll < 0.05) mention(i + 1);
    let text = words.join(' ');
    if (rng() < 0.05) text += `\n\`\`\`\n${Array.from({ length: 60 }, () => sentence(rng, 8)).join('\n')}\n\`\`\``; // a pasted log, ~3 KB
    out.push(text.charAt(0).toUpperCase() + text.slice(1) + (rng() < 0.5 ? '?' : '.'));
  }
  return out;
}

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

async function timeCalls(run: Turn, msgs: readonly string[], count: number, offset: number, into: Samples): Promise<void> {
  for (let i = 0; i < count; i++) {
    const message = msgs[(offset + i) % msgs.length]!;
    const t0 = performance.now();
    await run(message);
    into.wall.push(performance.now() - t0);
  }
}

interface Measured {
  readonly wall: Stats;
}

/**
 * Interleaved rounds, so JIT warm-up and background load do not favour the path that runs last, with
 * a full collection before each path's window so none pays for another's garbage. The naive path gets
 * a time budget (at least 2 turns a round): at 10,000 skills one naive turn takes seconds.
 */
async function compare(cases: readonly [string, Turn][], slow: Turn, msgs: readonly string[]): Promise<{ ours: Measured[]; naive: Measured }> {
  for (const [, run] of cases) await timeCalls(run, msgs, 300, 0, samples());
  const probe = samples();
  await timeCalls(slow, msgs, 2, 0, probe);
  const naivePerRound = Math.max(2, Math.min(ITERATIONS / ROUNDS, Math.floor(NAIVE_BUDGET_MS / ROUNDS / Math.max(...probe.wall))));
  const fast = cases.map(samples);
  const naiveSamples = samples();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, [, run]] of cases.entries()) {
      collect();
      await timeCalls(run, msgs, ITERATIONS / ROUNDS, round * 997, fast[c]!);
    }
    collect();
    await timeCalls(slow, msgs, naivePerRound, round * 31, naiveSamples);
  }
  const measured = (s: Samples): Measured => ({ wall: stats(s.wall) });
  return { ours: fast.map(measured), naive: measured(naiveSamples) };
}

/** Ours and naive must agree before they are compared. */
async function checkAgreement(w: World, fast: (message: string) => Promise<PreparedTurn>, slow: ReturnType<typeof naive>): Promise<{ triggeredPerTurn: number; sectionChars: number }> {
  let triggered = 0;
  let chars = 0;
  const checked = w.messages.slice(0, w.size >= 10_000 ? 10 : 100);
  for (const message of checked) {
    const [x, y] = [await fast(message), await slow(message)];
    const names = (m: readonly { skill: string; reason: string }[]) => JSON.stringify(m.map((t) => [t.skill, t.reason]));
    if (names(x.triggered) !== names(y.triggered)) throw new Error(`triggers differ on ${JSON.stringify(message)}: ${names(x.triggered)} vs ${names(y.triggered)}`);
    if (x.skillsSection !== y.skillsSection) throw new Error(`skills sections differ on ${JSON.stringify(message)}`);
    if (JSON.stringify(x.toolPool) !== JSON.stringify(y.toolPool)) throw new Error('tool pools differ');
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
async function breakdown(w: World, templates: TemplateEngine): Promise<[string, Measured][]> {
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
    await timeCalls(run, msgs, 300, 0, samples());
    collect();
    await timeCalls(run, msgs, ITERATIONS, 0, into);
    rows.push([name, { wall: stats(into.wall) }]);
  }
  return rows;
}

const VARIANTS = ['isolate + memo', 'isolate, render every turn', 'in-process + memo', 'in-process, render every turn'];
const ms = (x: number) => (x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(1));
const ratio = (a: number, b: number) => `${(a / b).toFixed(0)}×`;
const n = (x: number) => x.toLocaleString('en');

async function main(): Promise<void> {
  const isolate = new NunjucksTemplateEngine({ sandbox: 'isolate' });
  const inProcess = new NunjucksTemplateEngine({ sandbox: 'in-process' });
  const headline: string[] = [];
  const variants: string[] = [];
  const cold: string[] = [];
  const shape: string[] = [];
  let detail: [number, [string, Measured][]] | null = null;
  try {
    for (const size of SIZES) {
      const w = await world(size, isolate);
      const slow = naive(w, isolate);
      const check = await checkAgreement(w, ours(w, isolate), slow);
      const cases: [string, Turn][] = [
        ['isolate + RenderedBodyCache', ours(w, isolate)],
        ['isolate, rendering every turn', ours(w, isolate, false)],
        ['in-process + RenderedBodyCache', ours(w, inProcess)],
        ['in-process, rendering every turn', ours(w, inProcess, false)],
      ];
      const result = await compare(cases, slow, w.messages);
      const [o] = result.ours;
      const nv = result.naive;
      headline.push(`| ${n(size)} | ${ms(o!.wall.p50)} | ${ms(o!.wall.p99)} | ${ms(nv.wall.p50)} | ${ms(nv.wall.p99)} | ${ratio(nv.wall.p50, o!.wall.p50)} | ${ratio(nv.wall.p99, o!.wall.p99)} | ${n(o!.wall.count)} / ${nv.wall.count} |`);
      variants.push(`| ${n(size)} | ${result.ours.map((m) => `${ms(m.wall.p50)} / ${ms(m.wall.p99)}`).join(' | ')} | ${result.ours.map((m) => ratio(nv.wall.p99, m.wall.p99)).join(' · ')} |`);
      const c = await coldCosts(w);
      const stats = w.caches.indexes.indexFor(await w.skillSets.list(SCOPE)).stats;
      cold.push(`| ${n(size)} | ${ms(c.list)} | ${ms(c.roomyList)} | ${ms(c.build)} | ${c.megabytes.toFixed(2)} | ${w.caches.indexes.builds} | ${w.skillSets.loads} |`);
      shape.push(`| ${n(size)} | ${stats.skills} | ${stats.candidates} | ${stats.keywordTriggers} | ${stats.patternTriggers} | ${stats.unfilteredPatterns} | ${stats.distinctTokens} | ${check.triggeredPerTurn.toFixed(2)} | ${check.sectionChars} |`);
      if (size === 1000) detail = [size, await breakdown(w, isolate)];
    }
  } finally {
    isolate.dispose();
    inProcess.dispose();
  }
  console.log(`\n## Turn preparation at N skills: ours (isolate templates + RenderedBodyCache, the default) vs naive, same run\n`);
  console.log(`${ITERATIONS} turns of ours per size, naive within ~${NAIVE_BUDGET_MS / 1000} s per size; ${ROUNDS} interleaved rounds; ${MESSAGES} distinct messages (5 % are ~3 KB pasted logs); wall-clock ms.\n`);
  console.log('| skills | ours p50 | ours p99 | naive p50 | naive p99 | ratio p50 | ratio p99 | turns (ours / naive) |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of headline) console.log(row);
  console.log('\n## Our path by template sandbox and body memo (p50 / p99 ms; last column: naive p99 ÷ each p99)\n');
  console.log(`| skills | ${VARIANTS.join(' | ')} | p99 ratios |`);
  console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of variants) console.log(row);
  console.log('\n## The skill sets (ours and naive agree on triggers, section and tool pool for every checked message)\n');
  console.log('| skills in cascade | listed | can auto-trigger | KEYWORDS triggers | PATTERN triggers | patterns without a literal (always run) | indexed tokens | triggered per turn | section chars |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of shape) console.log(row);
  console.log('\n## Cold costs: once per change of a skill document in the scope with SkillSetCache; listAvailable is paid on EVERY turn by a caller that lists instead\n');
  console.log('| skills | listAvailable, default parse cache (ms) | listAvailable, parse cache ≥ skills (ms) | TriggerIndex build (ms) | index heap (MB) | index builds in the run | listings in the run |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of cold) console.log(row);
  if (detail) {
    console.log(`\n## Where our time goes at ${n(detail[0])} skills (isolate; ${ITERATIONS} calls each; ms)\n`);
    console.log('| step | p50 | p99 |');
    console.log('| --- | ---: | ---: |');
    for (const [name, m] of detail[1]) console.log(`| ${name} | ${ms(m.wall.p50)} | ${ms(m.wall.p99)} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
