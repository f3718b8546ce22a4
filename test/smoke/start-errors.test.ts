import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 18: a user error at start (bad configuration, a bad DATABASE_URL, a data directory in use,
// a port taken) is found before any migration runs and reported as one line on stderr, without a
// stack trace, with a non-zero exit code. Each case starts the real server process.
const ROOT = path.resolve(__dirname, '../..');

interface Exited { code: number | null; stderr: string }

function startVance(env: Record<string, string>): Promise<Exited> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Load: a guard against a hang (a start that did not fail), not a speed check.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => child.once('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stderr });
  }));
}

function expectOneLine(exited: Exited, pattern: RegExp): void {
  const lines = exited.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines, exited.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Vance failed to start: /);
  expect(lines[0]).toMatch(pattern);
  expect(exited.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(exited.code).not.toBe(0);
  expect(exited.code).not.toBeNull();
}

describe('a user error at start is one line on stderr, found before any migration', () => {
  const dirs: string[] = [];
  let busy: Server;
  let busyPort: number;
  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'vance-start-error-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an invalid VANCE_* value', async () => {
    const dataDir = freshDir();
    expectOneLine(await startVance({ VANCE_DATA_DIR: dataDir, VANCE_TURN_SLOTS: 'lots' }), /VANCE_TURN_SLOTS must be an integer/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 150_000);

  it('a DATABASE_URL of another kind, and one nothing answers at', async () => {
    expectOneLine(await startVance({ DATABASE_URL: 'mysql://root@127.0.0.1/vance' }), /DATABASE_URL must be a postgres/);
    // Port 1: refused at once, no server needed.
    const refused = await startVance({ DATABASE_URL: 'postgres://vance:secret@127.0.0.1:1/vance' });
    expectOneLine(refused, /cannot connect to the database at 127\.0\.0\.1:1\/vance: .*ECONNREFUSED.*check DATABASE_URL/);
    expect(refused.stderr).not.toContain('secret');
  }, 150_000);

  it('a data directory in use by another Vance', async () => {
    const dataDir = freshDir();
    // This test process is alive: to Vance it is the other instance holding the directory.
    fs.writeFileSync(path.join(dataDir, 'vance.lock'), String(process.pid));
    expectOneLine(await startVance({ VANCE_DATA_DIR: dataDir }), new RegExp(`data directory .* is in use by process ${process.pid}`));
    expect(fs.readdirSync(dataDir)).toEqual(['vance.lock']); // no cluster: PGlite never opened it
    expect(fs.readFileSync(path.join(dataDir, 'vance.lock'), 'utf8')).toBe(String(process.pid));
  }, 150_000);

  it('a port taken by another process', async () => {
    const dataDir = freshDir();
    expectOneLine(await startVance({ VANCE_DATA_DIR: dataDir, PORT: String(busyPort) }), new RegExp(`port ${busyPort} on 127\\.0\\.0\\.1 is in use`));
    expect(fs.readdirSync(dataDir)).toEqual([]); // not initialised, nothing migrated
  }, 150_000);
});
