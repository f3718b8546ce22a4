/** Row mapping of `turns`: one turn of a process; `input` holds the taken inbox until it ends. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TurnStatus } from '../../domain/turns/turn';

@Entity({ name: 'turns' })
export class TurnEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'uuid' })
  processId!: string;

  @Column({ type: 'text' })
  engine!: string;

  @Column({ type: 'text' })
  status!: TurnStatus;

  @Column({ type: 'jsonb' })
  input!: unknown;

  @Column({ name: 'finish_reason', type: 'text', nullable: true })
  finishReason!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  usage!: unknown;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
