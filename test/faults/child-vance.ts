/** A real Vance process (`api/src/main.ts`) on a test's PostgreSQL schema, for the fault tests to kill. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Database } from '../../api/src/persistence';
import { ADMIN_TOKEN, type GraphQLResult } from '../graphql/harness';

const ROOT = path.resolve(__dirname, '../..');

export interface Child { child: ChildProcess; url: string }

/** A real Vance process on the test's schema, to be killed. */
export function startChild(db: Database, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH, DATABASE_URL: db.connectionString, VANCE_DATABASE_SCHEMA: db.schema, VANCE_ADMIN_TOKEN: ADMIN_TOKEN,
      PORT: '0', LOG_LEVEL: 'info', VANCE_TURN_SWEEP_MS: '3600000', ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the child Vance exited early with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'Vance is listening') resolve({ child, url: entry.url! });
      } catch {
        /* not a log line */
      }
    });
  });
}

export async function gqlAt(url: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult<any>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GraphQLResult<any>;
}

