import { afterAll, describe, expect, it } from 'vitest';
import { externalWait, ScriptError, type BindingTree, type ScriptRunRequest } from '../domain/scripting/script-runner';
import { ScriptSandbox } from './script-sandbox';

// Issue 13: a script calling `vance.log` in a loop ran 29–50 s against its 5 s limit, because only
// the guest's own running time was counted. Now the run's whole time counts, except external waits.
describe('the compute budget of a script run', () => {
  // No cap on the number of calls here: these runs are ended by the compute budget alone.
  const sandbox = new ScriptSandbox({ maxHostCalls: Number.MAX_SAFE_INTEGER });
  afterAll(() => sandbox.dispose());

  // A wall clock far beyond the test's own timeout: only the compute budget can end these runs.
  const run = (source: string, bindings: BindingTree, cpuTimeoutMs: number): Promise<unknown> =>
    sandbox.run({ filename: 'budget.js', source, mode: 'EXPRESSION', bindings, timeoutMs: 600_000, cpuTimeoutMs } satisfies ScriptRunRequest);

  const failure = async (promise: Promise<unknown>): Promise<ScriptError> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ScriptError) return error;
      throw error;
    }
    throw new Error('the run did not fail');
  };

  it('stops an endless loop of cheap binding calls with TIMEOUT', async () => {
    const error = await failure(run('for (;;) vance.log("x")', { log: () => null }, 300));
    expect(error.kind).toBe('TIMEOUT');
    expect(error.message).toContain('computed longer than 300 ms');
  });

  it('stops the loop even when the script catches every call', async () => {
    const error = await failure(run('for (;;) { try { vance.log("x") } catch (e) {} }', { log: () => { throw new Error('no'); } }, 300));
    expect(error.kind).toBe('TIMEOUT');
  });

  it('charges the time a binding takes on the host', async () => {
    // Each call busy-waits 20 ms on the host: 300 ms of budget allows about fifteen of them.
    const slow = () => {
      const until = performance.now() + 20;
      while (performance.now() < until) { /* host work on the script's behalf */ }
      return null;
    };
    const error = await failure(run('let n = 0; for (;;) { vance.work(); n++ }', { work: slow }, 300));
    expect(error.kind).toBe('TIMEOUT');
  });

  it('does not charge external waits (tool and model calls), however long they take', async () => {
    const wait = externalWait(() => new Promise((resolve) => setTimeout(() => resolve('ok'), 50)));
    // Thirty waits of 50 ms each: 1.5 s of waiting against a 500 ms compute budget.
    const result = await sandbox.run({
      filename: 'waits.js', source: 'let s = ""; for (let i = 0; i < 30; i++) s += vance.tool(); s.length', mode: 'EXPRESSION',
      bindings: { tool: wait }, timeoutMs: 600_000, cpuTimeoutMs: 500,
    });
    expect(result.value).toBe(60);
  });

  it('stops a run past its cap on vance.* calls, also when the script catches every refusal, with a located message', async () => {
    const capped = new ScriptSandbox({ maxHostCalls: 500 });
    try {
      let calls = 0;
      const run = (source: string) => capped.run({ filename: 'calls.js', source, mode: 'EXPRESSION', bindings: { log: () => { calls++; return null; } }, timeoutMs: 600_000, cpuTimeoutMs: 600_000 });
      // No compute budget to speak of: only the call cap can end these runs.
      const error = await failure(run('for (;;) vance.log("x")'));
      expect(error.kind).toBe('TIMEOUT');
      expect(error.message).toBe('calls.js: the script made more than 500 calls to vance.* (the limit of one run)');
      expect(calls).toBe(500);
      calls = 0;
      expect((await failure(run('for (;;) { try { vance.log("x") } catch (e) {} }'))).message).toContain('more than 500 calls');
      expect(calls).toBe(500);
      // Under the cap a run is not affected, and the next run has its own count.
      expect((await run('for (let i = 0; i < 500; i++) vance.log("x"); "done"')).value).toBe('done');
    } finally {
      capped.dispose();
    }
  });
});

