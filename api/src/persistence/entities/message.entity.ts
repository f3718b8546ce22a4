/** Row mapping of `messages`: the chat log of a process, ordered by `seq` (written by the turns issue). */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type MessageRole = 'user' | 'assistant' | 'system' | 'tool';

@Entity({ name: 'messages' })
export class MessageEntity {
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
  role!: MessageRole;

  @Column({ name: 'sender_name', type: 'text', nullable: true })
  senderName!: string | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'tool_call', type: 'jsonb', nullable: true })
  toolCall!: unknown;

  @Column({ name: 'turn_id', type: 'uuid', nullable: true })
  turnId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
