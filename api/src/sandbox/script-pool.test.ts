import { afterEach, describe, expect, it, vi } from 'vitest';
import { IsolatePool } from './script-pool';

describe('IsolatePool: warm isolates are released after a quiet period (issue 18, memory)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('disposes the warm isolates once no run has come back for idleReleaseMs', () => {
    vi.useFakeTimers();
    const pool = new IsolatePool(2, 32, Infinity, 1_000);
    const first = pool.acquire();
    const second = pool.acquire();
    expect(pool.release(first, true)).toBe(true);
    expect(pool.release(second, true)).toBe(true);
    expect(pool.warmCount).toBe(2);
    vi.advanceTimersByTime(999);
    expect(pool.warmCount).toBe(2);
    vi.advanceTimersByTime(1);
    expect(pool.warmCount).toBe(0);
    expect(first.isolate.isDisposed).toBe(true);
    expect(second.isolate.isDisposed).toBe(true);
    pool.dispose();
  });

  it('keeps them warm while runs keep coming back, and a run after the release gets a fresh isolate', () => {
    vi.useFakeTimers();
    const pool = new IsolatePool(1, 32, Infinity, 1_000);
    const warm = pool.acquire();
    pool.release(warm, true);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(900);
      const again = pool.acquire();
      expect(again).toBe(warm);
      pool.release(again, true);
    }
    expect(warm.isolate.isDisposed).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(warm.isolate.isDisposed).toBe(true);
    const fresh = pool.acquire();
    expect(fresh).not.toBe(warm);
    expect(fresh.isolate.isDisposed).toBe(false);
    pool.release(fresh, true);
    pool.dispose();
  });

  it('leaves a lent-out isolate alone and waits for an idle one whose context check is under way', () => {
    vi.useFakeTimers();
    const pool = new IsolatePool(2, 32, Infinity, 1_000);
    const lent = pool.acquire();
    const settling = pool.acquire();
    pool.release(settling, true);
    settling.settling = new Promise(() => {});
    vi.advanceTimersByTime(1_000);
    expect(lent.isolate.isDisposed).toBe(false);
    expect(settling.isolate.isDisposed).toBe(false);
    settling.settling = null;
    vi.advanceTimersByTime(1_000);
    expect(settling.isolate.isDisposed).toBe(true);
    expect(lent.isolate.isDisposed).toBe(false);
    pool.dispose();
  });

  it('without idleReleaseMs keeps them for its life', () => {
    vi.useFakeTimers();
    const pool = new IsolatePool(1, 32);
    const warm = pool.acquire();
    pool.release(warm, true);
    vi.advanceTimersByTime(3_600_000);
    expect(warm.isolate.isDisposed).toBe(false);
    pool.dispose();
  });
});
