import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, TypeOrmIdentityStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';

const TABLES = [
  'api_tokens', 'client_tool_calls', 'document_versions', 'documents', 'lane_leases', 'messages', 'process_events', 'process_inbox', 'processes', 'project_members', 'projects',
  'sessions', 'settings', 'tenants', 'turn_events', 'turns', 'users',
];
const MIGRATION_NAMES = ['Init1764500000000', 'Processes1764600000000', 'Turns1764700000000', 'Sandbox1764800000000', 'Activation1764900000000', 'LaneLeases1765000000000', 'CommittedEvents1765100000000', 'ProcessMode1765200000000', 'ProcessTitleGoal1765300000000', 'GuardScratch1765400000000'];

const tablesOf = async (db: Database): Promise<string[]> =>
  (
    await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_name <> 'migrations' ORDER BY table_name`,
    )
  ).map((r: { table_name: string }) => r.table_name);

describe('migrations on a file-backed PGlite data dir', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vance-pglite-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('initialises once, is idempotent, and keeps data across reopen', async () => {
    const dir = path.join(dataDir, 'nested', 'data'); // created on demand
    const logged: object[] = [];
    const logger = { info: (o: object) => void logged.push(o) };
    expect(await migrate({ dataDir: dir, logger })).toEqual(MIGRATION_NAMES);
    const db = await openDatabase({ dataDir: dir, logger });
    expect(db.driver).toBe('pglite');
    expect(logged.at(-1)).toMatchObject({ driver: 'pglite', migrationsApplied: [] });
    await new TypeOrmIdentityStore(db.dataSource).createTenant('kept');
    await db.close();
    const again = await openDatabase({ dataDir: dir });
    try {
      expect(await new TypeOrmIdentityStore(again.dataSource).findTenantByName('kept')).toMatchObject({ name: 'kept' });
      expect(await tablesOf(again)).toEqual(TABLES);
    } finally {
      await again.close();
    }
  });
});

describe.each(testDatabases())('the Init migration ($name)', (driver) => {
  let db: Database;
  beforeAll(async () => {
    db = await driver.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates every table and reverses cleanly with down', async () => {
    expect(await tablesOf(db)).toEqual(TABLES);
    expect(await db.dataSource.showMigrations()).toBe(false);
    for (let i = 0; i < MIGRATION_NAMES.length; i++) await db.dataSource.undoLastMigration({ transaction: 'all' });
    expect(await tablesOf(db)).toEqual([]);
    expect(await db.dataSource.showMigrations()).toBe(true);
    expect((await db.dataSource.runMigrations()).map((m) => m.name)).toEqual(MIGRATION_NAMES);
    expect(await tablesOf(db)).toEqual(TABLES);
  });

  it('keeps settings unique per scope, tenant-wide (NULL project) included', async () => {
    const { tenant, tenantProject } = await new TypeOrmIdentityStore(db.dataSource).createTenant('s');
    const insert = (projectId: string | null) =>
      db.dataSource.query(`INSERT INTO settings (tenant_id, project_id, key, value) VALUES ($1, $2, 'model', 'x')`, [tenant.id, projectId]);
    await insert(null);
    await insert(tenantProject.id);
    await expect(insert(null)).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'uq_settings_scope_key' } });
    await expect(insert(tenantProject.id)).rejects.toMatchObject({ driverError: { code: '23505' } });
  });

  it.runIf(driver.reopen)('applies nothing when another instance opens the same schema', async () => {
    const logged: object[] = [];
    const other = await openDatabase({ databaseUrl: db.connectionString, schema: db.schema, logger: { info: (o) => void logged.push(o) } });
    try {
      expect(logged[0]).toMatchObject({ driver: 'postgres', migrationsApplied: [] });
      expect(other.schema).toBe(db.schema);
    } finally {
      await other.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  it('serialises instances that start together on an empty schema', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    // Unique per run, not per pid: suites beside this one on the same server (other checkouts,
    // other containers) must not create or drop it while the three instances start.
    const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}_concurrent`;
    const opened = await Promise.allSettled([1, 2, 3].map(() => openDatabase({ databaseUrl: url, schema, poolSize: 2 })));
    const dbs = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(opened.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(await dbs[0]!.dataSource.query('SELECT name FROM migrations ORDER BY id')).toEqual(MIGRATION_NAMES.map((name) => ({ name })));
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, schema: 'x; DROP TABLE y' })).rejects.toThrow(/Invalid schema/);
  });
});
