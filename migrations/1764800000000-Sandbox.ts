/**
 * The sandbox issue (issue 6): recipe guards snapshotted at spawn and the per-user-turn guard round
 * counters on processes; the client (FOOT) tool registration of a session; and the client tool calls
 * a turn routes to a session's client, kept so that any instance can check who may answer a call.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `ALTER TABLE processes ADD COLUMN recipe_guards jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(recipe_guards) = 'array')`,
  `ALTER TABLE processes ADD COLUMN guard_rounds jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(guard_rounds) = 'object')`,
  `ALTER TABLE sessions ADD COLUMN client_tools jsonb CHECK (client_tools IS NULL OR jsonb_typeof(client_tools) = 'array')`,
  `ALTER TABLE sessions ADD COLUMN client_tools_at timestamptz`,
  `CREATE TABLE client_tool_calls (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     user_id uuid NOT NULL,
     process_id uuid NOT NULL,
     turn_id uuid,
     kind text NOT NULL CHECK (kind IN ('TOOL', 'SCRIPT')),
     tool text NOT NULL,
     arguments jsonb NOT NULL DEFAULT '{}',
     script jsonb,
     status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ANSWERED', 'EXPIRED')),
     result jsonb,
     error text,
     deadline timestamptz NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     answered_at timestamptz
   )`,
  `CREATE INDEX ix_client_tool_calls_session ON client_tool_calls (tenant_id, session_id, created_at)`,
];

const DOWN = [
  'DROP TABLE client_tool_calls',
  'ALTER TABLE sessions DROP COLUMN client_tools_at',
  'ALTER TABLE sessions DROP COLUMN client_tools',
  'ALTER TABLE processes DROP COLUMN guard_rounds',
  'ALTER TABLE processes DROP COLUMN recipe_guards',
];

export class Sandbox1764800000000 implements MigrationInterface {
  name = 'Sandbox1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const sql of UP) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await runner.query(sql);
  }
}
