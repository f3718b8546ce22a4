import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeGuard } from '../../api/src/domain/processes/process';
import { localLaneLock, ProcessLane } from '../../api/src/domain/processes/process-lane';
import type { NewProcess } from '../../api/src/domain/processes/process-store';
import {
  LANE_LOCK_NAMESPACE,
  laneLockFor,
  PgLaneLock,
  TypeOrmIdentityStore,
  TypeOrmProcessStore,
  type Database,
} from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise and whether it has settled yet (read it after a signal, never after a sleep). */
function tracked<T>(promise: Promise<T>): { readonly promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  return { promise, get settled() { return settled; } };
}

const guard = (i: number): RuntimeGuard => ({ kind: 'INLINE', body: `job ${i}`, installedBy: null });

describe.each(testDatabases())('process lanes ($name)', (driver) => {
  let db: Database;
  let store: TypeOrmProcessStore;
  let tenantId: string;
  let newProcess: (name: string) => NewProcess;

  beforeAll(async () => {
    db = await driver.open();
    store = new TypeOrmProcessStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    tenantId = (await identity.createTenant('acme')).tenant.id;
    const userId = (await identity.createUser({ tenantId, login: 'alice', role: 'MEMBER', tokenHash: 'h' })).user.id;
    const projectId = (await identity.createProject(tenantId, 'p', 'NORMAL', userId)).id;
    const sessionId = (await store.openSession(tenantId, projectId, userId, 'lanes')).id;
    newProcess = (name) => ({
      tenantId, projectId, sessionId, userId, name,
      parentProcessId: null, engine: 'ford', recipeName: null, recipeSource: null, connectionProfile: null,
      activeSkills: [], allowedSkillsOverride: null, locked: false, engineParams: {}, promptOverride: null,
      profileAppend: null, promptMode: 'APPEND', dataRelayCorrectionOverride: null,
      toolAdjustments: { add: [], remove: [], keep: [], dropFirst: [], defer: [] }, guards: [], recipeGuards: [],
    });
  });
  afterAll(async () => {
    await db?.close();
  });

  /**
   * A job in the lost-update-prone shape a lane exists for: read the process, work a while, then
   * write a value computed from what it READ (not from the locked row), appending one guard. Run
   * serialised, n jobs leave n guards; run concurrently, jobs overwrite each other's guard.
   */
  const readSleepWrite = (s: TypeOrmProcessStore, processId: string, i: number) => async () => {
    const read = (await s.findProcess(tenantId, processId))!;
    await sleep(3);
    await s.update(tenantId, processId, () => ({ guards: [...read.guards, guard(i)] }));
  };

  const guardsOf = async (processId: string) => (await store.findProcess(tenantId, processId))!.guards;

  it('picks the advisory lock on PostgreSQL and the local FIFO on PGlite', () => {
    const lock = laneLockFor(db);
    if (db.driver === 'pglite') expect(lock).toBe(localLaneLock);
    else expect(lock).toBeInstanceOf(PgLaneLock);
  });

  it('shows that the read-sleep-write job loses updates without a lane (the control)', async () => {
    const proc = await store.createProcess(newProcess('control'));
    await Promise.all(Array.from({ length: 10 }, (_, i) => readSleepWrite(store, proc.id, i)()));
    expect((await guardsOf(proc.id)).length).toBeLessThan(10);
  });

  it('serialises 50 read-sleep-write jobs through ProcessLane + laneLockFor(db)', async () => {
    const proc = await store.createProcess(newProcess('one-instance'));
    const lane = new ProcessLane(laneLockFor(db));
    await Promise.all(Array.from({ length: 50 }, (_, i) => lane.run(proc.id, readSleepWrite(store, proc.id, i))));
    expect(await guardsOf(proc.id)).toEqual(Array.from({ length: 50 }, (_, i) => guard(i)));
  });

  describe.runIf(driver.reopen)('PgLaneLock across instances', () => {
    let other: Database;
    let otherStore: TypeOrmProcessStore;
    beforeAll(async () => {
      other = await driver.reopen!(db);
      otherStore = new TypeOrmProcessStore(other.dataSource);
    });
    afterAll(async () => {
      await other?.close();
    });

    // Advisory locks are database-wide: keys of this run only, so a suite running beside it on the
    // same database (another checkout, a second run) neither blocks these tests nor is killed by them.
    const run = randomBytes(4).toString('hex');
    const key = (name: string) => `${name}-${run}`;

    const lanes = async (lockKey: string, granted: boolean): Promise<number> =>
      Number(
        (
          await db.dataSource.query(
            `SELECT count(*) AS n FROM pg_locks
             WHERE locktype = 'advisory' AND classid = $1 AND objid = hashtext($2)::oid AND objsubid = 2 AND granted = $3`,
            [LANE_LOCK_NAMESPACE, lockKey, granted],
          )
        )[0].n,
      );
    const lanesHeld = (lockKey: string) => lanes(lockKey, true);
    /** Sessions blocked in pg_advisory_lock on the key. */
    const lanesWaiting = (lockKey: string) => lanes(lockKey, false);

    it('serialises the lanes of two instances on one process: no lost increment', async () => {
      const proc = await store.createProcess(newProcess('two-instances'));
      // Each instance has its own lane and lock; neither knows about the other's jobs.
      const laneA = new ProcessLane(new PgLaneLock(db.dataSource));
      const laneB = new ProcessLane(new PgLaneLock(other.dataSource));
      const jobs = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? laneA.run(proc.id, readSleepWrite(store, proc.id, i)) : laneB.run(proc.id, readSleepWrite(otherStore, proc.id, i)),
      );
      await Promise.all(jobs);
      // Without the advisory lock the two lanes would interleave and lose guards (see the control).
      const guards = await guardsOf(proc.id);
      expect(guards).toHaveLength(40);
      expect(new Set(guards.map((g) => (g.kind === 'INLINE' ? g.body : g.path))).size).toBe(40);
      expect(await lanesHeld(proc.id)).toBe(0);
    });

    // Load: "b is blocked" is read from pg_locks (its request is there, not granted), not inferred
    // from b not finishing within 200 ms.
    it('blocks a second holder of the same key until release, and only that key', async () => {
      const a = new PgLaneLock(db.dataSource);
      const b = new PgLaneLock(other.dataSource);
      const release = await a.acquire(key('key-1'));
      expect(await lanesHeld(key('key-1'))).toBe(1);
      const waiting = tracked(b.acquire(key('key-1')));
      while ((await lanesWaiting(key('key-1'))) === 0) await sleep(10);
      expect(waiting.settled).toBe(false);
      const releaseOther = await b.acquire(key('key-2')); // another key is free
      await releaseOther();
      expect(waiting.settled).toBe(false);
      await release();
      await release(); // idempotent
      const releaseB = await waiting.promise;
      expect(await lanesHeld(key('key-1'))).toBe(1);
      await releaseB();
      expect(await lanesHeld(key('key-1'))).toBe(0);
    });

    it('releases the lock when a job fails, and gives every connection back', async () => {
      const lane = new ProcessLane(new PgLaneLock(db.dataSource));
      await expect(lane.run(key('failing'), async () => {
        throw new Error('job failed');
      })).rejects.toThrow('job failed');
      expect(await lanesHeld(key('failing'))).toBe(0);
      // Four times the pool size of acquire/release cycles: a leaked connection would hang here.
      const lock = new PgLaneLock(db.dataSource);
      for (let i = 0; i < 20; i++) await (await lock.acquire(key(`cycle-${i % 3}`)))();
      expect(await db.dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });

    // Load: the fourth lane is seen waiting in memory (waitingCount), not inferred from a 100 ms sleep.
    it('caps the connections lanes hold, so lane jobs always find one for their queries', async () => {
      // Pool size 5 in the tests: lanes may hold 3 connections; a fourth lane waits in memory.
      const lock = new PgLaneLock(db.dataSource);
      const releases = await Promise.all(['c1', 'c2', 'c3'].map((k) => lock.acquire(key(k))));
      const fourth = tracked(lock.acquire(key('c4')));
      expect(lock.waitingCount).toBe(1);
      // Jobs still get connections for their own work while three lanes hold theirs.
      expect(await store.findProcess(tenantId, '00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(fourth.settled).toBe(false);
      expect(lock.waitingCount).toBe(1);
      await releases[0]!();
      await (await fourth.promise)();
      await Promise.all(releases.map((r) => r()));
    });

    it('survives a holder whose connection was killed: release resolves and the key is free again', async () => {
      const lock = new PgLaneLock(db.dataSource);
      const release = await lock.acquire(key('killed'));
      const [{ pid }] = await other.dataSource.query(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = hashtext($2)::oid AND objsubid = 2`,
        [LANE_LOCK_NAMESPACE, key('killed')],
      );
      await other.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect(release()).resolves.toBeUndefined();
      const again = await new PgLaneLock(other.dataSource).acquire(key('killed'));
      await again();
      expect(await db.dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  });
});
