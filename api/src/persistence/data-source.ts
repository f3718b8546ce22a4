/**
 * Opens the one database of an instance (DESIGN §3): PostgreSQL when a URL is given, otherwise the
 * embedded PGlite under the data directory. Opening runs the pending migrations, so callers never
 * see an outdated schema. Owns the TypeORM DataSource options for both drivers.
 */
import 'reflect-metadata';
import pg from 'pg';
import { GuardedClient } from './guarded-client';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { ENTITIES } from './entities';
import { openPglite, type PgliteDriver } from './pglite-pool';

export interface DatabaseLogger {
  info(obj: object, msg?: string): void;
}

export interface OpenDatabaseOptions {
  /** postgres://… selects PostgreSQL; without it the embedded PGlite is used. */
  readonly databaseUrl?: string | undefined;
  /** PGlite data directory (created if missing); undefined or 'memory://' = in memory. */
  readonly dataDir?: string | undefined;
  /** PostgreSQL only: work in this schema (created if missing) through the search_path. */
  readonly schema?: string | undefined;
  readonly logger?: DatabaseLogger | undefined;
  /** PGlite only: start from a `dumpDataDir()` tar instead of an empty cluster (test templates). */
  readonly loadDataDir?: Blob | undefined;
  /** PostgreSQL only: connections in the pool (default 10). */
  readonly poolSize?: number | undefined;
  /** PGlite only: where the packaged template of a fresh data directory is looked for (pglite-template.ts). */
  readonly templateRoot?: string | undefined;
  /** PGlite only: the driver, already being opened (main.ts starts it before loading the rest of Vance). */
  readonly embedded?: Promise<PgliteDriver> | undefined;
}

export interface Database {
  readonly dataSource: DataSource;
  readonly driver: 'postgres' | 'pglite';
  /** PostgreSQL only: the URL, for connections outside the pool (PgEventBus's LISTEN client). */
  readonly connectionString?: string;
  /** PostgreSQL only: the schema in use when one was given (namespaces PgEventBus channels). */
  readonly schema?: string;
  /** PGlite only: a tar of the data directory (see `loadDataDir`). */
  readonly dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

const COMMON = {
  type: 'postgres',
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTransactionMode: 'all',
  synchronize: false,
  migrationsRun: false,
  // gen_random_uuid() is core since PostgreSQL 13 and in PGlite; never CREATE EXTENSION (STACK §4).
  installExtensions: false,
  uuidExtension: 'pgcrypto',
  logging: false,
} as const;

/** Two-key advisory lock space for migrations: (MIGRATION_LOCK, hashtext(schema)). */
const MIGRATION_LOCK = 0x76616e; // 'van'

/** Opens the database and applies pending migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const started = Date.now();
  let ranInitdb = false;
  let db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options)
    : await openEmbedded(options, (driver) => (ranInitdb = driver.ranInitdb));
  let applied: string[];
  try {
    applied = await runPendingMigrations(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  if (ranInitdb) {
    // initdb and the first migrations grow PGlite's WebAssembly memory by ~500 MB, which it never
    // gives back; a fresh PGlite on the now complete directory starts small (issue 18).
    await db.close();
    db = await openEmbedded({ ...options, embedded: undefined });
  }
  options.logger?.info({ driver: db.driver, migrationsApplied: applied, reopened: ranInitdb, ms: Date.now() - started }, 'database open');
  return db;
}

/** Opens, migrates and closes; returns the names of the migrations it applied. */
export async function migrate(options: OpenDatabaseOptions): Promise<string[]> {
  const db = options.databaseUrl ? await openPostgres(options.databaseUrl, options) : await openEmbedded(options);
  try {
    const applied = await runPendingMigrations(db);
    options.logger?.info({ driver: db.driver, migrationsApplied: applied }, 'migrations done');
    return applied;
  } finally {
    await db.close();
  }
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const schema = options.schema === undefined ? undefined : checkSchemaName(options.schema);
  if (schema) await createSchema(url, schema);
  const dataSource = new DataSource({
    ...COMMON,
    url,
    poolSize: options.poolSize ?? 10,
    applicationName: 'vance',
    // Migrations use unqualified names, so the search_path (not only TypeORM's `schema`) must point
    // at the schema, or tables would land in public (STACK §8).
    ...(schema ? { schema } : {}),
    extra: { Client: GuardedClient, ...(schema ? { options: `-c search_path=${schema}` } : {}) },
  });
  await dataSource.initialize();
  return {
    dataSource,
    driver: 'postgres',
    connectionString: url,
    ...(schema ? { schema } : {}),
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

async function openEmbedded(options: OpenDatabaseOptions, opened: (driver: PgliteDriver) => void = () => {}): Promise<Database> {
  const pglite = await (options.embedded ?? openPglite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, templateRoot: options.templateRoot }));
  opened(pglite);
  const dataSource = new DataSource({ ...COMMON, driver: pglite });
  try {
    await dataSource.initialize();
  } catch (err) {
    await pglite.close();
    throw err;
  }
  return {
    dataSource,
    driver: 'pglite',
    dumpDataDir: () => pglite.dumpDataDir(),
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await pglite.close(); // idempotent; covers a DataSource that never initialised its pool
    },
  };
}

/**
 * TypeORM does not lock its migrations table, so two instances starting together on one
 * PostgreSQL would both run a migration; a session advisory lock per schema serialises them.
 * PGlite has one session and one process, so it needs (and, with a pool of 1, allows) no lock.
 */
async function runPendingMigrations(db: Database): Promise<string[]> {
  if (await allMigrationsApplied(db)) return [];
  const run = async () => (await db.dataSource.runMigrations({ transaction: 'all' })).map((m) => m.name);
  if (db.driver === 'pglite') return run();
  const runner = db.dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1, hashtext(current_schema()))', [MIGRATION_LOCK]);
    try {
      return await run();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1, hashtext(current_schema()))', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * The start's check (issue 18): one SELECT of the applied names. TypeORM's runMigrations first asks
 * information_schema whether its table exists, then reads it — two statements on a cold catalog.
 * Anything missing, the table included (the SELECT fails), goes the full way above. Applied names
 * are committed with their migration (transaction 'all'), so seeing every name means nothing is
 * half done, on PostgreSQL without taking the lock.
 */
async function allMigrationsApplied(db: Database): Promise<boolean> {
  const table = db.schema ? `"${db.schema}"."migrations"` : '"migrations"';
  let rows: { name: string }[];
  try {
    rows = (await db.dataSource.query(`SELECT "name" FROM ${table}`)) as { name: string }[];
  } catch {
    return false; // no migrations table yet: a new database
  }
  const applied = new Set(rows.map((row) => row.name));
  return MIGRATIONS.every((migration) => applied.has(migrationName(migration)));
}

/** The name TypeORM records for a migration: its `name` property, else its class name (MigrationExecutor). */
function migrationName(migration: (typeof MIGRATIONS)[number]): string {
  return (new migration() as { name?: string }).name ?? migration.name;
}

function checkSchemaName(schema: string): string {
  // It is interpolated into the startup `options` and into DDL, so only plain identifiers pass.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name '${schema}'`);
  return schema;
}

async function createSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (err) {
    // Two instances creating the same schema at once can still collide on the catalog row.
    const code = (err as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P06') throw err;
  } finally {
    await client.end();
  }
}
