import { describe, expect, it } from 'vitest';
import { localLaneLock, ProcessLane } from './process-lane';
import type { LaneLock } from './process-store';

// A lock that reports each hold as taken over from a dead holder, as PgLeaseLock does for an expired lease.
const takenOverLock: LaneLock = { hold: (_key, job) => job({ takenOver: true }) };

describe('ProcessLane', () => {
  it('runs the jobs of one process one at a time, in order, and a failing job does not break the lane', async () => {
    const lane = new ProcessLane(localLaneLock);
    const log: string[] = [];
    const job = (name: string, fail = false) => lane.run('p', async () => {
      log.push(`${name}:start`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`${name}:end`);
      if (fail) throw new Error(name);
    });
    const results = await Promise.allSettled([job('a'), job('b', true), job('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('runs the takeover handler before whichever job took the lane over — any job, not only a turn (issue 14)', async () => {
    const lane = new ProcessLane(takenOverLock);
    const log: string[] = [];
    lane.onTakeover(async (processId) => void log.push(`takeover:${processId}`));
    // The first job after a dead instance is often a message being queued, not a turn: it must end the stale turn too.
    await lane.run('p', async (tenure) => void log.push(`queue:${tenure.takenOver}`));
    expect(log).toEqual(['takeover:p', 'queue:true']);
  });

  it('does not run the job when the takeover handler fails (a stale turn must end first)', async () => {
    const lane = new ProcessLane(takenOverLock);
    let ran = false;
    lane.onTakeover(async () => {
      throw new Error('database down');
    });
    await expect(lane.run('p', async () => void (ran = true))).rejects.toThrow('database down');
    expect(ran).toBe(false);
  });

  it('runs no handler on a lane that was free', async () => {
    const lane = new ProcessLane(localLaneLock);
    let called = false;
    lane.onTakeover(async () => void (called = true));
    await lane.run('p', async () => undefined);
    expect(called).toBe(false);
  });
});
