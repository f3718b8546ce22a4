import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// The README's promise, as a process: the service starts on the embedded database with no
// configuration, prints the generated admin token once, answers `me` with it, refuses a request
// without it, shuts down cleanly on SIGTERM, and keeps its data across a restart.
const ROOT = path.resolve(__dirname, '../..');

interface Started { child: ChildProcess; url: string; logs: Record<string, any>[] }

function start(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, VANCE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: Record<string, any>[] = [];
  return new Promise((resolve, reject) => {
    // Load: a guard against a hang, not a speed check; a start on a busy 2-core machine took ~30 s.
    const timer = setTimeout(() => reject(new Error('Vance did not start in 180 s')), 180_000);
    child.once('exit', (code) => reject(new Error(`Vance exited early with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, any>;
        logs.push(entry); if (process.env.SMOKE_DEBUG) console.error(line);
        if (entry.msg === 'Vance is listening') {
          clearTimeout(timer);
          resolve({ child, url: entry.url, logs });
        }
      } catch {
        /* not a log line */
      }
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function me(url: string, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: '{ me { login } }' }),
  });
  return (await res.json()) as { data?: { me?: { login: string } }; errors?: { extensions?: { code?: string } }[] };
}

describe('npm start on the embedded database', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the API with a generated admin token, stops on SIGTERM and keeps its data', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vance-smoke-'));
    const first = await start(dataDir);
    const token = first.logs.find((l) => typeof l.adminToken === 'string')?.adminToken as string;
    expect(token).toMatch(/^vance_/);
    expect((await me(first.url, token)).data?.me?.login).toBe('admin');
    expect((await me(first.url)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await stop(first.child)).toBe(0);

    const second = await start(dataDir);
    expect(second.logs.some((l) => 'adminToken' in l)).toBe(false);
    expect((await me(second.url, token)).data?.me?.login).toBe('admin');
    expect(await stop(second.child)).toBe(0);
  }, 420_000);
});
