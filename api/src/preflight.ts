/**
 * What a user can get wrong at start, checked before any database is opened or migrated (issue 18):
 * the port, the embedded data directory's lock, the PostgreSQL connection. Each failure is a
 * StartError, which main.ts prints as one line without a stack trace.
 */
import fs from 'node:fs';
import net from 'node:net';
import type * as Pg from 'pg';
import { lockDataDir } from './persistence/data-dir-lock';

/** A start refused for a reason the user can fix; its message says what to do. */
export class StartError extends Error {}

/** Listens on the port for a moment, so a taken port is found now, not after the migrations. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return; // any free port
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (err) {
    throw new StartError(portMessage(host, port, err as NodeJS.ErrnoException));
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

function portMessage(host: string, port: number, err: NodeJS.ErrnoException): string {
  if (err.code === 'EADDRINUSE') return `port ${port} on ${host} is in use by another process; stop it, or set PORT to a free port`;
  if (err.code === 'EACCES') return `port ${port} on ${host} needs privileges this process lacks; set PORT to 1024 or above`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return `HOST ${host} is not an address of this machine; set HOST to one (default 127.0.0.1)`;
  return `cannot listen on ${host}:${port}: ${err.message}`;
}

/**
 * Takes the embedded data directory's lock (creating the directory), so a directory in use by
 * another Vance is refused before PGlite touches it. The PGlite pool takes the lock over (same pid).
 */
export function lockEmbeddedDataDir(dataDir: string): () => void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new StartError(`cannot create the data directory ${dataDir}: ${(err as Error).message}; set VANCE_DATA_DIR to a writable directory`);
  }
  return lockDataDir(dataDir);
}

/** Connects once to DATABASE_URL, so a wrong or unreachable server is reported in one line. */
export async function checkDatabaseReachable(url: string, timeoutMs = 10_000): Promise<void> {
  // Required here, not imported: main.ts starts the embedded database's thread before pg is loaded.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as typeof Pg;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {}); // a late socket error after a failed connect is the same failure
  try {
    await client.connect();
  } catch (err) {
    throw new StartError(`cannot connect to the database at ${describeUrl(url)}: ${(err as Error).message}; check DATABASE_URL`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Host, port and database of a URL, without its user or password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
