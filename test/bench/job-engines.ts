/**
 * Job engines against today's lane (issue 14 item 1, docs/scale-out.md "Why a lease of our own, not a
 * job engine"): the same workload under three candidates, each in worker processes of its own
 * (test/bench/job-engines-worker.ts), on PostgreSQL (TEST_DATABASE_URL):
 *
 *   (a) lease: the production ProcessLane over PgLeaseLock (lease row, heartbeat, fencing token);
 *   (b) graphile-worker: a named queue (`queue_name`) per key;
 *   (c) pg-boss: one queue of policy `singleton` with `singletonKey` = the key.
 *
 *   node --no-node-snapshot --import tsx test/bench/job-engines.ts        (BENCH_TINY=1 for the test's sizes)
 *
 * Workload: K independent keys (processes), each a closed loop of N jobs with `depth` of them
 * enqueued at once, so the candidate itself must run a key's jobs one at a time. A job is a turn's
 * bookkeeping in three short statements plus a short wait (BENCH_JOB_WAIT_MS). Measured:
 *
 * 1. jobs/s with 1, 2 and 3 worker processes ÷ the lease lane with 1 worker in the same run; every
 *    job reports its start and end, and two jobs of one key that overlap in time are counted (must
 *    be 0); dispatch latency = start − max(enqueued, the key's previous job ended), p50 and p99.
 * 2. Slow holder: a job lasting 2 × the lease on a live worker, with the key's next job waiting:
 *    does any other run of that key start meanwhile (overlaps)?
 * 3. Takeover: `kill -9` of the worker running a long job of key k while k's next job waits; the
 *    time until a job of k starts on a surviving worker, capped (BENCH_TAKEOVER_CAP_S).
 *
 * The lease lane gets its jobs from the parent, handed to the workers in turn (a request reaches
 * whichever instance, as in production); the engines get theirs from their tables. The engines are
 * configured for their fastest takeover: pg-boss's expiry = the lease, maintenance every second,
 * polling every 0.5 s (its minimum). Numbers are printed, never asserted (DESIGN §9); every run
 * works in schemas `je_<pid>_<random>_*` of its own and drops them at the end.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { Logger, makeWorkerUtils, runMigrations, type WorkerUtils } from 'graphile-worker';
import PgBoss from 'pg-boss';
import { LaneLeases1765000000000 } from '../../migrations/1765000000000-LaneLeases';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';
import { now, WORK_DDL, type Engine, type JobPayload, type ParentMessage, type WorkerMessage } from './job-engines-worker';

const WORKER = path.join(__dirname, 'job-engines-worker.ts');
const ENGINES: readonly Engine[] = ['lease', 'graphile-worker', 'pg-boss'];
const SHORT: Record<Engine, string> = { lease: 'l', 'graphile-worker': 'g', 'pg-boss': 'b' };
const silent = new Logger(() => () => undefined);

interface Settings {
  readonly engines: readonly Engine[];
  readonly keys: number;
  readonly jobsPerKey: number;
  readonly depth: number;
  readonly waitMs: number;
  readonly maxWorkers: number;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly phaseCapMs: number;
  readonly takeoverCapMs: number;
  /** The slow-holder and takeover cases (tiny: the lease lane only, with a 1 s lease). */
  readonly faults: readonly Engine[];
}

function settings(tiny: boolean): Settings {
  if (tiny) {
    return {
      engines: ['lease'], keys: 3, jobsPerKey: 4, depth: 2, waitMs: 2, maxWorkers: 2, concurrency: 3, leaseMs: 1_000,
      phaseCapMs: 30_000, takeoverCapMs: 10_000, faults: ['lease'],
    };
  }
  const keys = envNumber('BENCH_KEYS', 24);
  const engines = (process.env.BENCH_ENGINES ?? ENGINES.join(',')).split(',').map((e) => e.trim()) as Engine[];
  for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`BENCH_ENGINES: unknown engine '${e}' (${ENGINES.join(', ')})`);
  return {
    engines, keys, jobsPerKey: envNumber('BENCH_JOBS_PER_KEY', 10), depth: envNumber('BENCH_DEPTH', 2),
    waitMs: Number(process.env.BENCH_JOB_WAIT_MS ?? 5), maxWorkers: envNumber('BENCH_WORKERS', 3),
    concurrency: envNumber('BENCH_CONCURRENCY', keys), leaseMs: envNumber('BENCH_LEASE_MS', 3_000),
    phaseCapMs: envNumber('BENCH_PHASE_CAP_S', 40) * 1000, takeoverCapMs: envNumber('BENCH_TAKEOVER_CAP_S', 60) * 1000,
    faults: engines,
  };
}

interface Run {
  readonly key: string;
  readonly job: number;
  readonly worker: string;
  readonly start: number;
  readonly end: number;
}

interface Worker {
  readonly id: string;
  readonly child: ChildProcess;
  send(message: ParentMessage): void;
  kill(): Promise<void>;
}

/** One candidate's schemas and enqueue path for one phase. */
interface Setup {
  readonly workSchema: string;
  readonly engineSchema: string;
  enqueue(payload: JobPayload, workers: readonly Worker[]): Promise<void>;
  close(): Promise<void>;
}

class Bench {
  private readonly schemas: string[] = [];
  private readonly runId = `je_${process.pid}_${randomBytes(3).toString('hex')}`;

  constructor(readonly url: string, readonly s: Settings) {}

  private async sql(statements: readonly string[]): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  }

  /** Fresh schemas for one phase of one candidate: the job's tables, and the engine's own. */
  async setup(engine: Engine, phase: string, keys: readonly string[]): Promise<Setup> {
    const base = `${this.runId}_${SHORT[engine]}${phase}`;
    const workSchema = `${base}_w`;
    const engineSchema = engine === 'lease' ? workSchema : `${base}_e`;
    this.schemas.push(workSchema);
    if (engineSchema !== workSchema) this.schemas.push(engineSchema);
    await this.sql([`CREATE SCHEMA "${workSchema}"`, ...WORK_DDL.map((d) => d.replace('CREATE TABLE ', `CREATE TABLE "${workSchema}".`)),
      `INSERT INTO "${workSchema}".counters (key) VALUES ${keys.map((k) => `('${k}')`).join(', ')}`]);
    if (engine === 'lease') {
      // The production migration, so the lease table is the one Vance runs on.
      const ds = new DataSource({ type: 'postgres', url: this.url, extra: { options: `-c search_path=${workSchema}` } });
      await ds.initialize();
      const runner = ds.createQueryRunner();
      try {
        await new LaneLeases1765000000000().up(runner);
      } finally {
        await runner.release();
        await ds.destroy();
      }
      return {
        workSchema, engineSchema,
        async enqueue(payload, workers) {
          // In turn over the live instances, as requests reach whichever instance.
          const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
          live[(Number(payload.key.split('-').at(-1)) + payload.job) % live.length]!.send({ type: 'run', payload });
        },
        close: async () => undefined,
      };
    }
    if (engine === 'graphile-worker') {
      await runMigrations({ connectionString: this.url, schema: engineSchema, logger: silent });
      const utils: WorkerUtils = await makeWorkerUtils({ connectionString: this.url, schema: engineSchema, logger: silent });
      return {
        workSchema, engineSchema,
        async enqueue(payload) {
          await utils.addJob('job', payload, { queueName: payload.key });
        },
        close: async () => {
          await utils.release();
        },
      };
    }
    const boss = new PgBoss({ connectionString: this.url, schema: engineSchema, supervise: false, schedule: false, max: 10 });
    boss.on('error', (err) => console.error('pg-boss (enqueue side):', err));
    await boss.start();
    await boss.createQueue('jobs', { name: 'jobs', policy: 'singleton', expireInSeconds: Math.max(1, Math.round(this.s.leaseMs / 1000)), retryLimit: 3, retryDelay: 0 });
    return {
      workSchema, engineSchema,
      async enqueue(payload) {
        await boss.send('jobs', payload, { singletonKey: payload.key });
      },
      close: () => boss.stop({ graceful: false, wait: true }),
    };
  }

  async startWorkers(engine: Engine, setup: Setup, count: number, onMessage: (m: WorkerMessage) => void): Promise<Worker[]> {
    return Promise.all(Array.from({ length: count }, (_, i) => new Promise<Worker>((resolve, reject) => {
      const id = `w${i}-${randomBytes(2).toString('hex')}`;
      const child = fork(WORKER, [], {
        execArgv: ['--no-node-snapshot', '--import', 'tsx'],
        env: {
          PATH: process.env.PATH, JE_ENGINE: engine, JE_URL: this.url, JE_WORK_SCHEMA: setup.workSchema, JE_ENGINE_SCHEMA: setup.engineSchema,
          JE_WORKER: id, JE_CONCURRENCY: String(this.s.concurrency), JE_LEASE_MS: String(this.s.leaseMs),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const timer = setTimeout(() => reject(new Error(`a ${engine} worker did not start in 120 s`)), 120_000);
      child.once('exit', (code) => reject(new Error(`a ${engine} worker exited early with ${code}`)));
      child.on('message', (m: WorkerMessage) => {
        if (m.type !== 'ready') return onMessage(m);
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({
          id, child,
          send: (message) => child.send(message),
          async kill() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            const exited = new Promise((r) => child.once('exit', r));
            child.kill('SIGKILL');
            await exited;
          },
        });
      });
    })));
  }

  async dropAll(): Promise<void> {
    await this.sql(this.schemas.map((s) => `DROP SCHEMA IF EXISTS "${s}" CASCADE`));
  }
}

/** Pairs of runs of one key that overlap in time (counted once per run that starts before an earlier one ended). */
function overlaps(runs: readonly Run[]): number {
  const byKey = new Map<string, Run[]>();
  for (const r of runs) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  let count = 0;
  for (const list of byKey.values()) {
    list.sort((a, b) => a.start - b.start);
    let end = -Infinity;
    for (const r of list) {
      if (r.start < end) count++;
      end = Math.max(end, r.end);
    }
  }
  return count;
}

/** start − max(enqueued, the key's previous run ended): how long a job that could run waited for its engine. */
function dispatchLatencies(runs: readonly Run[], enqueued: ReadonlyMap<string, number>): number[] {
  const byKey = new Map<string, Run[]>();
  for (const r of runs) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const out: number[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.start - b.start);
    let previousEnd = -Infinity;
    for (const r of list) {
      out.push(Math.max(0, r.start - Math.max(enqueued.get(`${r.key}#${r.job}`)!, previousEnd)));
      previousEnd = r.end;
    }
  }
  return out;
}

interface Throughput {
  readonly rate: number;
  readonly done: number;
  readonly capped: boolean;
  readonly overlaps: number;
  readonly errors: string[];
  readonly p50: number;
  readonly p99: number;
}

async function throughput(bench: Bench, engine: Engine, workerCount: number): Promise<Throughput> {
  const s = bench.s;
  const keys = Array.from({ length: s.keys }, (_, i) => `k-${i}`);
  const setup = await bench.setup(engine, String(workerCount), keys);
  const runs: Run[] = [];
  const errors: string[] = [];
  const enqueued = new Map<string, number>();
  const next = new Map(keys.map((k) => [k, 0]));
  const total = s.keys * s.jobsPerKey;
  let workers: Worker[] = [];
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  const enqueue = (key: string): void => {
    const job = next.get(key)!;
    if (job >= s.jobsPerKey) return;
    next.set(key, job + 1);
    const enqueuedAt = now();
    enqueued.set(`${key}#${job}`, enqueuedAt);
    setup.enqueue({ key, job, waitMs: s.waitMs, enqueuedAt }, workers).catch((err: unknown) => errors.push(String(err)));
  };
  try {
    workers = await bench.startWorkers(engine, setup, workerCount, (m) => {
      if (m.type === 'error') errors.push(m.message);
      if (m.type !== 'end') return;
      runs.push({ key: m.key, job: m.job, worker: m.worker, start: m.start, end: m.end });
      if (runs.length === total) finished();
      else enqueue(m.key);
    });
    const started = now();
    for (let d = 0; d < s.depth; d++) for (const k of keys) enqueue(k);
    let timer: NodeJS.Timeout | undefined;
    const capped = await Promise.race([allDone.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), s.phaseCapMs)))]);
    clearTimeout(timer);
    const elapsed = (capped ? s.phaseCapMs : Math.max(...runs.map((r) => r.end)) - started) / 1000;
    const done = runs.length;
    const latencies = dispatchLatencies(runs, enqueued);
    return { rate: done / elapsed, done, capped, overlaps: overlaps(runs), errors, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
    await setup.close();
  }
}

interface Faults {
  /** Runs of the slow key that started while another of its runs was going on. */
  readonly slowOverlaps: number;
  /** How often the slow job itself started (1 = once). */
  readonly slowStarts: number;
  /** ms from kill -9 to a job of the victim's key starting on a survivor; null past the cap. */
  readonly takeoverMs: number | null;
}

async function faults(bench: Bench, engine: Engine): Promise<Faults> {
  const s = bench.s;
  const setup = await bench.setup(engine, 'f', ['slow-0', 'victim-0']);
  const runs: Run[] = [];
  const starts: { key: string; job: number; worker: string; at: number }[] = [];
  const waiters: (() => void)[] = [];
  const changed = () => waiters.splice(0).forEach((w) => w());
  const until = async (condition: () => boolean, capMs: number): Promise<boolean> => {
    const deadline = now() + capMs;
    while (!condition()) {
      const left = deadline - now();
      if (left <= 0) return false;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, Math.min(left, 1_000));
        waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
    return true;
  };
  let workers: Worker[] = [];
  try {
    workers = await bench.startWorkers(engine, setup, 2, (m) => {
      if (m.type === 'start') starts.push(m);
      if (m.type === 'end') runs.push(m);
      changed();
    });
    const [a, b] = workers as [Worker, Worker];
    // The lease lane hands jobs to instances in turn ((key number + job) % 2); the keys here have none, so pick the instance explicitly.
    const on = (w: Worker): readonly Worker[] => (engine === 'lease' ? [w] : workers);
    const job = (key: string, n: number, waitMs: number): JobPayload => ({ key, job: n, waitMs, enqueuedAt: now(), announce: true });

    // 2. Slow holder: a job of 2 × the lease on a live worker, the key's next job waiting on the other.
    await setup.enqueue(job('slow-0', 0, 2 * s.leaseMs), on(a));
    await until(() => starts.some((x) => x.key === 'slow-0'), 30_000);
    await setup.enqueue(job('slow-0', 1, 0), on(b));
    await until(() => runs.filter((r) => r.key === 'slow-0').length >= 2, 2 * s.leaseMs + 15_000);
    const slowRuns = starts.filter((x) => x.key === 'slow-0');
    // A run that has not ended yet counts as running until now.
    const asRuns: Run[] = slowRuns.map((x) => ({ ...x, start: x.at, end: runs.find((r) => r.key === x.key && r.job === x.job && r.start === x.at)?.end ?? now() }));
    const slowOverlaps = overlaps(asRuns);
    const slowStarts = slowRuns.filter((x) => x.job === 0).length;

    // 3. Takeover: the worker running the victim's long job dies; the victim's next job waits.
    await setup.enqueue(job('victim-0', 0, 600_000), on(a));
    if (!(await until(() => starts.some((x) => x.key === 'victim-0'), 30_000))) throw new Error(`${engine}: the victim's job did not start`);
    const holder = workers.find((w) => w.id === starts.find((x) => x.key === 'victim-0')!.worker)!;
    const survivor = holder === a ? b : a;
    await setup.enqueue(job('victim-0', 1, 0), on(survivor));
    await new Promise((r) => setTimeout(r, 200)); // the next job is in place (or, for the lease, polling)
    const killedAt = now();
    await holder.kill();
    const taken = await until(() => starts.some((x) => x.key === 'victim-0' && x.worker === survivor.id && x.at > killedAt), s.takeoverCapMs);
    const at = starts.find((x) => x.key === 'victim-0' && x.worker === survivor.id && x.at > killedAt)?.at;
    return { slowOverlaps, slowStarts, takeoverMs: taken && at !== undefined ? at - killedAt : null };
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
    await setup.close();
  }
}

/** Why a candidate does not take a dead worker's job over within the cap (their documented behaviour). */
const NO_TAKEOVER: Record<Engine, string> = {
  lease: 'the lease expired but was not taken (a bug)',
  'graphile-worker': 'a dead worker\'s job and named queue stay locked until locked_at is 4 hours old (resetLockedAt), or until someone calls forceUnlockWorkers with its id',
  'pg-boss': 'an active job of a dead worker waits for its expireInSeconds and the next maintenance',
};

export interface JobEnginesResult {
  readonly rows: readonly RatioRow[];
  /** Overlapping runs of one key per candidate, over all its throughput phases and the slow holder (must be 0). */
  readonly overlaps: Partial<Record<Engine, number>>;
}

export async function runJobEngines(options: BenchOptions = {}): Promise<JobEnginesResult> {
  const s = settings(options.tiny ?? false);
  const report = new BenchReport(options.print, options.summary);
  const print = report.print;
  const url = process.env.TEST_DATABASE_URL;
  const total: Partial<Record<Engine, number>> = {};
  if (!url) {
    print('\n### Job engines\n\n(needs PostgreSQL: set TEST_DATABASE_URL)');
    return { rows: report.rows, overlaps: total };
  }
  const bench = new Bench(url, s);
  try {
    print(`\n### Job engines vs the lease lane (${s.keys} keys × ${s.jobsPerKey} jobs, ${s.depth} queued per key, job = 3 statements + ${s.waitMs} ms wait; ${s.concurrency} jobs at once per worker; lease ${s.leaseMs} ms)\n`);
    print('| candidate | workers | jobs/s | ÷ lease lane, 1 worker | ÷ same, 1 worker | overlaps | dispatch p50 ms | dispatch p99 ms | done |');
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    let baseline = 0;
    for (const engine of s.engines) {
      let one = 0;
      for (let w = 1; w <= s.maxWorkers; w++) {
        const t = await throughput(bench, engine, w);
        if (engine === s.engines[0] && w === 1) baseline = t.rate;
        if (w === 1) one = t.rate;
        total[engine] = (total[engine] ?? 0) + t.overlaps;
        const vsLease = t.rate > 0 ? report.ratio(`Job engines: jobs/s ÷ ${s.engines[0]}, 1 worker`, `${engine}, ${w} workers`, t.rate / baseline).toFixed(2) : '0';
        const vsOne = t.rate > 0 ? report.ratio('Job engines: jobs/s ÷ same candidate, 1 worker', `${engine}, ${w} workers`, t.rate / one).toFixed(2) : '0';
        print(`| ${engine} | ${w} | ${t.rate.toFixed(1)} | ${vsLease} | ${vsOne} | ${t.overlaps} | ${t.p50.toFixed(1)} | ${t.p99.toFixed(1)} | ${t.done}/${s.keys * s.jobsPerKey}${t.capped ? ` (cap ${s.phaseCapMs / 1000} s)` : ''} |`);
        if (t.errors.length > 0) print(`|  | ${t.errors.length} job errors: ${t.errors[0]!.slice(0, 120)} | | | | | | | |`);
      }
    }

    if (s.faults.length > 0) {
      print(`\n| candidate (2 workers) | slow holder: runs of its key started meanwhile | slow job started | kill -9 → the key's job runs on the survivor | ÷ lease (${s.leaseMs} ms) |`);
      print('| --- | ---: | ---: | ---: | ---: |');
      for (const engine of s.faults) {
        const f = await faults(bench, engine);
        total[engine] = (total[engine] ?? 0) + f.slowOverlaps;
        const ms = f.takeoverMs === null ? `> ${s.takeoverCapMs / 1000} s (${NO_TAKEOVER[engine]})` : f.takeoverMs.toFixed(0);
        const ratio = f.takeoverMs === null ? '—' : report.ratio('Job engines: takeover ÷ lease', engine, f.takeoverMs / s.leaseMs).toFixed(2);
        print(`| ${engine} | ${f.slowOverlaps} | ${f.slowStarts}× | ${ms} | ${ratio} |`);
      }
    }
  } finally {
    await bench.dropAll();
  }
  return { rows: report.rows, overlaps: total };
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  return (await runJobEngines(options)).rows;
}

runAsScript(__filename, runBench);
