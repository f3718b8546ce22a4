/**
 * A V8 code cache for the CommonJS modules the built server loads (issue 18: the start's time).
 * Compiling the ~1,400 modules of a start (TypeORM, graphql, Apollo, Vance) was a fifth of the main
 * thread's start; with V8's cached data a module's functions are deserialized instead of compiled.
 * Node 22+ has this built in (`module.enableCompileCache`), which is used there; Node 20 has not,
 * so there CommonJS compilation goes through vm.Script with `cachedData`, as v8-compile-cache did.
 *
 * Entries are keyed by file name and a hash of the source (V8 itself checks only the source's
 * length), so an edited file is compiled afresh. The cache is written once, at exit, and only when
 * a module was compiled without it. Any failure to read or write it only costs the cache.
 *
 * Written here rather than taken from v8-compile-cache 2.4.0 (the library for this): tried on this
 * build (2026-12-04), it compiles every file require() loads as CommonJS, so the start failed at the
 * first ES module a dependency requires (Node 20.19's require(esm): async-function/require.mjs,
 * "Cannot use import statement outside a module"). This one hands such files back to Node.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

interface Cjs {
  exports: unknown;
  require(id: string): unknown;
}
type Compile = (this: Cjs, content: string, filename: string, format?: string) => unknown;
interface CjsInternals {
  prototype: { _compile: Compile };
  _resolveFilename(request: string, parent: Cjs, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: Cjs): string[] | null;
  _extensions: unknown;
  _cache: unknown;
  wrap(content: string): string;
  enableCompileCache?: (dir: string) => unknown;
}

const FILE_NAME = `v8-${process.version}-${process.arch}.bin`;

/** This thread's counts on Node 20 (tests): modules compiled with cached data, and without. */
export const compileCacheStats = { hits: 0, compiled: 0 };

/** Installs the cache in `dir` for the modules loaded from now on in this thread. */
export function enableCompileCache(dir: string): void {
  const cjs = Module as unknown as CjsInternals;
  if (cjs.enableCompileCache) {
    cjs.enableCompileCache(dir);
    return;
  }
  const file = path.join(dir, FILE_NAME);
  const stored = readEntries(file);
  const compiled = new Map<string, vm.Script>();
  const original = cjs.prototype._compile;
  cjs.prototype._compile = function compile(this: Cjs, content, filename, format) {
    // ES modules, and scripts that may import() (they would need vm's experimental loader, whose
    // callback Node 20.20 loses when the script comes from cached data), take Node's own path.
    if (format === 'module' || filename.endsWith('.mjs') || content.includes('import(')) return original.call(this, content, filename, format);
    const key = `${filename}\0${createHash('sha1').update(content).digest('base64')}`;
    const cachedData = stored.get(key);
    let script: vm.Script;
    try {
      script = new vm.Script(cjs.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    } catch {
      return original.call(this, content, filename, format); // Node reports the syntax error its own way
    }
    if (!cachedData || script.cachedDataRejected) compiled.set(key, script);
    else compileCacheStats.hits += 1;
    compileCacheStats.compiled = compiled.size;
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(cjs, this), this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (compiled.size > 0) writeEntries(file, stored, compiled);
  });
}

/** What Node's own `require` inside a module is (node:internal/modules/helpers makeRequireFunction). */
function requireFor(cjs: CjsInternals, mod: Cjs): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) => cjs._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => cjs._resolveLookupPaths(request, mod);
  return Object.assign(require, { resolve, main: process.mainModule, extensions: cjs._extensions, cache: cjs._cache });
}

/** The file: repeated [key length u32][data length u32][key utf8][data]. */
function readEntries(file: string): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let buffer: Buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch {
    return entries;
  }
  for (let offset = 0; offset + 8 <= buffer.length;) {
    const keyLength = buffer.readUInt32LE(offset);
    const dataLength = buffer.readUInt32LE(offset + 4);
    const keyEnd = offset + 8 + keyLength;
    if (keyEnd + dataLength > buffer.length) break; // a torn file: what was read so far is fine
    entries.set(buffer.toString('utf8', offset + 8, keyEnd), buffer.subarray(keyEnd, keyEnd + dataLength));
    offset = keyEnd + dataLength;
  }
  return entries;
}

/** Old entries stay unless their file was compiled afresh (it changed); written beside, then renamed into place. */
function writeEntries(file: string, stored: Map<string, Buffer>, compiled: Map<string, vm.Script>): void {
  const fresh = new Set([...compiled.keys()].map((key) => key.slice(0, key.indexOf('\0'))));
  const parts: Buffer[] = [];
  const add = (key: string, data: Buffer) => {
    const header = Buffer.alloc(8);
    const keyBytes = Buffer.from(key, 'utf8');
    header.writeUInt32LE(keyBytes.length, 0);
    header.writeUInt32LE(data.length, 4);
    parts.push(header, keyBytes, data);
  };
  for (const [key, data] of stored) if (!compiled.has(key) && !fresh.has(key.slice(0, key.indexOf('\0')))) add(key, data);
  for (const [key, script] of compiled) add(key, script.createCachedData());
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, Buffer.concat(parts));
    fs.renameSync(temporary, file);
  } catch {
    fs.rmSync(temporary, { force: true }); // a read-only install starts without the cache
  }
}
