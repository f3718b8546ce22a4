import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 18 (the embedded start's time): main.ts starts PGlite's thread before it loads pg, pino,
// TypeORM and the rest of Vance, so the thread's WebAssembly start overlaps their loading. The
// server process runs with a preload that, when the first worker thread is created, prints which of
// those packages are loaded already and ends the process.
const ROOT = path.resolve(__dirname, '../..');
const HOOK = `
const threads = require('node:worker_threads');
const Worker = threads.Worker;
threads.Worker = function (file) {
  const loaded = ['pg', 'pino', 'typeorm', 'graphql', '@apollo/server'].filter((name) =>
    Object.keys(require.cache).some((key) => key.includes('/node_modules/' + name + '/')));
  process.stdout.write(JSON.stringify({ first: String(file).includes('pglite-thread'), loaded }) + '\\n');
  process.exit(0);
  return new Worker(...arguments);
};
`;

describe('the embedded start', () => {
  const work = fs.mkdtempSync(path.join(tmpdir(), 'vance-start-order-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("starts PGlite's thread before pg, pino, TypeORM, graphql and Apollo are loaded", () => {
    const hook = path.join(work, 'hook.cjs');
    fs.writeFileSync(hook, HOOK);
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--require', hook, '--import', 'tsx', 'api/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', VANCE_DATA_DIR: path.join(work, 'data') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ first: true, loaded: [] });
  });
});
