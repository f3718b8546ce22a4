/**
 * Row mapping of `processes`: a running agent instance with the configuration snapshot taken at
 * spawn (seed 004 §7). The jsonb columns hold the domain shapes (dates inside them as ISO strings).
 * Writes go through the SQL in typeorm-process-store.ts (row-locked updates).
 */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Layer } from '../../domain/cascade/layer';
import type { ActiveSkillRef, ProcessStatus, RuntimeGuard, ToolAdjustments } from '../../domain/processes/process';
import type { PromptMode } from '../../domain/recipes/recipe';

@Entity({ name: 'processes' })
export class ProcessEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', collation: 'C' })
  name!: string;

  @Column({ name: 'parent_process_id', type: 'uuid', nullable: true })
  parentProcessId!: string | null;

  @Column({ type: 'text' })
  status!: ProcessStatus;

  @Column({ type: 'text' })
  engine!: string;

  @Column({ name: 'recipe_name', type: 'text', nullable: true })
  recipeName!: string | null;

  @Column({ name: 'recipe_source', type: 'text', nullable: true })
  recipeSource!: Layer | null;

  @Column({ name: 'connection_profile', type: 'text', nullable: true })
  connectionProfile!: string | null;

  @Column({ type: 'text', default: 'NORMAL' })
  mode!: string;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  goal!: string | null;

  @Column({ name: 'active_skills', type: 'jsonb' })
  activeSkills!: ActiveSkillRef[];

  @Column({ name: 'allowed_skills_override', type: 'jsonb', nullable: true })
  allowedSkillsOverride!: string[] | null;

  @Column({ type: 'boolean' })
  locked!: boolean;

  @Column({ name: 'engine_params', type: 'jsonb' })
  engineParams!: Record<string, unknown>;

  @Column({ name: 'prompt_override', type: 'text', nullable: true })
  promptOverride!: string | null;

  @Column({ name: 'profile_append', type: 'text', nullable: true })
  profileAppend!: string | null;

  @Column({ name: 'prompt_mode', type: 'text' })
  promptMode!: PromptMode;

  @Column({ name: 'data_relay_correction', type: 'text', nullable: true })
  dataRelayCorrection!: string | null;

  @Column({ name: 'tool_adjustments', type: 'jsonb' })
  toolAdjustments!: ToolAdjustments;

  @Column({ type: 'jsonb' })
  guards!: RuntimeGuard[];

  @Column({ name: 'recipe_guards', type: 'jsonb', default: () => "'[]'" })
  recipeGuards!: unknown[];

  @Column({ name: 'guard_rounds', type: 'jsonb', default: () => "'{}'" })
  guardRounds!: Record<string, number>;

  @Column({ name: 'guard_scratch', type: 'jsonb', default: () => "'{}'" })
  guardScratch!: Record<string, unknown>;

  @Column({ name: 'turn_requested_at', type: 'timestamptz', nullable: true })
  turnRequestedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
