/**
 * A message queued while a turn begins must never be left in the inbox without a turn request.
 *
 * The race (found by the fault suite's kill-in-send): beginTurn's one statement takes the inbox rows
 * of its snapshot and clears the turn request; when a concurrent `queue` holds the process row, the
 * clearing waits for it and then — PostgreSQL re-checks the updated row — clears that queue's request
 * too, although its message was not in the snapshot. If the queuing instance dies before its own
 * scheduling runs, nothing would ever take the message. The sweep (listRequestedTurns) repairs it.
 * PostgreSQL only: PGlite has one connection, so the statements cannot interleave.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Process } from '../../api/src/domain/processes/process';
import { TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, type Database } from '../../api/src/persistence';
import { testDatabases } from '../support/databases';
import { createPlainProcess } from '../support/process-fixture';

const postgres = testDatabases().find((d) => d.name === 'postgres');

describe.skipIf(!postgres)('a message queued while a turn begins (PostgreSQL)', () => {
  let db: Database;
  let processes: TypeOrmProcessStore;
  let turns: TypeOrmTurnStore;
  let tenant: string;
  let target: Process;
  let other: pg.Client;

  beforeAll(async () => {
    db = await postgres!.open();
    processes = new TypeOrmProcessStore(db.dataSource);
    turns = new TypeOrmTurnStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    tenant = (await identity.createTenant('acme')).tenant.id;
    const alice = (await identity.createUser({ tenantId: tenant, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const project = (await identity.createProject(tenant, 'p', 'NORMAL', alice)).id;
    const session = await processes.openSession(tenant, project, alice, 'main');
    target = await createPlainProcess(processes, { tenantId: tenant, projectId: project, sessionId: session.id, userId: alice });
    other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path=${db.schema}` });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await db?.close();
  });

  it('is taken by a later turn: the sweep finds the process although beginTurn cleared the request', async () => {
    await processes.queue(tenant, target.id, [{ sender: 'USER', senderName: 'alice', content: 'first' }]);
    // Another instance queues a second message; its transaction holds the process row.
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO process_inbox (id, tenant_id, process_id, sender, sender_name, content) VALUES ($1, $2, $3, 'USER', 'alice', 'second')`,
      [randomUUID(), tenant, target.id]);
    await other.query(
      `UPDATE processes SET turn_requested_at = COALESCE(turn_requested_at, clock_timestamp()) WHERE tenant_id = $1 AND id = $2`,
      [tenant, target.id]);
    // The turn begins meanwhile: its snapshot has only 'first', and its clearing waits for the row lock.
    const begun = turns.beginTurn(tenant, target.id);
    await waitForLockWait(other);
    await other.query('COMMIT');
    const turn = (await begun)!;
    expect(turn.taken.map((m) => m.content)).toEqual(['first']);
    expect((await processes.listPending(tenant, target.id)).map((m) => m.content)).toEqual(['second']);
    // The queuing instance died before it could schedule: the sweep is what is left to find it.
    expect(await turns.listRequestedTurns()).toContainEqual({ tenantId: tenant, processId: target.id });
    expect((await processes.findProcess(tenant, target.id))!.turnRequestedAt).not.toBeNull();
    expect(await turns.finishTurn(tenant, turn.turn.id, { status: 'FINISHED' })).toBe(true);
    const next = (await turns.beginTurn(tenant, target.id))!;
    expect(next.taken.map((m) => m.content)).toEqual(['second']);
    expect(await turns.finishTurn(tenant, next.turn.id, { status: 'FINISHED' })).toBe(true);
    // Nothing left: no request is invented for an empty inbox or a message marked failed.
    expect(await turns.listRequestedTurns()).not.toContainEqual({ tenantId: tenant, processId: target.id });
  });
});

/** Until a backend waits for `client`'s open transaction (the beginning turn); no time bound: the wait comes. */
async function waitForLockWait(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = pg_current_xact_id()::text`);
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
