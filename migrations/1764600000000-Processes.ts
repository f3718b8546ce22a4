/**
 * Sessions, processes, their inboxes and the chat log (seed 004 §7, seed 000 §5d, DESIGN §3).
 * Hand-written SQL, run unchanged on PostgreSQL and PGlite; tables are unqualified so the
 * connection's search_path picks the schema. Never edit this file after it has landed.
 *
 * Tenancy is kept on every row and enforced by composite foreign keys: a session references its
 * project and user TOGETHER with the tenant, a process its session together with the tenant and the
 * project, an inbox or chat row its process together with the tenant. A row can therefore never
 * point across tenants, whatever a caller passes. `messages` is created now for the turns issue.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // The target of the composite keys (tenant_id, user_id) → users; id alone is already unique.
  `ALTER TABLE users ADD CONSTRAINT uq_users_tenant_id UNIQUE (tenant_id, id)`,
  // One session per (project, user, name); collation "C" as for document paths (byte order everywhere).
  `CREATE TABLE sessions (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     project_id uuid NOT NULL,
     user_id uuid NOT NULL,
     name text COLLATE "C" NOT NULL CHECK (name <> ''),
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_sessions_project_user_name UNIQUE (project_id, user_id, name),
     CONSTRAINT uq_sessions_scope_id UNIQUE (tenant_id, project_id, id),
     CONSTRAINT fk_sessions_project FOREIGN KEY (tenant_id, project_id)
       REFERENCES projects (tenant_id, id) ON DELETE CASCADE,
     CONSTRAINT fk_sessions_user FOREIGN KEY (tenant_id, user_id)
       REFERENCES users (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_sessions_user ON sessions (user_id)`,
  // Process names are unique per session; "C" lets `name LIKE 'prefix%'` use the unique index.
  // The parent is a plain key (ON DELETE SET NULL cannot null one column of a composite key before
  // PostgreSQL 15); the store checks the parent's tenant before it inserts.
  `CREATE TABLE processes (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     project_id uuid NOT NULL,
     session_id uuid NOT NULL,
     user_id uuid NOT NULL,
     name text COLLATE "C" NOT NULL CHECK (name <> ''),
     parent_process_id uuid CONSTRAINT fk_processes_parent REFERENCES processes (id) ON DELETE SET NULL,
     status text NOT NULL DEFAULT 'IDLE' CHECK (status IN ('IDLE', 'CLOSED', 'ABANDONED')),
     engine text NOT NULL,
     recipe_name text,
     recipe_source text CHECK (recipe_source IN ('USER', 'PROJECT', 'VANCE', 'RESOURCE')),
     connection_profile text,
     active_skills jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(active_skills) = 'array'),
     allowed_skills_override jsonb CHECK (jsonb_typeof(allowed_skills_override) = 'array'),
     locked boolean NOT NULL DEFAULT false,
     engine_params jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(engine_params) = 'object'),
     prompt_override text,
     profile_append text,
     prompt_mode text NOT NULL DEFAULT 'APPEND' CHECK (prompt_mode IN ('APPEND', 'OVERWRITE')),
     data_relay_correction text,
     tool_adjustments jsonb NOT NULL
       DEFAULT '{"add": [], "remove": [], "keep": [], "dropFirst": [], "defer": []}'
       CHECK (jsonb_typeof(tool_adjustments) = 'object'),
     guards jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(guards) = 'array'),
     turn_requested_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_processes_session_name UNIQUE (session_id, name),
     CONSTRAINT uq_processes_tenant_id UNIQUE (tenant_id, id),
     CONSTRAINT fk_processes_session FOREIGN KEY (tenant_id, project_id, session_id)
       REFERENCES sessions (tenant_id, project_id, id) ON DELETE CASCADE,
     CONSTRAINT fk_processes_user FOREIGN KEY (tenant_id, user_id)
       REFERENCES users (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_processes_tenant_project ON processes (tenant_id, project_id)`,
  `CREATE INDEX ix_processes_parent ON processes (parent_process_id) WHERE parent_process_id IS NOT NULL`,
  `CREATE INDEX ix_processes_user ON processes (user_id)`,
  // Pending messages for the next turn; seq (an identity) gives the FIFO order.
  `CREATE TABLE process_inbox (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     process_id uuid NOT NULL,
     seq bigint GENERATED ALWAYS AS IDENTITY,
     sender text NOT NULL CHECK (sender IN ('USER', 'SKILL', 'GUARD', 'PROCESS')),
     sender_name text NOT NULL,
     content text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT fk_process_inbox_process FOREIGN KEY (tenant_id, process_id)
       REFERENCES processes (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_process_inbox_process_seq ON process_inbox (process_id, seq)`,
  // The chat log of a process (written by the turns issue); seq orders it. turn_id gets its
  // foreign key when `turns` exists.
  `CREATE TABLE messages (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     process_id uuid NOT NULL,
     seq bigint GENERATED ALWAYS AS IDENTITY,
     role text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
     sender_name text,
     content text NOT NULL,
     tool_call jsonb,
     turn_id uuid,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT fk_messages_process FOREIGN KEY (tenant_id, process_id)
       REFERENCES processes (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX ix_messages_process_seq ON messages (process_id, seq)`,
  `CREATE INDEX ix_messages_turn ON messages (turn_id) WHERE turn_id IS NOT NULL`,
];

const DOWN = [
  'DROP TABLE messages',
  'DROP TABLE process_inbox',
  'DROP TABLE processes',
  'DROP TABLE sessions',
  'ALTER TABLE users DROP CONSTRAINT uq_users_tenant_id',
];

export class Processes1764600000000 implements MigrationInterface {
  name = 'Processes1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
