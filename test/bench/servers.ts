/**
 * The servers under benchmark, in their own process so the load generator does not share their
 * event loop: a bare node:http JSON endpoint (the physical limit), and Vance on one database twice —
 * with the document cache and without it (the naive path of DESIGN §4). The database is PGlite, or
 * PostgreSQL when TEST_DATABASE_URL is set (test/support/databases.ts).
 * Prints one JSON line with the URLs (and `cpu`: this process's CPU time), then serves until SIGTERM.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { benchDatabase } from '../support/databases';

export const BENCH_TOKEN = 'bench-admin-token-0123456789';

/**
 * The document `effectiveDocument` serves: a valid recipe of a bundled recipe's shape, ~0.7 KB.
 * (It was `'engine: ford\n'.repeat(50)` until validation refused duplicate YAML keys, issue 12.)
 */
const BENCH_RECIPE = [
  'title: Bench',
  'description: The recipe the throughput bench reads through effectiveDocument.',
  'engine: ford',
  'tags: [bench]',
  'params:',
  '  maxIterations: 10',
  '  temperature: 0.2',
  'allowedToolsRemove:',
  '  - "@destructive"',
  'promptPrefix: |',
  ...Array.from({ length: 12 }, (_, i) => `  ${i + 1}. Work in small steps, cite what each tool returned, and keep the answer short.`),
  '',
].join('\n');

async function main(): Promise<void> {
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    // GET /cpu: this process's CPU time so far (µs), which run.ts divides by the requests between two reads.
    if (req.url === '/cpu') return void res.end(JSON.stringify(process.cpuUsage()));
    res.end('{"data":{"ok":true}}');
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-'));
  const logger = pino({ level: 'silent' });
  const database = await benchDatabase().open();
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: BENCH_TOKEN, VANCE_DATA_DIR: dataDir });
  const cached = await startVance({ config, logger, database });
  const naive = await startVance({ config, logger, database, documentCache: { disabled: true } });
  // SIGTERM from run.ts: close, so a PostgreSQL bench schema is dropped again.
  process.once('SIGTERM', () => {
    void (async () => {
      await Promise.all([cached.close(), naive.close(), new Promise((r) => bare.close(r))]);
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  await cached.services.documents.put(
    await cached.services.identity.authenticate(BENCH_TOKEN), 'VANCE', null, '_vance/recipes/bench.yaml', BENCH_RECIPE,
  );
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  console.log(JSON.stringify({ bare: bareUrl, cpu: `${bareUrl}cpu`, cached: cached.url, naive: naive.url }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
