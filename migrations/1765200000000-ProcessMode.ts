/**
 * Issue 15: a process's plan mode (seed 004 §5.1 `mode`: NORMAL, EXPLORING, PLANNING, EXECUTING),
 * set with setProcessMode and read by every later turn's render. Existing processes are NORMAL.
 * Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProcessMode1765200000000 implements MigrationInterface {
  name = 'ProcessMode1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE processes ADD COLUMN mode text NOT NULL DEFAULT 'NORMAL'
      CONSTRAINT ck_processes_mode CHECK (mode IN ('NORMAL', 'EXPLORING', 'PLANNING', 'EXECUTING'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE processes DROP COLUMN mode');
  }
}
