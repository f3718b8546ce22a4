/**
 * Named prepared statements for the statements every turn runs (issue 18). pg sends a query with a
 * `name` as Parse once per connection and then only Bind/Execute: PostgreSQL keeps the parsed and
 * analysed statement, and the embedded PGlite (which spent 30–50 % of a turn statement's time
 * parsing and planning the CTEs of the turn store) skips that work from the second turn on.
 *
 * Only fixed statement texts written in this code base are prepared: every distinct text stays
 * prepared on each connection for its lifetime, so generated SQL of varying shape must not come here.
 * The name is derived from the text, so two texts never share one (pg refuses that).
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** What can run a statement: the DataSource, or a transaction's EntityManager. */
export type Queryable = Pick<EntityManager, 'query'>;

const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `v_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs `text` with `parameters` as a named prepared statement on `db`. TypeORM hands the query
 * through to pg's `client.query(config, values)` unchanged, which accepts a `{ name, text }` config.
 */
export function queryPrepared<T = unknown>(db: Queryable, text: string, parameters: readonly unknown[]): Promise<T> {
  const config = { name: nameOf(text), text };
  return db.query(config as unknown as string, [...parameters]) as Promise<T>;
}
