import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/src/persistence';
import { pgliteTemplate } from '../support/pglite-template';

// Issue 18: SIGTERM/SIGINT were listened to only once the start had finished, so a signal during
// the start killed the process with the embedded database half open and its lock left behind.
// Here a preload sends SIGTERM to the server when PGlite's thread is created — the middle of the
// start — and the server must close cleanly: exit 0, the lock released, the directory opens again.
const ROOT = path.resolve(__dirname, '../..');
const HOOK = `
const threads = require('node:worker_threads');
const Worker = threads.Worker;
threads.Worker = function (file) {
  if (String(file).includes('pglite-thread')) process.kill(process.pid, 'SIGTERM');
  return new Worker(...arguments);
};
`;

describe('a signal during the start', () => {
  const work = fs.mkdtempSync(path.join(tmpdir(), 'vance-signal-start-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('closes the embedded database cleanly: exit 0, lock released, the directory opens again', async () => {
    const dataDir = path.join(work, 'data');
    // An existing data directory (the migrated test template), so the start needs no initdb.
    await (await openDatabase({ dataDir, loadDataDir: await pgliteTemplate() })).close();
    const hook = path.join(work, 'hook.cjs');
    fs.writeFileSync(hook, HOOK);
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--require', hook, '--import', 'tsx', 'api/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', VANCE_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: run.status, signal: run.signal }, run.stderr).toEqual({ status: 0, signal: null });
    expect(run.stdout).toContain('"signal":"SIGTERM","msg":"shutting down"');
    expect(fs.existsSync(path.join(dataDir, 'vance.lock'))).toBe(false);
    const again = await openDatabase({ dataDir });
    try {
      const rows = await again.dataSource.query('SELECT count(*)::int AS n FROM migrations');
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await again.close();
    }
  }, 180_000);
});
