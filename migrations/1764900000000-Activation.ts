/**
 * Model-chosen activation (issue 8): the `picked` skills open on a process and how often each was
 * opened (the budgeted catalog shrinks the least-used first); the open set a turn started from, so
 * that `regenerateTurn` can take the turn's opens and closes back; and REGENERATED turns.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `ALTER TABLE processes ADD COLUMN open_skills jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(open_skills) = 'array')`,
  `ALTER TABLE processes ADD COLUMN skill_uses jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(skill_uses) = 'object')`,
  `ALTER TABLE turns ADD COLUMN open_skills_before jsonb`,
  `ALTER TABLE turns DROP CONSTRAINT turns_status_check`,
  `ALTER TABLE turns ADD CONSTRAINT turns_status_check CHECK (status IN ('RUNNING', 'FINISHED', 'FAILED', 'INTERRUPTED', 'REGENERATED'))`,
];

const DOWN = [
  `UPDATE turns SET status = 'FINISHED' WHERE status = 'REGENERATED'`,
  `ALTER TABLE turns DROP CONSTRAINT turns_status_check`,
  `ALTER TABLE turns ADD CONSTRAINT turns_status_check CHECK (status IN ('RUNNING', 'FINISHED', 'FAILED', 'INTERRUPTED'))`,
  'ALTER TABLE turns DROP COLUMN open_skills_before',
  'ALTER TABLE processes DROP COLUMN skill_uses',
  'ALTER TABLE processes DROP COLUMN open_skills',
];

export class Activation1764900000000 implements MigrationInterface {
  name = 'Activation1764900000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const sql of UP) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await runner.query(sql);
  }
}
