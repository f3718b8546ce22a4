import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { BUNDLE_FILE, BUNDLE_INPUTS_FILE } from './bundle-files';

/**
 * `npm run build`'s step after tsc (issue 18: the start's time): what main.ts loads after PGlite's
 * thread has started (late-modules.ts: the rest of Vance and its JavaScript dependencies) as one file,
 * `main.bundle.js` beside `main.js`; main.ts loads it when it is current (bundle-files.ts). A start
 * read, resolved and compiled ~1,600 files; now one. Left outside: the files main.ts loads before
 * the thread starts (required from the bundle, so there is one copy of each: one ConfigError, one
 * lock), what ships native code or WebAssembly and finds its files beside itself (isolated-vm,
 * PGlite — its thread, pglite-thread.js, stays tsc's file), and what is only reached through require.resolve.
 */
const SRC = __dirname; // api/dist/api/src
// The MCP SDK is loaded on first use (mcp/mcp-sdk.ts); outside the bundle, a start does not even read it.
const EXTERNAL = ['isolated-vm', '@electric-sql/pglite', '@electric-sql/pglite/*', 'pg-native', 'nunjucks/browser/nunjucks.js', 'recheck', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];

/**
 * In one file every module's `__dirname` would be the bundle's folder; piscina finds its worker,
 * Vance its PGlite thread and template folder through theirs. Each module gets its own folder back,
 * relative to the bundle, so the dist folder can still be moved as a whole.
 */
const ownFolders: Plugin = {
  name: 'own-dirname',
  setup(bundler) {
    bundler.onLoad({ filter: /\.c?js$/ }, async (args) => {
      const code = await fs.promises.readFile(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(code)) return undefined;
      const file = JSON.stringify(path.relative(SRC, args.path));
      const folder = JSON.stringify(path.relative(SRC, path.dirname(args.path)));
      const contents = code
        .replace(/\b__dirname\b/g, `require("node:path").join(__dirname, ${folder})`)
        .replace(/\b__filename\b/g, `require("node:path").join(__dirname, ${file})`);
      return { contents, loader: 'js' };
    });
  },
};

/** The build's own files main.js loads before the bundle: its imports (a bundle of main.js with the late part left out). */
async function earlyFiles(): Promise<Set<string>> {
  const leaveOutLate: Plugin = {
    name: 'leave-out-late',
    setup(bundler) {
      bundler.onResolve({ filter: /late-modules$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
  const result = await build({
    entryPoints: [path.join(SRC, 'main.js')], bundle: true, write: false, platform: 'node', format: 'cjs',
    packages: 'external', plugins: [leaveOutLate], metafile: true, logLevel: 'error',
  });
  return new Set(Object.keys(result.metafile.inputs).map((input) => path.resolve(input)));
}

/** Those files stay outside the bundle: it requires them from beside itself. */
function requireEarly(early: Set<string>): Plugin {
  return {
    name: 'require-early',
    setup(bundler) {
      bundler.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        const file = [target, `${target}.js`, path.join(target, 'index.js')].find((candidate) => early.has(candidate));
        if (!file) return undefined;
        const relative = path.relative(SRC, file).split(path.sep).join('/');
        return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
      });
    },
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const early = await earlyFiles();
  const result = await build({
    entryPoints: [path.join(SRC, 'late-modules.js')],
    outfile: path.join(SRC, BUNDLE_FILE),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: EXTERNAL,
    plugins: [requireEarly(early), ownFolders],
    metafile: true,
    logLevel: 'warning',
  });
  // The build's own files in it: main.ts loads them instead of the bundle when one is newer (a bare `tsc -b api` since).
  const distRoot = path.resolve(SRC, '../..');
  const own = Object.keys(result.metafile.inputs)
    .map((input) => path.resolve(input))
    .filter((input) => input.startsWith(distRoot + path.sep))
    .map((input) => path.relative(SRC, input));
  // The template's key is the migrations' Function#toString (pglite-template.ts), which a bundle reprints.
  if (own.some((input) => input.startsWith(`..${path.sep}..${path.sep}migrations`))) throw new Error('the migrations must stay outside the bundle');
  fs.writeFileSync(path.join(SRC, BUNDLE_INPUTS_FILE), JSON.stringify(own));
  const size = fs.statSync(path.join(SRC, BUNDLE_FILE)).size;
  console.log(`bundled the server: ${Object.keys(result.metafile.inputs).length} files, ${(size / 1e6).toFixed(1)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err: unknown) => {
  console.error('Could not bundle the server:', err);
  process.exit(1);
});
