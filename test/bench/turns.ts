/**
 * Turns (issue 5 "Measured"): turn overhead excluding the model, and turn-event fan-out.
 *
 *   node --no-node-snapshot --import tsx test/bench/turns.ts
 *   (BENCH_TURNS=50 BENCH_SUBSCRIBERS=1000 BENCH_FANOUT_SIZES=1,100,1000,5000 BENCH_LONG_CHARS=8000
 *   are the defaults; BENCH_TINY=1 for the test's sizes; BENCH_SERVER_CPU_PROF=<dir> profiles the
 *   fan-out's server)
 *
 * The database is PGlite, or PostgreSQL when TEST_DATABASE_URL is set (test/support/databases.ts).
 *
 * 1. Turn overhead, in-process (no HTTP on the measured path): a fresh database, startVance with
 *    runTurns, the offline provider (chunkDelayMs 0), a recipe `bench` (engine ford, every built-in
 *    tool but 5 removed), 5 VANCE-layer skills activated sticky. Each turn is timed end to end: sendMessage → TurnFinished seen on the
 *    bus. The baseline is the same OfflineProvider.stream() called bare, N times, with the turn's
 *    system prompt, tools and a history that grows like the turn's — measured in the same run.
 * 2. Fan-out: the server runs in a child process (this file with `--server`); the parent opens
 *    1, 100, 1,000 and 5,000 (BENCH_FANOUT_SIZES) graphql-ws clients on `turnEvents(processId)`
 *    of one process over loopback (one process per size),
 *    triggers a turn with a long offline answer (many TextDelta batches) and measures, for every
 *    (client, TextDelta) pair, receipt time − server time. Two server times are reported: the event's
 *    `at` (the row's created_at, taken before publish) and the moment the server published it on its
 *    bus (recorded in the child). Baseline: the same with 1 subscriber, same run. The summary rows
 *    (issue 18) are p50 and p99 from publish at BENCH_SUBSCRIBERS (1,000) subscribers.
 * Numbers are printed, never asserted (DESIGN §9).
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import pino from 'pino';
import { startVance, type RunningVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { Database } from '../../api/src/persistence';
import { OfflineProvider } from '../../api/src/llm';
import type { ChatMessage, ModelCallRequest } from '../../api/src/domain/llm/model-provider';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { benchDatabase } from '../support/databases';
import { cpuMs, fanOut, type FanOutResult, mono, now, TOKEN, withTimeout } from './fan-out-clients';
import { BenchReport, envNumber, isMain, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

export interface Settings {
  /** Measured turns of part 1, after `warmUpTurns` discarded ones. */
  readonly turns: number;
  readonly warmUpTurns: number;
  /** The fan-out size the targets are for (a row of the summary). */
  readonly subscribers: number;
  /** The fan-out sizes measured, in order. */
  readonly sizes: readonly number[];
  /** The long message of the fan-out turns: the offline answer echoes it, ~ longChars / 200 TextDelta batches. */
  readonly longChars: number;
  /** Measured fan-out turns at a size: more where a turn gives fewer (client, delta) pairs. */
  readonly turnsAt: (subscribers: number) => number;
}

function settings(tiny: boolean): Settings {
  if (tiny) return { turns: 3, warmUpTurns: 1, subscribers: 5, sizes: [1, 5], longChars: 1000, turnsAt: () => 1 };
  const subscribers = envNumber('BENCH_SUBSCRIBERS', 1000);
  const listed = (process.env.BENCH_FANOUT_SIZES ?? '1,100,1000,5000').split(',').map((n) => envNumberOf('BENCH_FANOUT_SIZES', n));
  return {
    turns: envNumber('BENCH_TURNS', 50), warmUpTurns: 3, subscribers,
    sizes: [...new Set([1, ...listed, subscribers])].sort((a, b) => a - b),
    longChars: envNumber('BENCH_LONG_CHARS', 8_000),
    turnsAt: (n) => (n <= 1 ? 10 : n <= 100 ? 5 : 2),
  };
}

function envNumberOf(name: string, raw: string): number {
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} lists positive integers, got '${raw}'`);
  return value;
}

const SKILLS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
const BENCH_TOOLS = ['current_time', 'doc_list', 'doc_read', 'whoami', 'workspace_list'];

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

const f = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');



// The bench drives one token far past the per-principal budgets (issue 13) on purpose: lift them.
const UNLIMITED = {
  VANCE_MAX_SUBSCRIPTIONS_PER_TOKEN: '1000000',
  VANCE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '1000000',
  VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000',
  VANCE_RATE_MUTATIONS_PER_TENANT: '1000000',
  VANCE_RATE_TURNS_PER_TOKEN: '1000000',
  VANCE_RATE_TURNS_PER_TENANT: '1000000',
};

async function startLocal(dataDir: string): Promise<{ vance: RunningVance; database: Database }> {
  const database = await benchDatabase().open();
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: TOKEN, VANCE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...UNLIMITED });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, runTurns: true, modelProvider: new OfflineProvider({ chunkDelayMs: 0 }) });
  return { vance, database };
}

/** Seeds the recipe and the 5 skills, creates a project; returns the admin principal (also turn-profile.ts). */
export async function seed(vance: RunningVance) {
  const { services } = vance;
  const admin = await services.identity.authenticate(TOKEN);
  // 5 tools: every other catalog tool is removed by the recipe (built-ins are otherwise unrestricted).
  const others = services.tools.list().map((t) => t.name).filter((n) => !BENCH_TOOLS.includes(n));
  await services.documents.put(admin, 'VANCE', null, '_vance/recipes/bench.yaml',
    `description: Bench worker\nengine: ford\nparams:\n  validation: false\nallowedToolsRemove: [${others.join(', ')}]\n`);
  for (const name of SKILLS) {
    const body = `---\ntitle: ${name}\ndescription: Bench skill ${name}\nversion: "1.0.0"\n---\nWhen working on ${name} topics, be precise and brief. ${'Keep answers short. '.repeat(10)}\n`;
    await services.documents.put(admin, 'VANCE', null, `_vance/skills/${name}/SKILL.md`, body);
  }
  await services.identity.createProject(admin, 'bench', 'NORMAL');
  return admin;
}

// ---------------------------------------------------------------------------------------------
// Server mode (child process of the fan-out part)
// ---------------------------------------------------------------------------------------------

async function serverMain(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-turns-srv-'));
  const { vance, database } = await startLocal(dataDir);
  const admin = await seed(vance);
  const { services } = vance;
  // One process per fan-out size (the parent passes the sizes).
  const processes: Record<string, string> = {};
  for (const n of (process.env.BENCH_FANOUT_SERVER_SIZES ?? '1').split(',')) {
    processes[n] = (await services.processes.spawn(admin, { project: 'bench', recipe: 'bench', name: `fanout-${n}` })).id;
  }
  // Server-side send time: the moment the bus hands the event to the streams (after its row is
  // written). Ordered, like the streams: on PostgreSQL they take this instance's events from their
  // NOTIFY echo, which can come before the local delivery after the write (a negative latency).
  let published: Record<string, number> = {};
  // Event-loop turns in which TextDeltas were published: deltas published together share a write per socket.
  let publishTurns = 0;
  let inTurn = false;
  services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
    if (e.type !== 'TextDelta') return;
    published[e.id] = mono();
    if (inTurn) return;
    inTurn = true;
    publishTurns++;
    setImmediate(() => (inTurn = false));
  }, { ordered: true });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line === 'times') {
      process.stdout.write(`${JSON.stringify({ published, publishTurns, cpuMs: cpuMs() })}\n`);
      published = {};
      publishTurns = 0;
    } else if (line === 'stop') {
      void (async () => {
        await vance.close();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      })();
    }
  });
  process.stdout.write(`${JSON.stringify({ url: vance.url, processes })}\n`);
}

// ---------------------------------------------------------------------------------------------
// Part 1: turn overhead, in-process
// ---------------------------------------------------------------------------------------------

interface OverheadResult { turn: number[]; bare: number[]; tools: string[]; deltas: number; systemChars: number; skills: string[]; driver: string }

async function turnOverhead(s: Settings): Promise<OverheadResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-turns-'));
  const { vance, database } = await startLocal(dataDir);
  try {
    const { services } = vance;
    const admin = await seed(vance);
    const proc = await services.processes.spawn(admin, { project: 'bench', recipe: 'bench', name: 'overhead' });
    for (const name of SKILLS) await services.activation.activate(admin, proc.id, name, null, false);
    const active = (await services.processes.get(admin, proc.id)).activeSkills.map((s) => s.name);

    // Turn completion from the bus: TurnFinished / TurnFailed of this process.
    let waiter: { resolve: (e: TurnEventEnvelope) => void } | null = null;
    let tools: string[] = [];
    let deltas = 0;
    const unsubscribe = services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
      if (e.processId !== proc.id) return;
      if (e.type === 'PromptComposed' && Array.isArray(e.payload?.tools)) tools = e.payload.tools as string[];
      if (e.type === 'TextDelta') deltas++;
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') waiter?.resolve(e);
    });
    const runTurn = async (text: string): Promise<number> => {
      const done = new Promise<TurnEventEnvelope>((resolve) => (waiter = { resolve }));
      const t0 = now();
      await services.activation.sendMessage(admin, proc.id, text);
      const end = await withTimeout(done, 30_000, `turn '${text}' did not finish (no TurnFinished on the bus)`);
      const ms = now() - t0;
      waiter = null;
      if (end.type === 'TurnFailed') throw new Error(`turn failed: ${JSON.stringify(end.payload)}`);
      return ms;
    };

    const composition = await services.turns.preview(admin, proc.id);
    for (let i = 0; i < s.warmUpTurns; i++) await runTurn(`warm-up message number ${i}, please answer briefly`); // discarded
    deltas = 0;
    const turn: number[] = [];
    for (let i = 0; i < s.turns; i++) turn.push(await runTurn(`benchmark message number ${i}, please answer briefly`));
    unsubscribe();
    const deltasPerTurn = deltas / s.turns;

    // Baseline: the bare provider, same system prompt and tools, a history growing like the turn's.
    const provider = new OfflineProvider({ chunkDelayMs: 0 });
    const history: ChatMessage[] = [];
    const settings = { get: () => undefined } as unknown as ModelCallRequest['settings'];
    const bareCall = async (text: string): Promise<number> => {
      const t0 = now();
      history.push({ role: 'user', content: text });
      let answer = '';
      const request: ModelCallRequest = {
        provider: 'offline', model: 'offline-echo', messages: [...composition.system, ...history], tools: composition.tools, sampling: {} as ModelCallRequest['sampling'], settings,
      };
      for await (const ev of provider.stream(request)) if (ev.type === 'text-delta') answer += ev.text;
      history.push({ role: 'assistant', content: answer });
      return now() - t0;
    };
    for (let i = 0; i < s.warmUpTurns; i++) await bareCall(`warm-up message number ${i}, please answer briefly`);
    const bare: number[] = [];
    for (let i = 0; i < s.turns; i++) bare.push(await bareCall(`benchmark message number ${i}, please answer briefly`));
    const systemChars = composition.system.reduce((n, m) => n + m.content.length, 0);
    return { turn, bare, tools, deltas: deltasPerTurn, systemChars, skills: active, driver: database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL' };
  } finally {
    await vance.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Part 2: fan-out over loopback
// ---------------------------------------------------------------------------------------------

export interface ServerHandle { info: { url: string; processes: Record<string, string> }; request: (line: string) => Promise<string>; stop: () => Promise<void> }

async function startServerChild(sizes: readonly number[]): Promise<ServerHandle> {
  // BENCH_SERVER_CPU_PROF=<dir>: a CPU profile of the server (where the fan-out's time goes).
  const profile = process.env.BENCH_SERVER_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SERVER_CPU_PROF] : [];
  const child: ChildProcess = spawn(process.execPath, ['--no-node-snapshot', ...profile, '--import', 'tsx', __filename, '--server'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent', BENCH_FANOUT_SERVER_SIZES: sizes.join(',') },
  });
  const lines: Interface = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  let wake: (() => void) | null = null;
  lines.on('line', (l) => {
    queue.push(l);
    wake?.();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    wake?.();
  });
  const nextLine = async (ms: number, what: string): Promise<string> =>
    withTimeout((async () => {
      while (queue.length === 0) {
        if (exited) throw new Error(`bench server exited (${what})`);
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
      return queue.shift()!;
    })(), ms, what);
  // A first PGlite start at load 20 took over 60 s.
  const info = JSON.parse(await nextLine(180_000, 'bench server start')) as ServerHandle['info'];
  return {
    info,
    request: async (line) => {
      child.stdin!.write(`${line}\n`);
      return nextLine(15_000, `bench server answer to '${line}'`);
    },
    stop: async () => {
      if (exited) return;
      child.stdin!.write('stop\n');
      await withTimeout(new Promise<void>((r) => child.once('exit', () => r())), 15_000, 'bench server stop').catch(() => child.kill('SIGKILL'));
    },
  };
}

// ---------------------------------------------------------------------------------------------

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const out = report.print;
  const started = now();
  out(`\nTurn overhead: ${s.turns} turns, in-process, offline provider (chunkDelayMs 0), ${SKILLS.length} sticky skills …`);
  const o = await turnOverhead(s);
  const tp50 = percentile(o.turn, 50);
  const tp99 = percentile(o.turn, 99);
  const bp50 = percentile(o.bare, 50);
  const bp99 = percentile(o.bare, 99);
  out(`\nTurn overhead (end to end sendMessage → TurnFinished on the bus, vs the bare OfflineProvider.stream() in the same run)\n`);
  out(`active skills: ${o.skills.length} (${o.skills.join(', ')}); tools offered: ${o.tools.length} (${o.tools.join(', ')}); system prompt ${o.systemChars} chars; ${f(o.deltas, 1)} TextDelta events per turn\n`);
  out('| case | n | p50 ms | p99 ms | mean ms |');
  out('| --- | ---: | ---: | ---: | ---: |');
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  out(`| full turn (Vance, offline provider) | ${o.turn.length} | ${f(tp50)} | ${f(tp99)} | ${f(mean(o.turn))} |`);
  out(`| bare provider call (baseline) | ${o.bare.length} | ${f(bp50, 3)} | ${f(bp99, 3)} | ${f(mean(o.bare), 3)} |`);
  const overhead = (name: string, ratio: number) => f(report.ratio('Turn overhead, turn ÷ bare', name, ratio), 1);
  out(`\noverhead ratio turn ÷ bare: p50 ${overhead('p50', tp50 / bp50)}×, p99 ${overhead('p99', tp99 / bp99)}×; absolute overhead p50 ${f(tp50 - bp50)} ms per turn`);
  // Issue 18's targets are absolute (the whole turn, sendMessage → TurnFinished); the bare call is shown beside them.
  for (const [p, turnMs, bareMs, target] of [['p50', tp50, bp50, 5], ['p99', tp99, bp99, 15]] as const) {
    report.summary({
      name: `turn overhead ${p}, ${o.driver}, offline provider, ${SKILLS.length} sticky skills (sendMessage → TurnFinished)`,
      figure: `${f(turnMs)} ms`, baseline: `bare provider call ${f(bareMs, 3)} ms`, ratio: turnMs / bareMs, target: `< ${target} ms`, met: turnMs < target,
    });
  }

  out(`\nFan-out: server in a child process, graphql-ws clients in this process, loopback; ${s.sizes.join(', ')} subscribers …`);
  const server = await startServerChild(s.sizes);
  const results: FanOutResult[] = [];
  try {
    for (const n of s.sizes) results.push(await fanOut(s, server, n, server.info.processes[String(n)]!, s.turnsAt(n)));
  } finally {
    await server.stop();
  }
  const one = results[0]!;
  const many = results.find((r) => r.subscribers === s.subscribers)!;
  out(`\nTextDelta delivery latency over loopback, per (client, delta) pair; the offline answer of ~${s.longChars} chars gives ~${f(many.deltas, 0)} TextDelta batches per turn`);
  out('(from `at` = the event row\'s created_at, before publish, on the wall clock; from publish = where the server\'s streams take the event from its bus, on the monotonic clock both processes share)\n');
  out('(CPU µs per pair: the process\'s CPU time over the measured turns ÷ their (client, TextDelta) pairs — the cost of a delivery, which waiting on a loaded machine does not inflate)\n');
  out('| subscribers | pairs | p50 ms from at | p99 ms from at | p50 ms from publish | p99 ms from publish | turn ms | server CPU µs/pair | clients CPU µs/pair | TextDeltas per publishing loop turn |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const perPair = (ms: number) => f((ms * 1000) / Math.max(1, r.atLat.length), 1);
    out(`| ${r.subscribers} | ${r.atLat.length} | ${f(percentile(r.atLat, 50))} | ${f(percentile(r.atLat, 99))} | ${f(percentile(r.pubLat, 50))} | ${f(percentile(r.pubLat, 99))} | ${f(r.turnMs, 0)} | ${perPair(r.serverCpuMs)} | ${perPair(r.clientCpuMs)} | ${f(r.deltasPerPublishTurn)} |`);
  }
  const fan = (name: string, m: number[], b: number[], p: number) => f(report.ratio('Fan-out, many ÷ 1 subscriber', name, percentile(m, p) / percentile(b, p)), 1);
  out(`\n${s.subscribers} ÷ 1 subscriber: p50 ${fan('p50 from at', many.atLat, one.atLat, 50)}×, p99 ${fan('p99 from at', many.atLat, one.atLat, 99)}× (from at); p50 ${fan('p50 from publish', many.pubLat, one.pubLat, 50)}×, p99 ${fan('p99 from publish', many.pubLat, one.pubLat, 99)}× (from publish)`);
  // Issue 18's targets: absolute, from publish, at 1,000 subscribers; the baseline is 1 subscriber of this run.
  const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  for (const [p, limit] of [[50, 10], [99, 50]] as const) {
    const figure = percentile(many.pubLat, p);
    const baseline = percentile(one.pubLat, p);
    report.summary({
      name: `fan-out TextDelta p${p} from publish, ${s.subscribers} subscribers, ${database}`,
      figure: `${f(figure)} ms`, baseline: `1 subscriber ${f(baseline)} ms`, ratio: figure / baseline,
      target: `< ${limit} ms`, met: figure < limit,
    });
  }
  out(`\ntotal ${f((now() - started) / 1000, 1)} s`);
  return report.rows;
}

if (isMain(__filename) && process.argv.includes('--server')) {
  serverMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  runAsScript(__filename, runBench);
}
