import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeGuard } from '../../api/src/domain/processes/process';
import { localLaneLock, ProcessLane } from '../../api/src/domain/processes/process-lane';
import type { NewProcess } from '../../api/src/domain/processes/process-store';
import { performance } from 'node:perf_hooks';
import {
  laneFence,
  laneLockFor,
  LeaseLostError,
  PgLeaseLock,
  TypeOrmIdentityStore,
  TypeOrmProcessStore,
  TypeOrmTurnStore,
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

  it('picks the lease on PostgreSQL and the local FIFO on PGlite', () => {
    const lock = laneLockFor(db);
    if (db.driver === 'pglite') expect(lock).toBe(localLaneLock);
    else expect(lock).toBeInstanceOf(PgLeaseLock);
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

  describe.runIf(driver.reopen)('PgLeaseLock across instances (issue 14)', () => {
    let other: Database;
    let otherStore: TypeOrmProcessStore;
    beforeAll(async () => {
      other = await driver.reopen!(db);
      otherStore = new TypeOrmProcessStore(other.dataSource);
    });
    afterAll(async () => {
      await other?.close();
    });

    const leaseOf = async (key: string): Promise<{ owner: string; token: string } | undefined> =>
      (await db.dataSource.query('SELECT owner, token::text AS token FROM lane_leases WHERE lane_key = $1', [key]))[0];
    /** A job that records when it ran, and runs until `finish` is called. */
    const held = () => {
      let finish: () => void = () => undefined;
      const until = new Promise<void>((resolve) => (finish = resolve));
      const span = { start: 0, end: 0, started: false };
      const job = async () => {
        span.start = performance.now();
        span.started = true;
        await until;
        span.end = performance.now();
      };
      return { job, finish, span };
    };

    it('serialises the lanes of two instances on one process: no lost update', async () => {
      const proc = await store.createProcess(newProcess('two-instances'));
      const laneA = new ProcessLane(new PgLeaseLock(db.dataSource));
      const laneB = new ProcessLane(new PgLeaseLock(other.dataSource));
      const jobs = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? laneA.run(proc.id, readSleepWrite(store, proc.id, i)) : laneB.run(proc.id, readSleepWrite(otherStore, proc.id, i)),
      );
      await Promise.all(jobs);
      const guards = await guardsOf(proc.id);
      expect(guards).toHaveLength(40);
      expect(new Set(guards.map((g) => (g.kind === 'INLINE' ? g.body : g.path))).size).toBe(40);
      expect(await leaseOf(proc.id)).toBeUndefined();
    });

    it('keeps a second holder waiting until release, and only on that key; a failed job releases too', async () => {
      const a = new PgLeaseLock(db.dataSource);
      const b = new PgLeaseLock(other.dataSource);
      const k = `key-1-${randomBytes(4).toString('hex')}`;
      const first = held();
      const holding = a.hold(k, first.job);
      while (!first.span.started) await sleep(5);
      expect((await leaseOf(k))?.owner).toBe(a.owner);
      const second = held();
      const waiting = tracked(b.hold(k, second.job));
      await b.hold(`${k}-other`, async () => undefined); // another key is free
      await sleep(100);
      expect(second.span.started).toBe(false);
      first.finish();
      await holding;
      while (!second.span.started) await sleep(5);
      expect((await leaseOf(k))?.owner).toBe(b.owner);
      second.finish();
      await waiting.promise;
      expect(await leaseOf(k)).toBeUndefined();
      await expect(a.hold(k, async () => { throw new Error('job failed'); })).rejects.toThrow('job failed');
      expect(await leaseOf(k)).toBeUndefined();
    });

    it('holds the lane when its holder\'s connections are terminated: no second holder meanwhile (before: 4 of 4 runs overlapped)', async () => {
      const proc = await store.createProcess(newProcess('killed-connection'));
      const a = new PgLeaseLock(db.dataSource, { leaseMs: 2_000 });
      const b = new PgLeaseLock(other.dataSource, { leaseMs: 2_000 });
      const first = held();
      const holding = a.hold(proc.id, first.job);
      while (!first.span.started) await sleep(5);
      // Every connection A's pool has open now (the one that took the lease among them).
      const pids = new Set<number>();
      for (let i = 0; i < 5; i++) {
        const rows = await Promise.all(Array.from({ length: 5 }, () => db.dataSource.query('SELECT pg_backend_pid() AS pid')));
        for (const [row] of rows) pids.add(row.pid);
      }
      await other.dataSource.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [[...pids]]);
      const second = held();
      const waiting = tracked(b.hold(proc.id, second.job));
      // Longer than the lease: A's heartbeat, on new connections, keeps it.
      await sleep(3_000);
      expect(second.span.started).toBe(false);
      expect((await leaseOf(proc.id))?.owner).toBe(a.owner);
      // A's fenced writes still go through (its pool reconnects).
      await laneFence.run({ key: proc.id, token: (await leaseOf(proc.id))!.token }, () => store.update(tenantId, proc.id, () => ({ guards: [guard(1)] })));
      first.finish();
      await holding;
      while (!second.span.started) await sleep(5);
      second.finish();
      await waiting.promise;
      expect(second.span.start).toBeGreaterThanOrEqual(first.span.end);
    });

    it('fences the writes of a holder whose lease was taken over: they change nothing', async () => {
      const proc = await store.createProcess(newProcess('fenced'));
      const turns = new TypeOrmTurnStore(db.dataSource);
      const otherTurns = new TypeOrmTurnStore(other.dataSource);
      // A stalls: no heartbeat within the test, a lease of 300 ms.
      const a = new PgLeaseLock(db.dataSource, { leaseMs: 300, heartbeatMs: 600_000 });
      const b = new PgLeaseLock(other.dataSource, { leaseMs: 10_000 });
      const first = held();
      let refused: unknown;
      const holding = a.hold(proc.id, async () => {
        await turns.appendMessage(tenantId, proc.id, null, { role: 'assistant', senderName: 'a', content: 'before the takeover', toolCall: null });
        await first.job();
        refused = await turns.appendMessage(tenantId, proc.id, null, { role: 'assistant', senderName: 'a', content: 'after the takeover', toolCall: null }).catch((e: unknown) => e);
      });
      while (!first.span.started) await sleep(5);
      await b.hold(proc.id, async () => {
        await otherTurns.appendMessage(tenantId, proc.id, null, { role: 'assistant', senderName: 'b', content: 'the new holder', toolCall: null });
        first.finish();
        await holding;
      });
      expect(refused).toBeInstanceOf(LeaseLostError);
      expect((await turns.listMessages(tenantId, proc.id)).map((m) => m.content)).toEqual(['before the takeover', 'the new holder']);
      // Outside any lease, writes are not fenced.
      await turns.appendMessage(tenantId, proc.id, null, { role: 'assistant', senderName: 'x', content: 'no lane', toolCall: null });
    });
  });
});
