/**
 * `npm run bench`, first step: GraphQL throughput of `effectiveDocument` on a warm cache against a
 * trivial query on the same server and a bare node:http endpoint, plus the uncached (naive) lookup —
 * all in one run, reported as ratios, never as pass/fail on absolute time.
 *
 *   node --no-node-snapshot --import tsx test/bench/run.ts
 *   (BENCH_SECONDS=5 BENCH_CONNECTIONS=20 are the defaults; BENCH_TINY=1 for the test's sizes)
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';
import { BenchReport, envNumber, runAsScript, type BenchOptions, type RatioRow } from './harness';

const TOKEN = 'bench-admin-token-0123456789';

/** Per case: a timed window (full), or a fixed number of requests (tiny: seconds, whatever the load). */
type Load = { readonly connections: number } & ({ readonly duration: number } | { readonly amount: number });
/** Tiny runs skip the warm-up pass: autocannon ends on a whole second, which would double their time. */
interface Settings { readonly warmUp: Load | null; readonly measure: Load }

function settings(tiny: boolean): Settings {
  if (tiny) return { warmUp: null, measure: { connections: 4, amount: 100 } };
  const load = { connections: envNumber('BENCH_CONNECTIONS', 20), duration: envNumber('BENCH_SECONDS', 5) };
  return { warmUp: load, measure: load };
}

interface Case { name: string; url: 'bare' | 'cached' | 'naive'; query?: string }
const EFFECTIVE = '{ effectiveDocument(path: "_vance/recipes/bench.yaml") { source document { version } } }';
const CASES: Case[] = [
  { name: 'bare node:http JSON', url: 'bare' },
  { name: 'trivial query { __typename }', url: 'cached', query: '{ __typename }' },
  { name: 'me (authenticated)', url: 'cached', query: '{ me { login } }' },
  { name: 'effectiveDocument, warm cache', url: 'cached', query: EFFECTIVE },
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

async function measure(url: string, query: string | undefined, load: Load): Promise<{ rps: number; p99: number; errors: number }> {
  // A fixed amount finishes within autocannon's one-second sampling (its average and its duration
  // are per whole second): time it from the first response to the last.
  let first = 0;
  let last = 0;
  let responses = 0;
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
  const rps = 'amount' in load ? (responses - 1) / ((last - first) / 1000) : result.requests.average;
  return { rps, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const { warmUp, measure: load } = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const servers = await startServers();
  try {
    const rows: { name: string; rps: number; p99: number; errors: number }[] = [];
    for (const c of CASES) {
      const url = servers.urls[c.url]!;
      await check(url, c);
      if (warmUp) await measure(url, c.query, warmUp).catch(() => undefined); // warm-up pass, discarded
      rows.push({ name: c.name, ...(await measure(url, c.query, load)) });
    }
    const bare = rows[0]!.rps;
    const trivial = rows[1]!.rps;
    const window = 'duration' in load ? `${load.duration} s per case` : `${load.amount} requests per case`;
    const out = report.print;
    out(`\nThroughput, ${load.connections} connections, ${window} (ratios are this run's req/s ÷ baseline req/s)\n`);
    out('| case | req/s | p99 ms | vs bare node:http | vs trivial query | errors |');
    out('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of rows) {
      const vsBare = report.ratio('vs bare node:http', r.name, r.rps / bare);
      const vsTrivial = report.ratio('vs trivial query', r.name, r.rps / trivial);
      out(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${vsBare.toFixed(3)} | ${vsTrivial.toFixed(3)} | ${r.errors} |`);
    }
    const warm = rows[3]!.rps;
    const naive = rows[4]!.rps;
    out(`\nwarm cache vs naive per-request database lookup: ${report.ratio('warm vs naive', 'effectiveDocument', warm / naive).toFixed(2)}×`);
  } finally {
    await servers.stop();
  }
  return report.rows;
}

runAsScript(__filename, runBench);
