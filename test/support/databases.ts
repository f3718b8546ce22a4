/**
 * The databases every database test runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL
 * is set (CI). Use `describe.each(testDatabases())('… ($name)', (db) => …)` and open ONE database
 * per file in beforeAll (a PGlite instance costs ~0.5 GB). On PostgreSQL each open() gets its own
 * schema `t_<pid>_<random>` (through the search_path), dropped again by close(). The benchmarks
 * take one database the same way (benchDatabase).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../api/src/persistence';
import { forgetPgliteTemplate, pgliteTemplate } from './pglite-template';

export interface TestDatabase {
  readonly name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database; its close() also removes it. */
  open(): Promise<Database>;
  /** PostgreSQL only: another instance's view of `db` (same schema); its close() keeps the schema. */
  reopen?(db: Database): Promise<Database>;
}

export function testDatabases(): TestDatabase[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}

/** The one database a benchmark (test/bench) runs on: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export function benchDatabase(): TestDatabase {
  const url = process.env.TEST_DATABASE_URL;
  return url ? postgres(url) : pglite;
}

const pglite: TestDatabase = {
  name: 'pglite',
  async open() {
    try {
      return await openDatabase({ loadDataDir: await pgliteTemplate() });
    } catch (err) {
      // A damaged cache file must not fail every run until someone deletes it: rebuild once.
      console.warn('PGlite test template failed to load; rebuilding it', err);
      forgetPgliteTemplate();
      return openDatabase({ loadDataDir: await pgliteTemplate() });
    }
  },
};

function postgres(url: string): TestDatabase {
  return {
    name: 'postgres',
    async open() {
      const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
      const db = await openDatabase({ databaseUrl: url, schema, poolSize: 5 });
      return {
        ...db,
        close: async () => {
          await db.close();
          await dropSchema(url, schema);
        },
      };
    },
    async reopen(db) {
      if (!db.schema) throw new Error('reopen() needs a database opened by this module');
      return openDatabase({ databaseUrl: url, schema: db.schema, poolSize: 5 });
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
