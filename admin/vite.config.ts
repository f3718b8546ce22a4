/**
 * The dashboard build: served by the API at /admin (api/src/graphql/admin-static.ts) from admin/dist.
 * `npm run dev` runs this dev server with hot reload and proxies /graphql (HTTP and WebSocket) to the
 * API on VANCE_API_URL (default http://127.0.0.1:$PORT, PORT 4000).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.VANCE_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? '4000'}`;

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  server: {
    port: Number(process.env.ADMIN_DEV_PORT ?? 5173),
    proxy: { '/graphql': { target: api, ws: true, changeOrigin: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4000, sourcemap: false },
});
