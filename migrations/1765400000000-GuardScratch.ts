/**
 * Issue 16: each guard's loop and session scratch (seed 004 §6d), by guard key, beside the round
 * counters: `{ "<guard key>": { "loop": {…}, "session": {…} } }`. Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class GuardScratch1765400000000 implements MigrationInterface {
  name = 'GuardScratch1765400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE processes ADD COLUMN guard_scratch jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE processes DROP COLUMN guard_scratch');
  }
}
