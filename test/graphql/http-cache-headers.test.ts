import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { ADMIN_TOKEN, startTestVance, type TestVance } from './harness';

// Issue 18 turned Apollo's cache-control plugin off (its per-field hook cost every request time).
// It answered `cache-control: no-store` to every operation, since no field has a cache hint; that
// must stay: a shared cache must never keep one caller's answer, nor an error.
describe.each(testDatabases().slice(0, 1))('GraphQL responses are not cacheable ($name)', (driver) => {
  let db: Database;
  let t: TestVance;

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const post = (query: string, token: string | null) => fetch(t.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });

  it.each([
    ['an authenticated query', '{ me { login } }', ADMIN_TOKEN],
    ['a trivial query', '{ __typename }', null],
    ['a refused query', '{ me { login } }', null],
    ['an invalid query', '{ nothingHere }', ADMIN_TOKEN],
  ])('%s is answered with cache-control: no-store', async (_what, query, token) => {
    const res = await post(query, token);
    await res.text();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
