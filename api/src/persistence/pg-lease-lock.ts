/**
 * The LaneLock port on PostgreSQL (DESIGN §7, issue 14): a lease per lane in `lane_leases` — owner,
 * expiry, fencing token — instead of a session advisory lock.
 *
 * - Taking a lease is one statement: insert it, or take over a row whose lease has expired. Tokens
 *   come from one sequence, so each holder's token is larger than every earlier one's.
 * - While the job runs, a heartbeat extends the expiry every `heartbeatMs` (a quarter of the lease).
 *   The lease lives in a row, not in a session: a terminated backend, a pool that reconnects, or a
 *   long wait on a model or a client tool loses nothing, and no connection is held while waiting.
 * - The job runs inside `laneFence` (lane-fence.ts): the turn's writes check the token, so an
 *   instance whose lease was taken over (it stalled past the expiry) can no longer write or publish.
 * - A lane held elsewhere is polled for, 5 ms doubling to `pollMaxMs`, one short statement each, no
 *   connection kept. Lanes of one process on one instance queue in memory first (ProcessLane).
 * - An instance that dies leaves its lease to expire; the turn runner's sweep then takes the lane
 *   over and runs the interrupted turn again (turn-runner.ts), without waiting for a restart.
 *
 * Why not a job engine (graphile-worker, pg-boss): see docs/scale-out.md.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { LaneLock, LaneTenure } from '../domain/processes/process-store';
import { localLaneLock } from '../domain/processes/process-lane';
import { isConnectionLoss } from './connection-loss';
import type { Database } from './data-source';
import { laneFence, type LaneFence } from './lane-fence';
import { queryPrepared } from './prepared';

export const DEFAULT_LEASE_MS = 10_000;

export interface PgLeaseLockOptions {
  /** How long a lease lasts without a heartbeat (default 10 s): the longest a dead instance's lanes stay blocked. */
  readonly leaseMs?: number;
  /** Heartbeat interval; default a quarter of the lease. */
  readonly heartbeatMs?: number;
  /** The longest pause between two attempts on a lane held elsewhere (default 250 ms). */
  readonly pollMaxMs?: number;
  /** This instance's name in `lane_leases.owner` (default a random UUID). */
  readonly owner?: string;
}

const TAKE = `INSERT INTO lane_leases (lane_key, owner, token, expires_at)
  VALUES ($1, $2, nextval('lane_lease_tokens'), clock_timestamp() + $3::int * interval '1 millisecond')
  ON CONFLICT (lane_key) DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
    WHERE lane_leases.expires_at < clock_timestamp()
  RETURNING token::text AS token, xmax <> 0 AS taken_over`;
// In a CTE: TypeORM answers a bare UPDATE with [rows, count], a SELECT with its rows.
const RENEW = `WITH up AS (UPDATE lane_leases SET expires_at = clock_timestamp() + $3::int * interval '1 millisecond'
  WHERE lane_key = $1 AND token = $2::bigint RETURNING token) SELECT token FROM up`;
const RELEASE = 'DELETE FROM lane_leases WHERE lane_key = $1 AND token = $2::bigint';

export class PgLeaseLock implements LaneLock {
  readonly owner: string;
  readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly pollMaxMs: number;
  /** Leases this lock lost to a takeover while their job ran (for tests and metrics). */
  lost = 0;

  constructor(private readonly dataSource: DataSource, options: PgLeaseLockOptions = {}) {
    this.owner = options.owner ?? randomUUID();
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(this.leaseMs / 4));
    this.pollMaxMs = options.pollMaxMs ?? 250;
  }

  async hold<T>(key: string, job: (tenure: LaneTenure) => Promise<T>): Promise<T> {
    const { token, takenOver } = await this.take(key);
    const fence: LaneFence = { key, token };
    const beat = setInterval(() => void this.renew(fence), this.heartbeatMs);
    beat.unref();
    try {
      return await laneFence.run(fence, () => job({ takenOver }));
    } finally {
      clearInterval(beat);
      // A release that fails leaves a lease that expires by itself.
      await this.query(RELEASE, [key, fence.token]).catch(() => undefined);
    }
  }

  /**
   * The lease of `key`, waiting while another holder's is valid. Taken over when an expired row was
   * there (xmax of an ON CONFLICT update is set; a fresh insert's is 0).
   */
  private async take(key: string): Promise<{ token: string; takenOver: boolean }> {
    for (let pause = 5; ; pause = Math.min(pause * 2, this.pollMaxMs)) {
      const rows: { token: string; taken_over: boolean }[] = await this.query(TAKE, [key, this.owner, this.leaseMs]);
      if (rows[0]) return { token: rows[0].token, takenOver: rows[0].taken_over };
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  private async renew(fence: LaneFence): Promise<void> {
    try {
      const rows: unknown[] = await this.query(RENEW, [fence.key, fence.token, this.leaseMs]);
      if (rows.length === 0) this.lost++;
    } catch {
      // The next beat tries again; the lease is good until it expires.
    }
  }

  /** One statement (prepared: every turn takes and releases a lease); a connection that died since its last use gets one more try on a fresh one. */
  private async query<R>(sql: string, parameters: unknown[]): Promise<R> {
    try {
      return await queryPrepared<R>(this.dataSource, sql, parameters);
    } catch (err) {
      if (!isConnectionLoss(err)) throw err;
      return queryPrepared<R>(this.dataSource, sql, parameters);
    }
  }
}

/** The lane lock for this database: a lease on PostgreSQL, the local FIFO on PGlite. */
export function laneLockFor(database: Database, options?: PgLeaseLockOptions): LaneLock {
  return database.driver === 'postgres' ? new PgLeaseLock(database.dataSource, options) : localLaneLock;
}
