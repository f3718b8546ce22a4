/**
 * Issue 16: a process's `title` and `goal` (seed 000 §2c, §9: a spawn skill gives its worker the
 * skill's title and its rendered action as the goal; process_spawn and spawnProcess may set them).
 * Both optional; existing processes have neither. Never edit this file after it has landed.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProcessTitleGoal1765300000000 implements MigrationInterface {
  name = 'ProcessTitleGoal1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE processes ADD COLUMN title text NULL, ADD COLUMN goal text NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE processes DROP COLUMN goal, DROP COLUMN title');
  }
}
