import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptRunRequest } from '../domain/scripting/script-runner';
import { ScriptSandbox } from './script-sandbox';

// One warm isolate, so every run lands in the context the previous run used (when it was clean).
// Load: a generous time limit; nothing here is about time.
let sandbox: ScriptSandbox;
beforeEach(() => {
  sandbox = new ScriptSandbox({ poolSize: 1, defaultTimeoutMs: 20_000 });
});
afterEach(() => sandbox.dispose());

const run = (source: string, more: Partial<ScriptRunRequest> = {}) =>
  sandbox.run({ source, filename: 'skills/demo/scripts/run.js', mode: 'EXPRESSION', bindings: {}, ...more }).then((r) => r.value);

/** Runs `attack`, then `probe` in the same pool; the probe's value, and whether it got a fresh context. */
async function after(attack: string, probe: string, more: Partial<ScriptRunRequest> = {}): Promise<{ seen: unknown; fresh: boolean }> {
  await run('1');
  await run(attack, more);
  const before = sandbox.contextsCreated;
  const seen = await run(probe);
  return { seen, fresh: sandbox.contextsCreated > before };
}

describe('a warm context carries nothing from one run to the next (script-realm-guard.ts)', () => {
  it('reuses the context after a run that only computed, and after one that threw', async () => {
    await run('const items = [1, 2, 3]; class Box {}; items.length');
    await run('const items = [4]; class Box {}; items.length'); // let/const/class stay inside the eval
    await run('throw new Error("boom")').catch(() => undefined);
    expect(await run('[typeof items, typeof Box]')).toEqual(['undefined', 'undefined']);
    expect(sandbox.contextsCreated).toBe(1);
  });

  it('deletes the globals a run added (var, function declarations, assignments) and keeps the context', async () => {
    const { seen, fresh } = await after(
      'var leaked = args.secret; function helper() { return leaked; } globalThis.assigned = leaked; this.viaThis = leaked; 1',
      '[typeof leaked, typeof helper, typeof assigned, typeof viaThis, args]',
      { args: { secret: 's3cret' } },
    );
    expect(seen).toEqual(['undefined', 'undefined', 'undefined', 'undefined', null]);
    expect(fresh).toBe(false);
  });

  it.each([
    ['a replaced built-in method', 'Array.prototype.map = function () { return "pwned"; }; 1', '[1, 2].map((x) => x * 2)', [2, 4]],
    ['an added prototype property', 'Object.prototype.polluted = "yes"; 1', '({}).polluted === undefined', true],
    ['a deleted built-in', 'delete Array.prototype.includes; 1', 'typeof [].includes', 'function'],
    ['a getter on a prototype', 'Object.defineProperty(Object.prototype, "get", { get() { throw new Error("trap"); }, configurable: true }); 1', 'Object.getOwnPropertyDescriptor({ a: 1 }, "a").value', 1],
    ['the array iterator (no property reaches it)', 'Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }); 1', '[...[1, 2]]', [1, 2]],
    ['the generator prototype', 'Object.getPrototypeOf(function* () {}).prototype.next = () => ({ done: true }); 1', '[...(function* () { yield 1; })()]', [1]],
    ['the async function constructor', 'Object.getPrototypeOf(async function () {}).constructor.stash = args; 1', 'typeof Object.getPrototypeOf(async function () {}).constructor.stash', 'undefined'],
    ['Error.prepareStackTrace', 'Error.prepareStackTrace = () => "hooked"; 1', 'typeof Error.prepareStackTrace', 'undefined'],
    ['a frozen Object.prototype', 'Object.freeze(Object.prototype); 1', 'const o = {}; o.toString = () => "own"; String(o)', 'own'],
    ['a non-configurable global', 'Object.defineProperty(globalThis, "pinned", { value: args }); 1', 'typeof pinned', 'undefined'],
    ['a changed prototype of the global object', 'Object.setPrototypeOf(globalThis, { injected: 1 }); 1', 'typeof injected', 'undefined'],
    ['a non-extensible global object', 'Object.preventExtensions(globalThis); 1', 'var later = 1; later', 1],
    ['a stashed host function', 'Array.prototype.stash = vance.secret; 1', 'typeof [].stash', 'undefined'],
  ])('gives a fresh context after %s', async (_what, attack, probe, expected) => {
    const { seen, fresh } = await after(attack, probe, { args: { secret: 's' }, bindings: { secret: () => 'host secret' } });
    expect(seen).toEqual(expected);
    expect(fresh).toBe(true);
  });

  it('runs a script after a dirty context in a fresh one, and gives the next run a watched one again', async () => {
    await run('1');
    await run('Array.prototype.dirty = 1; 1');
    const before = sandbox.contextsCreated;
    expect(await run('typeof [].dirty')).toBe('undefined'); // the plain fresh context, used once
    expect(await run('typeof [].dirty')).toBe('undefined'); // a new watched context
    expect(await run('var x = 1; x')).toBe(1); // reused
    expect(sandbox.contextsCreated - before).toBe(2);
  });

  it('freezes built-in methods in a watched context: what a run tries on one never reaches the next run', async () => {
    const { seen } = await after(
      'try { Object.defineProperty(Math.max, "name", { value: args.secret }); } catch (e) {} Math.max.extra = args.secret; [].map.extra = args.secret; 1',
      '[Math.max.name, typeof Math.max.extra, typeof [].map.extra, Object.isFrozen(Math.max)]',
      { args: { secret: 's' } },
    );
    expect(seen).toEqual(['max', 'undefined', 'undefined', true]);
  });

  it('checks a context right after its run: runs that come while the check of a changed context is under way still get clean contexts', async () => {
    await run('var early = args.secret; Array.prototype.early = args.secret; 1', { args: { secret: 's' } });
    const before = sandbox.contextsCreated;
    // Started at once: the check of the dirty context may still be running.
    const [first, second] = await Promise.all([run('typeof [].early'), run('typeof early')]);
    expect([first, second]).toEqual(['undefined', 'undefined']);
    expect(sandbox.contextsCreated - before).toBe(2);
    expect(sandbox.warmIsolates).toBe(1);
  });

  it('gives a fresh context after a run that added thousands of globals (deleting them would cost the next run)', async () => {
    const { seen, fresh } = await after('for (let i = 0; i < 5000; i++) globalThis["g" + i] = i; 1', 'typeof g1');
    expect({ seen, fresh }).toEqual({ seen: 'undefined', fresh: true });
  });

  it('runs promise jobs of a run before the next run starts: what they leave is cleaned like the rest', async () => {
    const global = await after('Promise.resolve().then(() => { globalThis.late = args.secret; }); 1', 'typeof late', { args: { secret: 's' } });
    expect(global).toEqual({ seen: 'undefined', fresh: false });
    const builtIn = await after('Promise.resolve().then(() => { Array.prototype.late = args.secret; }); 1', 'typeof [].late', { args: { secret: 's' } });
    expect(builtIn).toEqual({ seen: 'undefined', fresh: true });
  });

  it('has none of the APIs whose callbacks would run after the run (closures left on timers)', async () => {
    expect(await run('[typeof FinalizationRegistry, typeof Atomics.waitAsync, typeof WebAssembly.compile, typeof WebAssembly.instantiate]'))
      .toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
    expect(await run('typeof setTimeout')).toBe('undefined');
  });

  it("clears RegExp's legacy statics, which hold the previous run's last match", async () => {
    const { seen, fresh } = await after('/token-(\\d+)/.exec("token-4242"); 1', '[RegExp.$1, RegExp.lastMatch, RegExp.input]');
    expect(seen).toEqual(['', '', '']);
    expect(fresh).toBe(false);
  });

  it("reseeds Math.random every run, so one run's numbers do not predict the next run's", async () => {
    const first = await run('[Math.random(), Math.random(), Math.random()]') as number[];
    const second = await run('[Math.random(), Math.random(), Math.random()]') as number[];
    expect(first).not.toEqual(second);
    for (const x of [...first, ...second]) expect(x >= 0 && x < 1).toBe(true);
    expect(sandbox.contextsCreated).toBe(1);
  });

  it.each([
    ['reuseContexts: false', { poolSize: 1, reuseContexts: false }],
    ['a cold isolate per run (poolSize 0)', { poolSize: 0 }],
  ])('with %s, creates a context per run, with the same language', async (_what, options) => {
    const fresh = new ScriptSandbox({ ...options, defaultTimeoutMs: 20_000 });
    try {
      const probe = '[var1 = typeof FinalizationRegistry, typeof WebAssembly.compile, String(Math.random).includes("native code")]';
      for (let i = 0; i < 3; i++) {
        expect((await fresh.run({ source: `var var1; ${probe}`, filename: 'a.js', mode: 'EXPRESSION', bindings: {} })).value).toEqual(['undefined', 'undefined', false]);
      }
      expect(fresh.contextsCreated).toBe(3);
    } finally {
      fresh.dispose();
    }
  });
});
