import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, TypeOrmIdentityStore, type Database } from '../../api/src/persistence';
import type { PglitePool } from '../../api/src/persistence/pglite-pool';
import { pgliteTemplate } from '../support/pglite-template';

// The two typeorm-pglite bugs (STACK.md §4) and the pg compatibility our adapter promises.
describe('PGlite pool adapter', () => {
  let db: Database;
  let pool: PglitePool;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    db = await openDatabase({ loadDataDir: await pgliteTemplate() });
    // TypeORM keeps the pool it created from our driver as `master`.
    pool = (db.dataSource.driver as unknown as { master: PglitePool }).master;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await db?.close();
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('isolates transactions: a rollback next to a commit leaves none of its rows', async () => {
    const ds = db.dataSource;
    const failing = ds.transaction(async (em) => {
      await em.query(`INSERT INTO tenants (name) VALUES ('rolled-back')`);
      await sleep(100);
      throw new Error('boom');
    });
    const committing = ds.transaction(async (em) => {
      await em.query(`INSERT INTO tenants (name) VALUES ('committed')`);
    });
    await expect(failing).rejects.toThrow('boom');
    await committing;
    const names = (await ds.query('SELECT name FROM tenants ORDER BY name')).map((r: { name: string }) => r.name);
    expect(names).toContain('committed');
    expect(names).not.toContain('rolled-back');
  });

  // Load: the other query is seen queued (waitingCount), not inferred from a 50 ms sleep.
  it('keeps a checked-out client exclusive until release', async () => {
    const client = await pool.connect();
    let otherDone = false;
    const other = (pool.query('SELECT 1 AS one') as Promise<pg.QueryResult>).then((r) => {
      otherDone = true;
      return r;
    });
    while (pool.waitingCount === 0) await new Promise((r) => setImmediate(r));
    expect(otherDone).toBe(false);
    expect(pool.idleCount).toBe(0);
    expect(pool.waitingCount).toBe(1);
    client.release?.();
    expect((await other).rows).toEqual([{ one: 1 }]);
    expect(pool.idleCount).toBe(1);
  });

  it('hands callback-style errors to the callback only (no unhandled rejection)', async () => {
    const viaPool = await new Promise<Error | null>((resolve) => pool.query('SELECT * FROM no_such_table', [], (err: Error | null) => resolve(err)));
    expect(viaPool).toMatchObject({ code: '42P01' });
    const viaClient = await new Promise<Error | null>((resolve) => {
      pool.connect((err, client, release) => {
        expect(err).toBeUndefined();
        client!.query('SELECT nope FROM', (qerr: Error | null) => {
          release!();
          resolve(qerr);
        });
      });
    });
    expect(viaClient).toMatchObject({ code: '42601' });
    // The same through TypeORM's CREATE EXTENSION path (callback style) must not crash either.
    await expect(db.dataSource.query('CREATE EXTENSION IF NOT EXISTS "no_such_extension"')).rejects.toThrow();
    // Load-proof: Node reports an unhandled rejection at the end of the tick it happened in, so one
    // turn of the event loop is enough however slow the machine is (no timed sleep).
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    expect((await db.dataSource.query('SELECT 2 AS two'))[0]).toEqual({ two: 2 });
  });

  it('rolls back a transaction left open by a released client', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query(`INSERT INTO tenants (name) VALUES ('left-open')`);
    client.release?.();
    const rows = await db.dataSource.query(`SELECT 1 FROM tenants WHERE name = 'left-open'`);
    expect(rows).toEqual([]);
  });

  it('returns results like pg: int8 and count as strings, errors with code and constraint', async () => {
    const [row] = await db.dataSource.query('SELECT count(*) AS n, 7::int8 AS big, 7::int4 AS small, 1.5::numeric AS num, now() AS at');
    expect(row).toEqual({ n: expect.any(String), big: '7', small: 7, num: '1.5', at: expect.any(Date) });
    const error = await db.dataSource.query(`INSERT INTO tenants (name) VALUES ('committed')`).catch((e: unknown) => e);
    expect(error).toMatchObject({ driverError: { code: '23505', constraint: 'uq_tenants_name' } });
    // Multi-statement text without parameters goes through the simple protocol, like pg.
    const multi = (await pool.query('SELECT 1 AS a; SELECT 2 AS b')) as unknown as pg.QueryResult[];
    expect(multi.map((r) => r.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('works through the identity store inside transactions without deadlocking', async () => {
    const store = new TypeOrmIdentityStore(db.dataSource);
    const created = await Promise.all(['p1', 'p2', 'p3'].map((n) => store.createTenant(n)));
    expect(created.map((c) => c.tenantProject.name)).toEqual(['_tenant', '_tenant', '_tenant']);
  });

  it('lets other work run between the statements of a long transaction (PGlite runs on this thread)', async () => {
    // Issue 13: on this thread each statement resolved without I/O, so a transaction's chain of
    // awaits was one task and held the event loop for all of it (a turn: 22–300 ms). PGlite now runs
    // on a worker thread (persistence/pglite-remote.ts): each statement is a message, other work runs.
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const before = ticks;
    await db.dataSource.transaction(async (em) => {
      for (let i = 0; i < 2_000; i++) await em.query('SELECT 1');
    });
    running = false;
    expect(ticks - before).toBeGreaterThanOrEqual(2);
  });

  it('refuses work after close, through the callback', async () => {
    await db.close();
    await db.close(); // idempotent
    const err = await new Promise<Error | null>((resolve) => pool.query('SELECT 1', (e: Error | null) => resolve(e)));
    expect(err?.message).toMatch(/closed/);
    await expect(pool.connect()).rejects.toThrow(/closed/);
    expect(unhandled).toEqual([]);
  });
});
