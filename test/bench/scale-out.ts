/**
 * Scale-out (issue 14 "Measured"): Vance instances as real processes (`api/src/main.ts`), driven over
 * HTTP and WebSocket from this one.
 *
 *   node --no-node-snapshot --import tsx test/bench/scale-out.ts        (BENCH_TINY=1 for the test's sizes)
 *
 * 1. Throughput (PostgreSQL only, TEST_DATABASE_URL): independent processes, each a closed loop
 *    "sendMessage → its TurnFinished → next", with 1, 2 and 3 instances on one schema; messages go to
 *    the instances in turn. turns/s ÷ the 1-instance figure of the same run.
 * 2. Takeover (PostgreSQL only): a turn waits on a client tool on one instance, which is killed
 *    (SIGKILL); the time until another, running instance has marked the turn INTERRUPTED ÷ the lease.
 * 3. sendMessage beside a running turn (PGlite or PostgreSQL): its latency while the process's turn
 *    waits on a client tool ÷ its latency on an idle process, p50 and p99.
 * Numbers are printed, never asserted (DESIGN §9). The machine's two cores serve the instances and
 * this load generator alike, so (1) shows what a second instance adds here, not on separate hosts.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { collect } from '../graphql/harness';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

const ROOT = path.resolve(__dirname, '../..');
const TOKEN = 'bench-admin-token-0123456789';

interface Settings {
  readonly instances: number;
  readonly processes: number;
  readonly turnsPerProcess: number;
  readonly samples: number;
  readonly leaseMs: number;
}

function settings(tiny: boolean): Settings {
  if (tiny) return { instances: 2, processes: 3, turnsPerProcess: 2, samples: 5, leaseMs: 1_000 };
  return {
    instances: 3, processes: envNumber('BENCH_PROCESSES', 24), turnsPerProcess: envNumber('BENCH_TURNS_PER_PROCESS', 10),
    samples: envNumber('BENCH_SAMPLES', 100), leaseMs: envNumber('BENCH_LEASE_MS', 3_000),
  };
}

interface Instance {
  readonly child: ChildProcess;
  readonly url: string;
  readonly ws: Client;
  gql(query: string, variables?: Record<string, unknown>): Promise<any>;
  kill(): Promise<void>;
}

type Store = { env: Record<string, string>; close(): Promise<void> };

/** Where the instances keep their data: one fresh PostgreSQL schema, or one PGlite data directory (one instance). */
function store(): Store {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `b_${process.pid}_${randomBytes(4).toString('hex')}`;
    return {
      env: { DATABASE_URL: url, VANCE_DATABASE_SCHEMA: schema },
      async close() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'vance-bench-scale-'));
  return { env: { VANCE_DATA_DIR: dir }, close: async () => rmSync(dir, { recursive: true, force: true }) };
}

function startInstance(storeEnv: Record<string, string>, leaseMs: number): Promise<Instance> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH, ...storeEnv, VANCE_ADMIN_TOKEN: TOKEN, PORT: '0', LOG_LEVEL: 'info',
      VANCE_LANE_LEASE_MS: String(leaseMs), VANCE_CLIENT_TOOL_TIMEOUT_MS: '3600000',
      // A bench drives more than a person: the per-token budgets would cut it off.
      VANCE_RATE_MUTATIONS_PER_TOKEN: '10000000', VANCE_RATE_MUTATIONS_PER_TENANT: '10000000',
      VANCE_RATE_TURNS_PER_TOKEN: '10000000', VANCE_RATE_TURNS_PER_TENANT: '10000000',
      VANCE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '10000', VANCE_MAX_SUBSCRIPTIONS_PER_TOKEN: '10000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a bench instance did not start in 180 s')), 180_000);
    child.once('exit', (code) => reject(new Error(`a bench instance exited early with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { msg?: string; url?: string };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg !== 'Vance is listening') return;
      clearTimeout(timer);
      const url = entry.url!;
      const ws = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${TOKEN}` }, retryAttempts: 0, lazy: true });
      resolve({
        child, url, ws,
        async gql(query, variables = {}) {
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query, variables }) });
          const body = (await res.json()) as { data?: any; errors?: { message: string }[] };
          if (body.errors) throw new Error(`${query.slice(0, 60)}: ${body.errors[0]!.message}`);
          return body.data;
        },
        async kill() {
          child.removeAllListeners('exit');
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
          void ws.dispose();
        },
      });
    });
  });
}

const SPAWN = `mutation S($session: String) { spawnProcess(input: { project: "scale", recipe: "plain", session: $session }) { id session { id } } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!) { turnEvents(processId: $id) { type } }`;

/** Turns of independent processes, each a closed loop through the instances in turn; turns/s. */
async function throughput(instances: readonly Instance[], s: Settings): Promise<number> {
  const ids: string[] = [];
  for (let i = 0; i < s.processes; i++) ids.push((await instances[i % instances.length]!.gql(SPAWN)).spawnProcess.id as string);
  const started = performance.now();
  await Promise.all(ids.map(async (id, p) => {
    const on = instances[p % instances.length]!;
    const events = collect<{ turnEvents: { type: string } }>(on.ws, EVENTS, { id });
    for (let k = 0; k < s.turnsPerProcess; k++) {
      await instances[(p + k) % instances.length]!.gql(SEND, { id, text: `message ${k}` });
      while ((await events.next(120_000)).data!.turnEvents.type !== 'TurnFinished') { /* the next */ }
    }
    events.stop();
  }));
  return (s.processes * s.turnsPerProcess) / ((performance.now() - started) / 1000);
}

/** A process whose turn now waits on a client tool that nobody answers; resolves once the call is out. */
async function waitingProcess(on: Instance, session: string): Promise<string> {
  const spawned = (await on.gql(SPAWN, { session })).spawnProcess;
  const calls = collect<{ clientToolCalls: { callId: string } }>(on.ws, `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s: spawned.session.id });
  for (;;) {
    try {
      await on.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s: spawned.session.id });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 20)); // the subscription is not registered yet
    }
  }
  await on.gql(SEND, { id: spawned.id, text: 'call local_echo {"text": "wait"}' });
  await calls.next(60_000);
  return spawned.id as string;
}

async function sendLatencies(on: Instance, id: string, samples: number, afterEach: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await on.gql(SEND, { id, text: `sample ${i}` });
    times.push(performance.now() - t0);
    await afterEach();
  }
  return times;
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const print = report.print;
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  const where = store();
  const instances: Instance[] = [];
  try {
    instances.push(await startInstance(where.env, s.leaseMs));
    const first = instances[0]!;
    await first.gql(`mutation { createProject(name: "scale") { id } }`);
    await first.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    });

    print(`\n### Scale-out (${onPostgres ? 'PostgreSQL' : 'PGlite'}; ${s.processes} processes × ${s.turnsPerProcess} turns; offline provider)\n`);
    if (onPostgres) {
      print('| instances | turns/s | ÷ 1 instance |\n| ---: | ---: | ---: |');
      let one = 0;
      for (let n = 1; n <= s.instances; n++) {
        while (instances.length < n) instances.push(await startInstance(where.env, s.leaseMs));
        const rate = await throughput(instances, s);
        if (n === 1) one = rate;
        print(`| ${n} | ${rate.toFixed(1)} | ${report.ratio('Scale-out: turns/s ÷ 1 instance', `${n} instances`, rate / one).toFixed(2)} |`);
      }

      // Takeover: the last instance runs a waiting turn and dies; the others are up.
      const victim = instances.at(-1)!;
      const watcher = instances[0]!;
      const id = await waitingProcess(victim, 'doomed');
      const killedAt = performance.now();
      await victim.kill();
      instances.pop();
      let ms = 0;
      for (;;) {
        const turns = (await watcher.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).turns as { status: string }[];
        if (turns[0]?.status === 'INTERRUPTED') {
          ms = performance.now() - killedAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      print(`\n| takeover after kill -9 | ms | ÷ lease (${s.leaseMs} ms) |\n| --- | ---: | ---: |`);
      print(`| death → INTERRUPTED, seen from another instance | ${ms.toFixed(0)} | ${report.ratio('Takeover ÷ lease', 'death → INTERRUPTED', ms / s.leaseMs).toFixed(2)} |`);
    } else {
      print('(throughput over 1–3 instances and takeover need PostgreSQL: set TEST_DATABASE_URL)');
    }

    // sendMessage on an idle process (its turn finished before the next send) vs beside a waiting turn.
    const on = instances[0]!;
    const idle = (await on.gql(SPAWN)).spawnProcess.id as string;
    const idleEvents = collect<{ turnEvents: { type: string } }>(on.ws, EVENTS, { id: idle });
    const idleTimes = await sendLatencies(on, idle, s.samples, async () => {
      while ((await idleEvents.next(60_000)).data!.turnEvents.type !== 'TurnFinished') { /* the next */ }
    });
    idleEvents.stop();
    const busy = await waitingProcess(on, 'busy');
    const busyTimes = await sendLatencies(on, busy, s.samples, async () => undefined);
    const table = 'sendMessage: beside a waiting turn ÷ idle process';
    print(`\n| sendMessage (${s.samples} each) | p50 ms | p99 ms |\n| --- | ---: | ---: |`);
    print(`| idle process (baseline) | ${percentile(idleTimes, 50).toFixed(2)} | ${percentile(idleTimes, 99).toFixed(2)} |`);
    print(`| its turn waits on a client tool | ${percentile(busyTimes, 50).toFixed(2)} | ${percentile(busyTimes, 99).toFixed(2)} |`);
    print(`| ratio | ${report.ratio(table, 'p50', percentile(busyTimes, 50) / percentile(idleTimes, 50)).toFixed(2)} | ${report.ratio(table, 'p99', percentile(busyTimes, 99) / percentile(idleTimes, 99)).toFixed(2)} |`);
  } finally {
    await Promise.all(instances.map((i) => i.kill()));
    await where.close();
  }
  return report.rows;
}

runAsScript(__filename, runBench);
