/**
 * The LaneLock port (DESIGN §7): while a lane job runs, its instance holds a PostgreSQL session
 * advisory lock on the process, so the lanes of several instances on one database serialise and a
 * turn runs exactly once. The embedded PGlite serves one instance (its data directory is locked),
 * where the domain's local FIFO is all the serialisation needed: `laneLockFor` picks.
 *
 * Each acquire checks out a dedicated connection from the DataSource's pool and keeps it until
 * release: a session lock lives as long as its session, and pg_advisory_lock blocks the
 * connection while it waits. Those connections are idle for the job itself, which queries through
 * the pool like everything else, so lanes holding every pooled connection would starve their own
 * jobs (a deadlock of the whole instance). A local semaphore therefore caps the connections lanes
 * may hold at poolSize − 2 (at least 1); further lanes wait in memory, without a connection.
 *
 * Key: (LANE_LOCK_NAMESPACE, hashtext(processId)), computed by the server so every instance agrees.
 * Distinct processes may share the 32-bit hash; they then merely serialise with each other.
 */
import type pg from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { localLaneLock } from '../domain/processes/process-lane';
import type { LaneLock } from '../domain/processes/process-store';
import type { Database } from './data-source';

/** The first key of every lane lock ('vln'); the migrations use 0x76616e ('van'). */
export const LANE_LOCK_NAMESPACE = 0x766c6e;

/** TypeORM's default pool size for PostgreSQL, and data-source.ts's. */
const DEFAULT_POOL_SIZE = 10;

export interface PgLaneLockOptions {
  /** How many lanes may hold (or wait for) a lock connection at once; default poolSize − 2, ≥ 1. */
  readonly maxConnections?: number;
}

export class PgLaneLock implements LaneLock {
  private readonly slots: Semaphore;

  constructor(
    private readonly dataSource: DataSource,
    options: PgLaneLockOptions = {},
  ) {
    const poolSize = (dataSource.options as { poolSize?: number }).poolSize ?? DEFAULT_POOL_SIZE;
    const max = options.maxConnections ?? poolSize - 2;
    this.slots = new Semaphore(Math.max(1, Math.floor(max)));
  }

  /** Lane jobs waiting for a lock connection (in memory; for tests and metrics). */
  get waitingCount(): number {
    return this.slots.waitingCount;
  }

  /**
   * Resolves once this instance holds the process's lock. The returned release unlocks it and gives
   * the connection back; it is idempotent and never rejects (see `unlock`).
   */
  async acquire(key: string): Promise<() => Promise<void>> {
    const freeSlot = await this.slots.take();
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      await runner.query('SELECT pg_advisory_lock($1, hashtext($2))', [LANE_LOCK_NAMESPACE, key]);
    } catch (err) {
      // The lock may or may not have been granted (e.g. a lost connection): discard the connection.
      await discard(runner);
      freeSlot();
      throw err;
    }
    let released: Promise<void> | undefined;
    return () => (released ??= unlock(runner, key).finally(freeSlot));
  }
}

/** The lane lock for this database: an advisory lock on PostgreSQL, the local FIFO on PGlite. */
export function laneLockFor(database: Database, options?: PgLaneLockOptions): LaneLock {
  return database.driver === 'postgres' ? new PgLaneLock(database.dataSource, options) : localLaneLock;
}

/**
 * Unlocks and gives the connection back. If the unlock fails, the connection might still hold the
 * lock, so it is closed instead of pooled; a closed session holds no locks, so the lock is gone
 * either way and the release reports success (a rejecting release would replace the job's result).
 */
async function unlock(runner: QueryRunner, key: string): Promise<void> {
  try {
    await runner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LANE_LOCK_NAMESPACE, key]);
  } catch {
    await discard(runner);
    return;
  }
  await runner.release();
}

/** Closes the runner's connection and releases it: the pool drops a client that is ending. */
async function discard(runner: QueryRunner): Promise<void> {
  if (runner.isReleased) return;
  try {
    const client = (await runner.connect()) as pg.PoolClient;
    void client.end().catch(() => undefined);
  } catch {
    // connect() failed: there is no connection to close.
  }
  await runner.release();
}

/** A FIFO counting semaphore. */
class Semaphore {
  private available: number;
  private readonly queue: Array<() => void> = [];

  constructor(size: number) {
    this.available = size;
  }

  get waitingCount(): number {
    return this.queue.length;
  }

  /** Resolves with a release function (idempotent) once a slot is free. */
  async take(): Promise<() => void> {
    if (this.available > 0) this.available -= 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const next = this.queue.shift();
      if (next) next(); // the slot passes straight to the next waiter
      else this.available += 1;
    };
  }
}
