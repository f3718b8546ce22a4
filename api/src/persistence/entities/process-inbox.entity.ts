/** Row mapping of `process_inbox`: messages waiting for a process's next turn, FIFO by `seq`. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { MessageSender } from '../../domain/processes/process';

@Entity({ name: 'process_inbox' })
export class ProcessInboxEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'uuid' })
  processId!: string;

  /** An identity (GENERATED ALWAYS): int8, so pg returns it as a string. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  seq!: string;

  @Column({ type: 'text' })
  sender!: MessageSender;

  @Column({ name: 'sender_name', type: 'text' })
  senderName!: string;

  @Column({ type: 'text' })
  content!: string;

  /** Turns that failed or were interrupted on this message (issue 14: retried with backoff, then marked failed). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Set once the message failed too often: no turn takes it any more. */
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
