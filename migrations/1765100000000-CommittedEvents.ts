/**
 * Issue 14: process events are stored like turn events (`process_events.id` is what a
 * `processEvents` subscriber resumes from with `afterEventId`, and what a stream re-reads after a
 * bus reconnect), and an inbox message remembers how often a turn failed on it: after a failed or
 * interrupted turn it is retried with backoff, and once it failed MAX times it is marked failed
 * (`failed_at`, `failure`) and no longer taken, instead of blocking its process forever.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `CREATE TABLE process_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     tenant_id uuid NOT NULL,
     process_id uuid NOT NULL,
     type text NOT NULL,
     event jsonb NOT NULL CHECK (jsonb_typeof(event) = 'object'),
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     CONSTRAINT fk_process_events_process FOREIGN KEY (tenant_id, process_id)
       REFERENCES processes (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_process_events_process ON process_events (process_id, id)`,
  `ALTER TABLE process_inbox
     ADD COLUMN attempts integer NOT NULL DEFAULT 0,
     ADD COLUMN failed_at timestamptz,
     ADD COLUMN failure text`,
];

const DOWN = [
  'ALTER TABLE process_inbox DROP COLUMN failure, DROP COLUMN failed_at, DROP COLUMN attempts',
  'DROP TABLE process_events',
];

export class CommittedEvents1765100000000 implements MigrationInterface {
  name = 'CommittedEvents1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const sql of UP) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await runner.query(sql);
  }
}
