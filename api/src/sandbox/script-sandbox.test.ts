import { afterAll, describe, expect, it } from 'vitest';
import { ScriptError, type BindingTree, type ScriptRunRequest } from '../domain/scripting/script-runner';
import { ScriptSandbox } from './script-sandbox';

// Load: a generous default, so an ordinary script never races the clock on a busy machine; the
// tests of the time limit set their own, with work that never ends.
const sandbox = new ScriptSandbox({ poolSize: 2, defaultTimeoutMs: 20_000 });
afterAll(() => sandbox.dispose());

const FILE = 'skills/demo/scripts/run.js';

function run(source: string, more: Partial<ScriptRunRequest> = {}, on = sandbox) {
  return on.run({ source, filename: FILE, mode: 'EXPRESSION', bindings: {}, ...more }).then((r) => r.value);
}

async function failure(source: string, more: Partial<ScriptRunRequest> = {}, on = sandbox): Promise<ScriptError> {
  const error: unknown = await run(source, more, on).then(
    (value) => { throw new Error(`expected a ScriptError, got ${JSON.stringify(value)}`); },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScriptError);
  return error as ScriptError;
}

/** After an attack, the same sandbox must still run a normal script. */
async function stillWorks(on = sandbox): Promise<void> {
  expect(await run('args.n * 2', { args: { n: 21 } }, on)).toBe(42);
}

describe('ScriptSandbox results', () => {
  it('returns the value of the last expression for numbers, objects, arrays and undefined', async () => {
    expect(await run('const a = 1;\na + 2')).toBe(3);
    expect(await run('({ a: [1, "x"], b: { c: null } })')).toEqual({ a: [1, 'x'], b: { c: null } });
    expect(await run('[1, 2].map((x) => x * 10)')).toEqual([10, 20]);
    expect(await run('undefined')).toBeNull();
    expect(await run('if (true) { "then" } else { "else" }')).toBe('then');
  });

  it('serialises with JSON semantics: functions and symbols dropped, undefined in arrays becomes null', async () => {
    expect(await run('({ f() {}, s: Symbol("x"), u: undefined, d: new Date(0), a: [undefined, () => 1] })'))
      .toEqual({ d: '1970-01-01T00:00:00.000Z', a: [null, null] });
  });

  it('returns the returned value of a FUNCTION_BODY script', async () => {
    expect(await run('if (args.x > 1) return "big";\nreturn "small";', { mode: 'FUNCTION_BODY', args: { x: 2 } })).toBe('big');
    expect(await run('const y = 1;', { mode: 'FUNCTION_BODY' })).toBeNull();
  });

  it('rejects a top-level return in an EXPRESSION script as GUEST SyntaxError with its line', async () => {
    const error = await failure('const a = 1;\n\nreturn a;');
    expect(error.kind).toBe('GUEST');
    expect(error.message).toContain('SyntaxError');
    expect(error.message).toContain(FILE);
    expect(error.line).toBe(3);
  });

  it('reports the guest line and the filename of a runtime error and of a syntax error in a function body', async () => {
    const runtime = await failure('const a = {};\nconst b = 2;\na.b.c;');
    expect(runtime).toMatchObject({ kind: 'GUEST', line: 3 });
    expect(runtime.message).toMatch(/^TypeError: Cannot read properties of undefined/);
    expect(runtime.message).toContain(`${FILE}:3`);
    const syntax = await failure('let x = 1;\nlet y = ;', { mode: 'FUNCTION_BODY' });
    expect(syntax).toMatchObject({ kind: 'GUEST', line: 2 });
  });

  it('reports a thrown non-Error value by its text', async () => {
    const error = await failure('throw "plain string"');
    expect(error).toMatchObject({ kind: 'GUEST' });
    expect(error.message).toContain('plain string');
  });

  it('rejects a BigInt result as GUEST', async () => {
    const error = await failure('10n ** 20n');
    expect(error.kind).toBe('GUEST');
    expect(error.message).toContain('BigInt');
    await stillWorks();
  });

  it('rejects a Promise result as GUEST (scripts are synchronous)', async () => {
    expect((await failure('Promise.resolve(1)')).kind).toBe('GUEST');
  });

  it('keeps the host safe from a script that replaces JSON.stringify and JSON.parse', async () => {
    const source = 'JSON.stringify = () => "x".repeat(5e6); JSON.parse = () => { throw new Error("no"); };\n({ ok: vance.echo([1, 2]) })';
    expect(await run(source, { bindings: { echo: (x) => x } })).toEqual({ ok: [1, 2] });
  });
});

describe('ScriptSandbox args and bindings', () => {
  it('gives the script a frozen copy of args', async () => {
    const args = { list: [1, 2], nested: { a: 'b' } };
    const source = '"use strict";\nconst out = [Object.isFrozen(args), Object.isFrozen(args.list), Object.isFrozen(args.nested)];\n'
      + 'try { args.list.push(3); out.push("pushed"); } catch (e) { out.push(e.name); }\nout';
    expect(await run(source, { args })).toEqual([true, true, true, 'TypeError']);
    expect(args).toEqual({ list: [1, 2], nested: { a: 'b' } });
  });

  it('builds a frozen vance tree of values and functions', async () => {
    const bindings: BindingTree = { params: { max: 3 }, guard: { task: 'x', continueWith: () => 'ok' } };
    const source = '[vance.params.max, vance.guard.task, vance.guard.continueWith(), Object.isFrozen(vance.guard), Object.isFrozen(vance.guard.continueWith)]';
    expect(await run(source, { bindings })).toEqual([3, 'x', 'ok', true, true]);
  });

  it('round-trips strings and objects through a synchronous host function as JSON copies', async () => {
    const seen: unknown[] = [];
    const echo = (...a: unknown[]) => { seen.push(a); return { got: a } as never; };
    const value = await run('const r = vance.echo("hi", { n: 1, u: undefined });\n[typeof r, r.got[0], r.got[1]]', { bindings: { echo } });
    expect(value).toEqual(['object', 'hi', { n: 1 }]);
    expect(seen).toEqual([['hi', { n: 1 }]]);
  });

  it('blocks the guest on an async host function until it resolves', async () => {
    const later = (x: unknown) => new Promise<string>((resolve) => setTimeout(() => resolve(`later ${String(x)}`), 30));
    expect(await run('const a = vance.later(1);\nconst b = vance.later(2);\n[a, b]', { bindings: { later } })).toEqual(['later 1', 'later 2']);
  });

  it('gives undefined to the guest when the host function returns nothing', async () => {
    expect(await run('typeof vance.noop()', { bindings: { noop: () => undefined } })).toBe('undefined');
  });

  it('turns a host rejection into a guest Error the script can catch', async () => {
    const fail = () => Promise.reject(new Error('no such tool'));
    const value = await run('try { vance.fail(); "not thrown" } catch (e) { [e instanceof Error, e.message] }', { bindings: { fail } });
    expect(value).toEqual([true, 'no such tool']);
  });

  it('fails the run with kind HOST when the script does not catch a host rejection', async () => {
    const fail = async () => { throw new Error('backend down'); };
    const error = await failure('const x = 1;\nvance.tools.fail();', { bindings: { tools: { fail } } });
    expect(error).toMatchObject({ kind: 'HOST', line: 2 });
    expect(error.message).toContain('vance.tools.fail failed: backend down');
  });

  it('reports GUEST, not HOST, when the script catches a host error and throws its own', async () => {
    const fail = async () => { throw new Error('backend down'); };
    const error = await failure('try { vance.fail() } catch (e) { }\nthrow new Error("mine")', { bindings: { fail } });
    expect(error.kind).toBe('GUEST');
  });

  it('caps a huge host error message', async () => {
    const fail = async () => { throw new Error('x'.repeat(50_000)); };
    const error = await failure('vance.fail()', { bindings: { fail } });
    expect(error.kind).toBe('HOST');
    expect(error.message.length).toBeLessThan(2_500);
  });

  it('refuses args beyond the size cap before running anything', async () => {
    const small = new ScriptSandbox({ maxHostArgChars: 100 });
    try {
      expect((await failure('1', { args: 'x'.repeat(500) }, small)).kind).toBe('MEMORY');
    } finally {
      small.dispose();
    }
  });
});

describe('ScriptSandbox pool', () => {
  it('runs a script from inside a host function three levels deep with one pooled isolate, without deadlock', async () => {
    const nested = new ScriptSandbox({ poolSize: 1 });
    try {
      const deeper = async (level: unknown): Promise<number> => {
        const n = Number(level);
        if (n >= 3) return n;
        const result = await nested.run({ source: 'vance.deeper(args.level + 1) * 10', filename: `level${n}.js`, mode: 'EXPRESSION', args: { level: n }, bindings: { deeper } });
        return result.value as number;
      };
      expect(await run('vance.deeper(0)', { bindings: { deeper } }, nested)).toBe(3000);
      expect(nested.warmIsolates).toBeLessThanOrEqual(1);
      await stillWorks(nested);
    } finally {
      nested.dispose();
    }
  });

  it('keeps at most poolSize warm isolates after concurrent runs', async () => {
    const pool = new ScriptSandbox({ poolSize: 2 });
    try {
      const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(1), 20));
      const values = await Promise.all(Array.from({ length: 6 }, (_, i) => run(`vance.slow() + ${i}`, { bindings: { slow } }, pool)));
      expect(values).toEqual([1, 2, 3, 4, 5, 6]);
      expect(pool.warmIsolates).toBe(2);
      for (let i = 0; i < 5; i++) await stillWorks(pool);
      expect(pool.warmIsolates).toBe(2);
    } finally {
      pool.dispose();
    }
  });

  it('replaces a warm isolate whose heap grew over recycleHeapMb in a run, and keeps one that did not', async () => {
    const pool = new ScriptSandbox({ poolSize: 1, recycleHeapMb: 6, defaultTimeoutMs: 20_000 });
    try {
      await stillWorks(pool);
      expect([pool.warmIsolates, pool.recycledIsolates]).toEqual([1, 0]);
      // About 10 MB of live objects at the end of the run: the heap V8 grew for them is over 6 MB.
      expect(await run('const rows = []; for (let i = 0; i < 150000; i++) rows.push({ i, s: "row " + i }); rows.length', {}, pool)).toBe(150000);
      expect([pool.warmIsolates, pool.recycledIsolates]).toEqual([0, 1]);
      await stillWorks(pool);
      expect([pool.warmIsolates, pool.recycledIsolates]).toEqual([1, 1]);
    } finally {
      pool.dispose();
    }
  });

  it('rejects runs after dispose and fails a run in flight with a ScriptError', async () => {
    const gone = new ScriptSandbox({ defaultTimeoutMs: 20_000 });
    // Load: dispose once the guest is blocked in the host call (a signal), not after a 50 ms sleep
    // that a busy machine could spend before the run even started.
    let entered!: () => void;
    const inHost = new Promise<void>((resolve) => (entered = resolve));
    const hang = () => {
      entered();
      return new Promise<never>(() => undefined);
    };
    const inFlight = run('vance.hang()', { bindings: { hang } }, gone).catch((e: unknown) => e);
    await inHost;
    gone.dispose();
    expect(await inFlight).toMatchObject({ kind: 'HOST' });
    expect((await failure('1', {}, gone)).kind).toBe('HOST');
  });
});

describe('ScriptSandbox security', () => {
  it('this.constructor.constructor reaches only the guest Function: no process', async () => {
    const error = await failure("this.constructor.constructor('return process')()");
    expect(error.kind).toBe('GUEST');
    expect(error.message).toContain('ReferenceError: process is not defined');
    await stillWorks();
  });

  it('a vance function constructor reaches only the guest Function: no process', async () => {
    const error = await failure("vance.someFn.constructor('return process')()", { bindings: { someFn: () => 1 } });
    expect(error.message).toContain('process is not defined');
    await stillWorks();
  });

  it('args.constructor.constructor("return this") reaches only the guest global', async () => {
    const source = "const g = args.constructor.constructor('return this')();\n[g === globalThis, typeof g.process, typeof g.require, typeof g.ivm]";
    expect(await run(source, { args: {} })).toEqual([true, 'undefined', 'undefined', 'undefined']);
    await stillWorks();
  });

  it('every prototype chain from vance, its functions, args and globalThis ends in guest constructors', async () => {
    const source = `const seen = [];
for (let o of [vance, vance.fn, args, args.list, globalThis, vance.fn.call, Object.getPrototypeOf(function* () {})]) {
  while (o !== null) {
    const ctor = Object.getOwnPropertyDescriptor(o, 'constructor')?.value;
    if (typeof ctor === 'function') seen.push(ctor.constructor('return typeof process + typeof require')());
    o = Object.getPrototypeOf(o);
  }
}
[seen.length > 5, seen.every((s) => s === 'undefinedundefined')]`;
    expect(await run(source, { args: { list: [1] }, bindings: { fn: () => 1 } })).toEqual([true, true]);
    await stillWorks();
  });

  it('Error.prepareStackTrace sees no host object and no driver function or receiver in any frame', async () => {
    const source = `const frames = [];
Error.prepareStackTrace = (error, list) => {
  for (const f of list) {
    const self = f.getThis(), fn = f.getFunction();
    frames.push({ driver: f.getFileName() === 'vance-sandbox-bootstrap.js', exposed: self !== undefined || fn !== undefined,
      ref: !!(self && typeof self.applySyncPromise === 'function') || f.getTypeName() === 'Reference' });
  }
  return 'stack';
};
try { vance.echo({ toJSON() { throw new Error('inside the host call path'); } }); } catch (e) { e.stack; }
try { vance.fail(); } catch (e) { e.stack; }
try { vance.echo('x'.repeat(2e6)); } catch (e) { e.stack; }
try { null.x; } catch (e) { e.stack; }
[frames.filter((f) => f.driver).length, frames.filter((f) => f.driver && f.exposed).length, frames.filter((f) => f.ref).length]`;
    const bindings = { echo: (x: unknown) => x as never, fail: async () => { throw new Error('x'); } };
    const [driverFrames, exposed, references] = await run(source, { bindings }) as number[];
    expect(driverFrames).toBeGreaterThan(3);
    expect(exposed).toBe(0);
    expect(references).toBe(0);
    await stillWorks();
  });

  it('caller and arguments.callee stop at the strict driver', async () => {
    // f.caller is the user's own (sloppy) wrapper function; its caller is the strict driver: null.
    expect(await run('function f() { return f.caller; }\nreturn [typeof f(), f().caller, arguments.callee.caller];', { mode: 'FUNCTION_BODY' }))
      .toEqual(['function', null, null]);
    await stillWorks();
  });

  it('has no require and no process', async () => {
    expect((await failure("require('fs')")).message).toContain('require is not defined');
    expect((await failure('process.exit(1)')).message).toContain('process is not defined');
    expect(await run('[typeof require, typeof process, typeof module, typeof setTimeout]')).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
    await stillWorks();
  });

  it('fails import() cleanly as a GUEST error', async () => {
    expect((await failure("import('fs')")).kind).toBe('GUEST');
    expect((await failure("import('fs').then((fs) => fs.readFileSync('/etc/passwd'));\n1")).kind).toBe('GUEST');
    expect(await run("let msg = 'pending';\nimport('fs').catch((e) => { msg = e.message; });\n'ran'")).toBe('ran');
    await stillWorks();
  });

  it('adds nothing to globalThis but args and vance', async () => {
    const { runInNewContext } = await import('node:vm');
    const standard = new Set(runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]);
    const names = await run('Object.getOwnPropertyNames(globalThis)', { bindings: { fn: () => 1 } }) as string[];
    expect(names.filter((n) => !standard.has(n)).sort()).toEqual(['args', 'vance']);
  });

  // Load: the loop never ends, so only the limit can stop it; the run's own 100 ms (not the
  // sandbox's 20 s default) is proven by the message, not by timing the run.
  it('stops an infinite loop with TIMEOUT at the limit of the run', async () => {
    const error = await failure('for (;;) {}', { timeoutMs: 100 });
    expect(error.kind).toBe('TIMEOUT');
    expect(error.message).toMatch(/longer than 100 ms$/);
    await stillWorks();
  });

  // Load: the host call never settles, so only the wall-clock limit can end the run (no elapsed-time check).
  it('counts time blocked in a host function: a host call that never settles is a TIMEOUT', async () => {
    const hang = () => new Promise<never>(() => undefined);
    const error = await failure('vance.hang()', { timeoutMs: 100, bindings: { hang } });
    expect(error.kind).toBe('TIMEOUT');
    expect(error.message).toMatch(/ran longer than 100 ms$/);
    await stillWorks();
  });

  // Load: the bomb grows by 80 KB a step, so it reaches the 32 MB heap limit in a few hundred steps,
  // and the time limit is far away: under load it must still be MEMORY, never TIMEOUT. (The old
  // bomb of tiny strings needed 3-5 s on a busy machine against a 10 s limit.)
  it('stops a memory bomb with MEMORY', async () => {
    const error = await failure('const a = [];\nfor (let i = 0; ; i++) a.push(new Array(10_000).fill("item " + i));', { timeoutMs: 25_000 });
    expect(error.kind).toBe('MEMORY');
    await stillWorks();
  });

  // Load: one allocation, and a time limit far away, so only the memory limits can answer.
  it('never copies a 100 MB string result to the host: MEMORY (isolate limit or result cap)', async () => {
    const error = await failure("'x'.repeat(100 * 1024 * 1024)", { timeoutMs: 25_000 });
    expect(error.kind).toBe('MEMORY');
    await stillWorks();
  });

  it('refuses a result over maxResultChars with MEMORY, naming the cap', async () => {
    const small = new ScriptSandbox({ maxResultChars: 1000 });
    try {
      const error = await failure("'x'.repeat(5000)", {}, small);
      expect(error.kind).toBe('MEMORY');
      expect(await run("'x'.repeat(500)", {}, small)).toHaveLength(500);
    } finally {
      small.dispose();
    }
  });

  it('refuses a result nested deeper than maxDepth with MEMORY', async () => {
    expect((await failure('let o = [];\nfor (let i = 0; i < 100; i++) o = [o];\no')).kind).toBe('MEMORY');
  });

  it('refuses a huge argument to a host function without calling it (MEMORY if uncaught)', async () => {
    let called = 0;
    const bindings = { echo: () => { called++; return 1; } };
    const caught = await run("try { vance.echo('x'.repeat(2e6)) } catch (e) { e.name + ': ' + e.message }", { bindings });
    expect(caught).toMatch(/^RangeError: vance\.echo: the arguments: \d+ characters of JSON, over the limit of 1000000$/);
    expect((await failure("vance.echo('x'.repeat(2e6))", { bindings })).kind).toBe('MEMORY');
    expect(called).toBe(0);
    await stillWorks();
  });

  it('refuses an argument nested deeper than maxDepth on the host side (MEMORY if uncaught)', async () => {
    let called = 0;
    const bindings = { echo: () => { called++; return 1; } };
    expect((await failure('let o = {};\nfor (let i = 0; i < 100; i++) o = { o };\nvance.echo(o)', { bindings })).kind).toBe('MEMORY');
    expect(called).toBe(0);
  });

  it('a script that poisons Object.prototype.toJSON can neither inflate nor fake its error report', async () => {
    const error = await failure("Object.prototype.toJSON = () => 'x'.repeat(5e6);\nthrow new Error('real')");
    expect(error.kind).toBe('GUEST');
    expect(error.message).toBe(`Error: real (${FILE}:2)`);
    await stillWorks();
  });

  it('refuses a circular argument with a clear guest error', async () => {
    const bindings = { echo: (x: unknown) => x as never };
    const value = await run('const o = {};\no.self = o;\ntry { vance.echo(o) } catch (e) { e.message }', { bindings });
    expect(value).toMatch(/^vance\.echo: the arguments cannot be sent to the host: Converting circular structure to JSON/);
    expect((await failure('const o = {};\no.self = o;\nvance.echo(o)', { bindings })).kind).toBe('GUEST');
    await stillWorks();
  });
});
