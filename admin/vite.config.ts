/**
 * The dashboard build: served by the API at /admin (api/src/graphql/admin-static.ts) from admin/dist.
 * `npm run dev` runs this dev server with hot reload and proxies /graphql (HTTP and WebSocket) to the
 * API on VANCE_API_URL (default http://127.0.0.1:$PORT, PORT 4000).
 * Pages are split into their own chunks (src/pages.tsx); the editor (CodeMirror) is a chunk of its
 * own that only the editing pages load. Every text file is also written precompressed (.br, .gz),
 * which the API serves to clients that accept it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.VANCE_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? '4000'}`;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** Writes `<file>.br` and `<file>.gz` beside every text file of the build, where they are smaller. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'vance-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of files(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  server: {
    port: Number(process.env.ADMIN_DEV_PORT ?? 5173),
    proxy: { '/graphql': { target: api, ws: true, changeOrigin: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4000, sourcemap: false },
});
