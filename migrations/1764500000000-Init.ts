/**
 * The initial schema: identity (tenants, users, api_tokens, projects, project_members), stored
 * documents with their history, and settings. Hand-written SQL, run unchanged on PostgreSQL and
 * PGlite; tables are unqualified so the connection's search_path picks the schema. Never edit this
 * file after it has landed; add a new migration instead.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `CREATE TABLE tenants (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     name text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_tenants_name UNIQUE (name)
   )`,
  `CREATE TABLE users (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL CONSTRAINT fk_users_tenant REFERENCES tenants (id) ON DELETE CASCADE,
     login text NOT NULL,
     role varchar(32) NOT NULL CHECK (role IN ('SYSTEM_ADMIN', 'TENANT_ADMIN', 'MEMBER')),
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_users_tenant_login UNIQUE (tenant_id, login)
   )`,
  `CREATE TABLE api_tokens (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     user_id uuid NOT NULL CONSTRAINT fk_api_tokens_user REFERENCES users (id) ON DELETE CASCADE,
     token_hash text NOT NULL,
     label text,
     created_at timestamptz NOT NULL DEFAULT now(),
     revoked_at timestamptz,
     CONSTRAINT uq_api_tokens_hash UNIQUE (token_hash)
   )`,
  `CREATE INDEX ix_api_tokens_user ON api_tokens (user_id)`,
  // (tenant_id, id) is unique so that documents can reference a project together with its tenant.
  `CREATE TABLE projects (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL CONSTRAINT fk_projects_tenant REFERENCES tenants (id) ON DELETE CASCADE,
     name text NOT NULL,
     kind varchar(16) NOT NULL CHECK (kind IN ('NORMAL', 'SYSTEM')),
     owner_user_id uuid CONSTRAINT fk_projects_owner REFERENCES users (id) ON DELETE SET NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_projects_tenant_name UNIQUE (tenant_id, name),
     CONSTRAINT uq_projects_tenant_id UNIQUE (tenant_id, id)
   )`,
  `CREATE TABLE project_members (
     project_id uuid NOT NULL CONSTRAINT fk_project_members_project REFERENCES projects (id) ON DELETE CASCADE,
     user_id uuid NOT NULL CONSTRAINT fk_project_members_user REFERENCES users (id) ON DELETE CASCADE,
     role varchar(16) NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
     PRIMARY KEY (project_id, user_id)
   )`,
  `CREATE INDEX ix_project_members_user ON project_members (user_id)`,
  // One row per (project, path) for ever, soft-deleted or not: a recreate continues the versions.
  // Collation "C" gives byte order on every server and lets LIKE 'prefix%' use the unique index.
  `CREATE TABLE documents (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL,
     project_id uuid NOT NULL,
     path text COLLATE "C" NOT NULL,
     content text NOT NULL,
     version integer NOT NULL CHECK (version > 0),
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now(),
     updated_by text,
     deleted_at timestamptz,
     CONSTRAINT uq_documents_project_path UNIQUE (project_id, path),
     CONSTRAINT fk_documents_project FOREIGN KEY (tenant_id, project_id)
       REFERENCES projects (tenant_id, id) ON DELETE CASCADE
   )`,
  `CREATE TABLE document_versions (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     document_id uuid NOT NULL CONSTRAINT fk_document_versions_document REFERENCES documents (id) ON DELETE CASCADE,
     tenant_id uuid NOT NULL,
     project_id uuid NOT NULL,
     path text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     content text,
     deleted boolean NOT NULL DEFAULT false,
     author text,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT uq_document_versions_document_version UNIQUE (document_id, version),
     CONSTRAINT ck_document_versions_content CHECK (deleted OR content IS NOT NULL)
   )`,
  `CREATE TABLE settings (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     tenant_id uuid NOT NULL CONSTRAINT fk_settings_tenant REFERENCES tenants (id) ON DELETE CASCADE,
     project_id uuid CONSTRAINT fk_settings_project REFERENCES projects (id) ON DELETE CASCADE,
     key text NOT NULL,
     value text NOT NULL,
     secret boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  // NULL project = tenant-wide; COALESCE makes (tenant, NULL, key) unique too (works before PG 15).
  `CREATE UNIQUE INDEX uq_settings_scope_key ON settings
     (tenant_id, COALESCE(project_id, '00000000-0000-0000-0000-000000000000'::uuid), key)`,
];

const DOWN = [
  'DROP TABLE settings',
  'DROP TABLE document_versions',
  'DROP TABLE documents',
  'DROP TABLE project_members',
  'DROP TABLE projects',
  'DROP TABLE api_tokens',
  'DROP TABLE users',
  'DROP TABLE tenants',
];

export class Init1764500000000 implements MigrationInterface {
  name = 'Init1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
