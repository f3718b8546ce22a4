import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { collect, startTestVance, type TestVance } from './harness';

// Two stateless instances on one PostgreSQL (DESIGN §7): a write on one must invalidate the
// other's cache and reach its subscribers (LISTEN/NOTIFY). PGlite is single-instance by design.
const postgres = testDatabases().filter((d) => d.name === 'postgres');

if (postgres.length === 0) {
  describe('two instances on one database', () => {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
  });
}

describe.each(postgres)('two instances on one database ($name)', (driver) => {
  let dbA: Database;
  let dbB: Database;
  let a: TestVance;
  let b: TestVance;
  beforeAll(async () => {
    dbA = await driver.open();
    dbB = await driver.reopen!(dbA);
    a = await startTestVance(dbA);
    b = await startTestVance(dbB);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbB?.close();
    await dbA?.close();
  });

  it('invalidates the other instance cache and streams the change to its subscribers', async () => {
    const EFFECTIVE = `{ effectiveDocument(path: "shared.md") { document { content } } }`;
    expect((await b.gql(EFFECTIVE)).data?.effectiveDocument).toBeNull(); // cached miss on B
    const sub = collect<{ documentChanged: unknown }>(b.ws(), `subscription { documentChanged { path change } }`);
    await new Promise((r) => setTimeout(r, 300));
    await a.gql(`mutation { putDocument(layer: VANCE, path: "shared.md", content: "from A") { version } }`);
    expect((await sub.next()).data?.documentChanged).toEqual({ path: 'shared.md', change: 'PUT' });
    expect((await b.gql(EFFECTIVE)).data?.effectiveDocument?.document.content).toBe('from A');
  });
});
