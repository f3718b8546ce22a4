/**
 * Lane leases (issue 14): which instance runs a process's lane, until when, and under which fencing
 * token. A lease outlives the database session that took it (the advisory lock it replaces died
 * with its session, and a second instance then ran the same process); tokens only grow, from one
 * sequence, so a write fenced with an old token is refused once another instance took over.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  'CREATE SEQUENCE lane_lease_tokens',
  `CREATE TABLE lane_leases (
    lane_key text PRIMARY KEY,
    owner text NOT NULL,
    token bigint NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
];

const DOWN = ['DROP TABLE lane_leases', 'DROP SEQUENCE lane_lease_tokens'];

export class LaneLeases1765000000000 implements MigrationInterface {
  name = 'LaneLeases1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const sql of UP) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await runner.query(sql);
  }
}
