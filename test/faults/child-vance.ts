/**
 * What the fault tests share: real Vance processes (`api/src/main.ts`) and in-process instances on
 * one PostgreSQL schema, started by the test and stopped after it (`faultRig`), and the skip when
 * TEST_DATABASE_URL is unset (`describeOnPostgres`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase, type Database } from '../../api/src/persistence';
import { testDatabases, type TestDatabase } from '../support/databases';
import { ADMIN_TOKEN, startTestVance, type GraphQLResult, type TestVance } from '../graphql/harness';

const ROOT = path.resolve(__dirname, '../..');

export interface Child {
  child: ChildProcess;
  url: string;
  /** The child's log lines at level warn or above, `message: error` (evidence when a fault breaks something). */
  errors: string[];
}

/** A real Vance process on the test's schema, to be killed. `env` may point DATABASE_URL elsewhere (a proxy). */
export function startChild(db: Database, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH, DATABASE_URL: db.connectionString, VANCE_DATABASE_SCHEMA: db.schema, VANCE_ADMIN_TOKEN: ADMIN_TOKEN,
      PORT: '0', LOG_LEVEL: 'info', VANCE_TURN_SWEEP_MS: '3600000', ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const errors: string[] = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the child Vance exited early with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string; level?: number; err?: { message?: string }; path?: unknown[] };
        if (entry.msg === 'Vance is listening') resolve({ child, url: entry.url!, errors });
        if ((entry.level ?? 0) >= 40) errors.push(`${entry.msg ?? ''}${entry.path ? ` (${entry.path.join('.')})` : ''}: ${entry.err?.message ?? ''}`);
      } catch {
        /* not a log line */
      }
    });
  });
}

/** The children's warnings and errors, counted by message (ids and numbers folded), most frequent first. */
export function logSummary(children: readonly Child[]): string {
  const counts = new Map<string, number>();
  for (const line of children.flatMap((c) => c.errors)) {
    const key = line.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/\d+/g, 'N');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((x, y) => y[1] - x[1]).map(([line, n]) => `${n}× ${line}`).join('\n');
}

export async function gqlAt(url: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult<any>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GraphQLResult<any>;
}

/** The recipe the fault tests spawn: the ford engine, offline provider, no validation round. */
export const PLAIN_RECIPE = 'description: Plain\nengine: ford\nparams:\n  validation: false\n';

/** Creates `project` with the recipe `plain` in it and spawns `count` processes of it; returns their ids. */
export async function plainProcesses(url: string, project: string, count: number): Promise<string[]> {
  await gqlAt(url, `mutation C($p: String!) { createProject(name: $p) { id } }`, { p: project });
  const put = await gqlAt(url, `mutation P($p: String!, $c: String!) { putDocument(layer: PROJECT, project: $p, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, { p: project, c: PLAIN_RECIPE });
  if (put.errors) throw new Error(`the recipe was refused: ${JSON.stringify(put.errors)}`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const spawned = await gqlAt(url, `mutation S($p: String!) { spawnProcess(input: { project: $p, recipe: "plain" }) { id } }`, { p: project });
    if (!spawned.data) throw new Error(`spawnProcess failed: ${JSON.stringify(spawned.errors)}`);
    ids.push(spawned.data.spawnProcess.id as string);
  }
  return ids;
}

/** `describe.each` over PostgreSQL, or one skipped test saying why when TEST_DATABASE_URL is unset. */
export function describeOnPostgres(title: string, body: (driver: TestDatabase) => void): void {
  const postgres = testDatabases().filter((d) => d.name === 'postgres');
  if (postgres.length === 0) {
    describe(title, () => {
      it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    });
  }
  describe.each(postgres)(`${title} ($name)`, body);
}

export interface FaultRig {
  /** The schema's first Database (it ran the migrations); closed, and its schema dropped, after the tests. */
  readonly db: Database;
  /**
   * Set with `ownDatabase`: a database of the test's own, in which every connection belongs to the
   * test, so that terminating them all cannot touch other suites sharing the server.
   */
  readonly databaseUrl: string;
  /** Another Database on the same schema (through `url`, default the server's), closed after the tests. */
  reopen(url?: string): Promise<Database>;
  /** A real Vance process on the schema, killed after the tests. */
  startChild(env?: Record<string, string>): Promise<Child>;
  /** An in-process Vance on `database` (see harness.ts), closed after the tests. */
  startInstance(database: Database, env?: Record<string, string>): Promise<TestVance>;
  /** A connection of the test's own, straight to the database, in the schema; ended after the tests. */
  control(): Promise<pg.Client>;
}

/**
 * Opens the schema in beforeAll and stops whatever the tests started in afterAll: children first
 * (kill -9), then in-process instances, then their databases. With `ownDatabase`, the schema lives
 * in a database created for the test and dropped after it.
 */
export function faultRig(driver: TestDatabase, options: { ownDatabase?: boolean } = {}): FaultRig {
  const children: Child[] = [];
  const instances: TestVance[] = [];
  const databases: Database[] = [];
  const clients: pg.Client[] = [];
  let db: Database | undefined;
  let databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  let ownDatabase: string | null = null;
  beforeAll(async () => {
    if (options.ownDatabase) {
      ownDatabase = `vance_faults_${process.pid}_${randomBytes(4).toString('hex')}`;
      await onServer(databaseUrl, `CREATE DATABASE "${ownDatabase}"`);
      const url = new URL(databaseUrl);
      url.pathname = `/${ownDatabase}`;
      databaseUrl = url.toString();
      db = await openDatabase({ databaseUrl, schema: 'faults', poolSize: 5 });
    } else {
      db = await driver.open();
    }
  });
  afterAll(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => (c.child.exitCode !== null || c.child.signalCode !== null ? null : new Promise((resolve) => c.child.once('exit', resolve)))));
    for (const i of instances) await i.close().catch(() => undefined);
    for (const client of clients) await client.end().catch(() => undefined);
    for (const d of databases) await d.close().catch(() => undefined);
    await db?.close();
    if (ownDatabase) await onServer(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS "${ownDatabase}" WITH (FORCE)`);
  });
  return {
    get db() {
      return db!;
    },
    get databaseUrl() {
      return databaseUrl;
    },
    async reopen(url = databaseUrl) {
      const opened = await openDatabase({ databaseUrl: url, schema: db!.schema, poolSize: 5 });
      databases.push(opened);
      return opened;
    },
    async startChild(env = {}) {
      const started = await startChild(db!, { DATABASE_URL: databaseUrl, ...env });
      children.push(started);
      return started;
    },
    async startInstance(database, env = {}) {
      const started = await startTestVance(database, env);
      instances.push(started);
      return started;
    },
    async control() {
      const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${db!.schema}` });
      await client.connect();
      clients.push(client);
      return client;
    },
  };
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
