/**
 * `npm run bench`: GraphQL throughput of `effectiveDocument` on a warm cache against a trivial query
 * on the same server and a bare node:http endpoint, plus the uncached (naive) lookup — all in one
 * run, reported as ratios, never as pass/fail on absolute time.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';

const TOKEN = 'bench-admin-token-0123456789';
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Case { name: string; url: 'bare' | 'cached' | 'naive'; query?: string }
const CASES: Case[] = [
  { name: 'bare node:http JSON', url: 'bare' },
  { name: 'trivial query { __typename }', url: 'cached', query: '{ __typename }' },
  { name: 'me (authenticated)', url: 'cached', query: '{ me { login } }' },
  { name: 'effectiveDocument, warm cache', url: 'cached', query: '{ effectiveDocument(path: "_vance/recipes/bench.yaml") { source document { version } } }' },
  { name: 'effectiveDocument, no cache (naive)', url: 'naive', query: '{ effectiveDocument(path: "_vance/recipes/bench.yaml") { source document { version } } }' },
];

async function startServers(): Promise<{ urls: Record<string, string>; stop: () => void }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', path.join(__dirname, 'servers.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { urls: JSON.parse(line), stop: () => child.kill('SIGKILL') };
}

async function measure(url: string, query: string | undefined): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    method: query ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    ...(query ? { body: JSON.stringify({ query }) } : {}),
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main(): Promise<void> {
  const { urls, stop } = await startServers();
  try {
    const rows: { name: string; rps: number; p99: number; errors: number }[] = [];
    for (const c of CASES) {
      await measure(urls[c.url]!, c.query).catch(() => undefined); // warm-up pass, discarded
      rows.push({ name: c.name, ...(await measure(urls[c.url]!, c.query)) });
    }
    const bare = rows[0]!.rps;
    const trivial = rows[1]!.rps;
    console.log(`\nThroughput, ${CONNECTIONS} connections, ${DURATION} s per case (ratios are this run's req/s ÷ baseline req/s)\n`);
    console.log('| case | req/s | p99 ms | vs bare node:http | vs trivial query | errors |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of rows) {
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${(r.rps / bare).toFixed(3)} | ${(r.rps / trivial).toFixed(3)} | ${r.errors} |`);
    }
    const warm = rows[3]!.rps;
    const naive = rows[4]!.rps;
    console.log(`\nwarm cache vs naive per-request database lookup: ${(warm / naive).toFixed(2)}×`);
  } finally {
    stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
