/**
 * One worker process of test/bench/job-engines.ts (started by it, never by hand): runs the bench's
 * job under one candidate and reports each job's start and end to the parent over IPC, so that a
 * `kill -9` of this process is a real death.
 *
 * - `lease`: today's lane — the production ProcessLane over PgLeaseLock (a lease row per key, its
 *   heartbeat and fencing token). The parent hands a job to an instance (in turn, as requests reach
 *   instances); the job's writes carry the fence, as a turn's do (lane-fence.ts).
 * - `graphile-worker`: a named queue per key (`queue_name`), `concurrency` jobs at once.
 * - `pg-boss`: one queue of policy `singleton`, `singletonKey` = the key (one active job per key),
 *   `concurrency` work() loops at once (v10 has no teamSize).
 *
 * Environment (set by the parent): JE_ENGINE, JE_URL, JE_WORK_SCHEMA, JE_ENGINE_SCHEMA, JE_WORKER,
 * JE_CONCURRENCY, JE_LEASE_MS.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { Logger, run as runGraphile, type Runner } from 'graphile-worker';
import PgBoss from 'pg-boss';
import { ProcessLane } from '../../api/src/domain/processes/process-lane';
import { fenceHolds, fenceTokenFor } from '../../api/src/persistence/lane-fence';
import { PgLeaseLock } from '../../api/src/persistence/pg-lease-lock';
import { isMain } from './harness';

export type Engine = 'lease' | 'graphile-worker' | 'pg-boss';

/** What a job is told: its key, its number in the key's sequence, how long to wait inside, when it was enqueued. */
export interface JobPayload {
  readonly key: string;
  readonly job: number;
  readonly waitMs: number;
  readonly enqueuedAt: number;
  /** Report the start too (the takeover and slow-holder cases watch for it). */
  readonly announce?: boolean;
}

/** Worker → parent. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'start'; readonly key: string; readonly job: number; readonly worker: string; readonly at: number }
  | { readonly type: 'end'; readonly key: string; readonly job: number; readonly worker: string; readonly start: number; readonly end: number }
  | { readonly type: 'error'; readonly message: string };

/** Parent → worker (the lease candidate only: the engines take their jobs from their tables). */
export type ParentMessage = { readonly type: 'run'; readonly payload: JobPayload } | { readonly type: 'stop' };

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes on one machine. */
export const now = (): number => performance.timeOrigin + performance.now();

/** The tables the job writes, in the work schema (created by the parent). */
export const WORK_DDL = [
  'CREATE TABLE counters (key text PRIMARY KEY, started integer NOT NULL DEFAULT 0, finished integer NOT NULL DEFAULT 0)',
  'CREATE TABLE events (id bigserial PRIMARY KEY, key text NOT NULL, job integer NOT NULL, worker text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())',
];

function send(message: WorkerMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const engine = process.env.JE_ENGINE as Engine;
  const url = process.env.JE_URL!;
  const workSchema = process.env.JE_WORK_SCHEMA!;
  const engineSchema = process.env.JE_ENGINE_SCHEMA!;
  const worker = process.env.JE_WORKER!;
  const concurrency = Number(process.env.JE_CONCURRENCY);
  const leaseMs = Number(process.env.JE_LEASE_MS);

  // The job's own statements go through a TypeORM pool of 10, as Vance's do, for every candidate.
  const db = new DataSource({ type: 'postgres', url, poolSize: 10, applicationName: `je-${worker}`, extra: { options: `-c search_path=${workSchema}` } });
  await db.initialize();

  /**
   * The job: the bookkeeping of a turn in three short statements (take the input, record an event,
   * finish), with a wait in between. Under the lease each statement carries the fence, as a turn's
   * writes do; the engines have no fence to carry.
   */
  async function job(p: JobPayload): Promise<void> {
    const start = now();
    if (p.announce) send({ type: 'start', key: p.key, job: p.job, worker, at: start });
    const token = fenceTokenFor(p.key);
    // Under a lease, each statement also checks that the lease row still carries the token (FOR SHARE).
    const fenced = (sql: string, params: unknown[]) =>
      token === null ? db.query(sql.replace('{fence}', ''), params)
        : db.query(sql.replace('{fence}', ` AND ${fenceHolds('$1::text', `$${params.length + 1}`)}`), [...params, token]);
    await fenced('UPDATE counters SET started = started + 1 WHERE key = $1{fence}', [p.key]);
    await fenced('INSERT INTO events (key, job, worker) SELECT $1, $2, $3 WHERE true{fence}', [p.key, p.job, worker]);
    if (p.waitMs > 0) await new Promise((r) => setTimeout(r, p.waitMs));
    await fenced('UPDATE counters SET finished = finished + 1 WHERE key = $1{fence}', [p.key]);
    send({ type: 'end', key: p.key, job: p.job, worker, start, end: now() });
  }

  const fail = (err: unknown) => send({ type: 'error', message: err instanceof Error ? err.message : String(err) });

  if (engine === 'lease') {
    const lane = new ProcessLane(new PgLeaseLock(db, { leaseMs, owner: worker }));
    process.on('message', (m: ParentMessage) => {
      if (m.type === 'run') lane.run(m.payload.key, () => job(m.payload)).catch(fail);
    });
  } else if (engine === 'graphile-worker') {
    const runner: Runner = await runGraphile({
      connectionString: url, schema: engineSchema, concurrency, noHandleSignals: true,
      logger: new Logger(() => () => undefined),
      taskList: { job: async (payload) => job(payload as JobPayload) },
    });
    runner.events.on('job:error', ({ error }) => fail(error));
  } else {
    const boss = new PgBoss({ connectionString: url, schema: engineSchema, max: 10, migrate: false, schedule: false, maintenanceIntervalSeconds: 1 });
    boss.on('error', fail);
    await boss.start();
    for (let i = 0; i < concurrency; i++) {
      await boss.work<JobPayload>('jobs', { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([j]) => job(j!.data));
    }
  }
  process.on('message', (m: ParentMessage) => {
    if (m.type === 'stop') process.exit(0);
  });
  send({ type: 'ready' });
}

// Imported by job-engines.ts for its types and helpers: run only when started as the worker.
if (isMain(__filename)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
