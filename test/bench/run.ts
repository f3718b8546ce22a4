/**
 * GraphQL throughput of `effectiveDocument` on a warm cache against a trivial query on the same
 * server and a bare node:http endpoint, plus the uncached (naive) lookup — all in one run, reported
 * as ratios, never as pass/fail on absolute time.
 *
 *   node --no-node-snapshot --import tsx test/bench/run.ts
 *   (BENCH_SECONDS=2 per case and round, BENCH_ROUNDS=7, BENCH_CONNECTIONS=20 are the defaults;
 *   BENCH_TINY=1 for the test's sizes)
 *
 * The cases run in interleaved rounds (every case once per round, after one warm-up pass each), and
 * a case's ratio is the median over rounds of its req/s ÷ the baseline's req/s *of the same round*:
 * on a shared machine, one 5-second window per case in a row put each case in a different load, and
 * the ratio swung from 0.2 to 1.8 between runs (issue 18). The servers' CPU time per request (read
 * from the server process before and after each window) is shown beside it: it hardly depends on
 * what else the machine runs, and says what the request costs the server.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

const TOKEN = 'bench-admin-token-0123456789';

/** Per case: a timed window (full), or a fixed number of requests (tiny: seconds, whatever the load). */
type Load = { readonly connections: number } & ({ readonly duration: number } | { readonly amount: number });
/** Tiny runs skip the warm-up pass: autocannon ends on a whole second, which would double their time. */
interface Settings { readonly warmUp: Load | null; readonly measure: Load; readonly rounds: number }

function settings(tiny: boolean): Settings {
  if (tiny) return { warmUp: null, measure: { connections: 4, amount: 100 }, rounds: 1 };
  const connections = envNumber('BENCH_CONNECTIONS', 20);
  return { warmUp: { connections, duration: 2 }, measure: { connections, duration: envNumber('BENCH_SECONDS', 2) }, rounds: envNumber('BENCH_ROUNDS', 7) };
}

interface Case { name: string; url: 'bare' | 'cached' | 'naive'; query?: string }
const EFFECTIVE = '{ effectiveDocument(path: "_vance/recipes/bench.yaml") { source document { version } } }';
const CASES: Case[] = [
  { name: 'bare node:http JSON', url: 'bare' },
  { name: 'trivial query { __typename }', url: 'cached', query: '{ __typename }' },
  // Right after the trivial query: the ratio the issue sets a target for pairs these two windows.
  { name: 'effectiveDocument, warm cache', url: 'cached', query: EFFECTIVE },
  { name: 'me (authenticated)', url: 'cached', query: '{ me { login } }' },
  { name: 'effectiveDocument, no cache (naive)', url: 'naive', query: EFFECTIVE },
];

interface Servers { readonly urls: Record<string, string>; stop(): Promise<void> }

async function startServers(): Promise<Servers> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', path.join(__dirname, 'servers.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    exited.then((code) => Promise.reject(new Error(`bench servers exited with ${code}`))),
  ]);
  const stop = async () => {
    child.kill('SIGTERM'); // servers.ts closes its database (a PostgreSQL schema is dropped)
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return { urls: JSON.parse(line) as Record<string, string>, stop };
}

const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

/** A case must answer 200 without GraphQL errors before its throughput means anything. */
async function check(url: string, c: Case): Promise<void> {
  const res = await fetch(url, c.query ? { method: 'POST', headers, body: JSON.stringify({ query: c.query }) } : { headers });
  const body = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`${c.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
}

interface Measured { rps: number; p99: number; errors: number; cpuUsPerRequest: number }

/** The servers' process CPU time (user + system, µs) so far. */
async function serverCpu(url: string): Promise<number> {
  const { user, system } = (await (await fetch(url)).json()) as NodeJS.CpuUsage;
  return user + system;
}

async function measure(url: string, query: string | undefined, load: Load, cpuUrl: string): Promise<Measured> {
  // A fixed amount finishes within autocannon's one-second sampling (its average and its duration
  // are per whole second): time it from the first response to the last.
  let first = 0;
  let last = 0;
  let responses = 0;
  const cpuBefore = await serverCpu(cpuUrl);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url,
      ...load,
      method: query ? 'POST' : 'GET',
      headers,
      ...(query ? { body: JSON.stringify({ query }) } : {}),
    }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', () => {
      last = performance.now();
      if (responses++ === 0) first = last;
    });
  });
  const cpu = (await serverCpu(cpuUrl)) - cpuBefore;
  const rps = 'amount' in load ? (responses - 1) / ((last - first) / 1000) : result.requests.average;
  return { rps, p99: result.latency.p99, errors: result.errors + result.non2xx, cpuUsPerRequest: cpu / Math.max(1, responses) };
}

const median = (values: readonly number[]) => percentile(values, 50);

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const { warmUp, measure: load, rounds } = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const servers = await startServers();
  const cpuUrl = servers.urls.cpu!;
  try {
    for (const c of CASES) {
      const url = servers.urls[c.url]!;
      await check(url, c);
      if (warmUp) await measure(url, c.query, warmUp, cpuUrl).catch(() => undefined); // warm-up pass, discarded
    }
    const runs: Measured[][] = CASES.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of CASES.entries()) runs[i]!.push(await measure(servers.urls[c.url]!, c.query, load, cpuUrl));
    }
    /** Median over rounds of case i's req/s ÷ case `base`'s req/s in the same round. */
    const pairedRatio = (i: number, base: number) => median(runs[i]!.map((r, round) => r.rps / runs[base]![round]!.rps));
    const window = 'duration' in load ? `${load.duration} s per case and round` : `${load.amount} requests per case and round`;
    const out = report.print;
    out(`\nThroughput, ${load.connections} connections, ${window}, ${rounds} interleaved round(s); medians over rounds, each ratio of req/s taken within one round\n`);
    out('| case | req/s | p99 ms | vs bare node:http | vs trivial query | server CPU µs/request | CPU vs trivial | errors |');
    out('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const trivialCpu = median(runs[1]!.map((r) => r.cpuUsPerRequest));
    for (const [i, c] of CASES.entries()) {
      const rs = runs[i]!;
      const vsBare = report.ratio('vs bare node:http', c.name, pairedRatio(i, 0));
      const vsTrivial = report.ratio('vs trivial query', c.name, pairedRatio(i, 1));
      const cpu = median(rs.map((r) => r.cpuUsPerRequest));
      const errors = rs.reduce((sum, r) => sum + r.errors, 0);
      out(`| ${c.name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p99))} | ${vsBare.toFixed(3)} | ${vsTrivial.toFixed(3)} | ${cpu.toFixed(0)} | ${(cpu / trivialCpu).toFixed(2)}× | ${errors} |`);
    }
    const warm = CASES.findIndex((c) => c.name === 'effectiveDocument, warm cache');
    const naive = CASES.findIndex((c) => c.url === 'naive');
    out(`\nwarm cache vs naive per-request database lookup: ${report.ratio('warm vs naive', 'effectiveDocument', pairedRatio(warm, naive)).toFixed(2)}×`);
    const ratio = pairedRatio(warm, 1);
    const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    report.summary({
      name: `effectiveDocument, warm cache, vs trivial query { __typename } (req/s, ${database}, median of ${rounds} round(s))`,
      figure: `${median(runs[warm]!.map((r) => r.rps)).toFixed(0)} req/s`,
      baseline: `trivial ${median(runs[1]!.map((r) => r.rps)).toFixed(0)} req/s`,
      ratio, target: '≥ 0.8×', met: ratio >= 0.8,
    });
    const warmCpu = median(runs[warm]!.map((r) => r.cpuUsPerRequest));
    report.summary({
      name: `effectiveDocument, warm cache: server CPU per request ÷ trivial query's (${database})`,
      figure: `${warmCpu.toFixed(0)} µs`, baseline: `trivial ${trivialCpu.toFixed(0)} µs`, ratio: warmCpu / trivialCpu, target: '(≤ 1.25× for 0.8× req/s)', met: null,
    });
  } finally {
    await servers.stop();
  }
  return report.rows;
}

runAsScript(__filename, runBench);
