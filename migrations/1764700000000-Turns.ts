/**
 * Turns and their event log (issue 5, DESIGN §1, §3). A turn takes the pending inbox (kept in
 * `input` until the turn ends, so a failed or interrupted turn can put it back) and streams events;
 * `turn_events.id` (an identity) is the event id clients resume from with `afterEventId`.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `CREATE TABLE turns (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     process_id uuid NOT NULL,
     engine text NOT NULL,
     status text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'FINISHED', 'FAILED', 'INTERRUPTED')),
     input jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(input) = 'array'),
     finish_reason text,
     usage jsonb,
     error_code text,
     error_message text,
     started_at timestamptz NOT NULL DEFAULT now(),
     finished_at timestamptz,
     CONSTRAINT uq_turns_tenant_id UNIQUE (tenant_id, id),
     CONSTRAINT fk_turns_process FOREIGN KEY (tenant_id, process_id)
       REFERENCES processes (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_turns_process ON turns (process_id, started_at)`,
  `CREATE INDEX ix_turns_running ON turns (status) WHERE status = 'RUNNING'`,
  `ALTER TABLE messages ADD CONSTRAINT fk_messages_turn FOREIGN KEY (tenant_id, turn_id)
     REFERENCES turns (tenant_id, id) ON DELETE CASCADE`,
  `CREATE TABLE turn_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     tenant_id uuid NOT NULL,
     process_id uuid NOT NULL,
     turn_id uuid NOT NULL,
     type text NOT NULL,
     payload jsonb NOT NULL DEFAULT '{}',
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT fk_turn_events_turn FOREIGN KEY (tenant_id, turn_id)
       REFERENCES turns (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_turn_events_process ON turn_events (process_id, id)`,
];

const DOWN = [
  'DROP TABLE turn_events',
  'ALTER TABLE messages DROP CONSTRAINT fk_messages_turn',
  'DROP TABLE turns',
];

export class Turns1764700000000 implements MigrationInterface {
  name = 'Turns1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
