import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 18 (the start's time): the built server loads its modules through a V8 code cache
// (api/src/compile-cache.ts). Each run here is a fresh process, as a start is.
const ROOT = path.resolve(__dirname, '../..');
const CACHE = path.join(ROOT, 'api/src/compile-cache.ts');
const builtIn = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Requires `entry` with the cache in `cacheDir`; returns what it exported and the cache's counts. */
function load(entry: string, cacheDir: string): { value: unknown; stats: { hits: number; compiled: number } } {
  const script = `const c = require(${JSON.stringify(CACHE)}); c.enableCompileCache(${JSON.stringify(cacheDir)});
    const value = require(${JSON.stringify(entry)}); console.log(JSON.stringify({ value, stats: c.compileCacheStats }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as never;
}

describe.skipIf(builtIn)('the code cache of CommonJS modules (Node 20; Node 22+ has its own)', () => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'vance-compile-cache-'));
  dirs.push(dir);
  const cacheDir = path.join(dir, 'cache');
  const entry = path.join(dir, 'a.js');
  fs.writeFileSync(entry, [
    "const b = require('./b');",
    'module.exports = { b: b.word, self: this === module.exports, dir: __dirname, file: __filename,',
    "  resolved: require.resolve('./b'), main: require.main === process.mainModule, cached: require.cache[__filename] === module };",
  ].join('\n'));
  fs.writeFileSync(path.join(dir, 'b.js'), "exports.word = 'alpha';\n");
  const expected = { b: 'alpha', self: true, dir, file: entry, resolved: path.join(dir, 'b.js'), main: true, cached: true };

  it('a module sees what Node gives it; the first run writes the cache at exit, the next one reads it', () => {
    const first = load(entry, cacheDir);
    expect(first.value).toEqual(expected);
    expect(first.stats).toEqual({ hits: 0, compiled: 2 });
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);

    const second = load(entry, cacheDir);
    expect(second.value).toEqual(expected);
    expect(second.stats).toEqual({ hits: 2, compiled: 0 });
  });

  it('an edited module of the same length is compiled afresh (V8 alone checks only the length)', () => {
    load(entry, cacheDir);
    fs.writeFileSync(path.join(dir, 'b.js'), "exports.word = 'omega';\n");
    const edited = load(entry, cacheDir);
    expect(edited.value).toEqual({ ...expected, b: 'omega' });
    expect(edited.stats).toEqual({ hits: 1, compiled: 1 });
    expect(load(entry, cacheDir).stats).toEqual({ hits: 2, compiled: 0 }); // the new entry replaced the old one
  });

  it('a cache file cut short costs only the cache', () => {
    const [file] = fs.readdirSync(cacheDir);
    const full = fs.readFileSync(path.join(cacheDir, file!));
    fs.writeFileSync(path.join(cacheDir, file!), full.subarray(0, full.length - 10));
    const run = load(entry, cacheDir);
    expect(run.value).toEqual({ ...expected, b: 'omega' });
    expect(run.stats.hits + run.stats.compiled).toBe(2);
  });

  it("a module with import() takes Node's own path, and its import() loads (the bundled server has some)", () => {
    const importing = path.join(dir, 'importing.js');
    fs.writeFileSync(importing, "module.exports = { later: () => import('node:path').then((p) => p.sep) };\n");
    const script = (cache: string) => `const c = require(${JSON.stringify(CACHE)}); c.enableCompileCache(${JSON.stringify(cache)});
      require(${JSON.stringify(importing)}).later().then((sep) => console.log(JSON.stringify({ sep, stats: c.compileCacheStats })));`;
    const run = () => {
      const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script(path.join(dir, 'cache-import'))], { cwd: ROOT, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout.trim().split('\n').pop()!) as { sep: string; stats: { hits: number; compiled: number } };
    };
    // vm's loader for import() is lost when a script comes from cached data (Node 20.20), so such a module is never cached.
    expect(run()).toEqual({ sep: path.sep, stats: { hits: 0, compiled: 0 } });
    expect(run()).toEqual({ sep: path.sep, stats: { hits: 0, compiled: 0 } });
  });
});
