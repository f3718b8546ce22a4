/** Row mapping of `process_events`: the persisted events of a process; `id` is the event id clients resume from. */
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'process_events' })
export class ProcessEventEntity {
  /** An identity (GENERATED ALWAYS): int8, so pg returns it as a string. */
  @PrimaryColumn({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'uuid' })
  processId!: string;

  @Column({ type: 'text' })
  type!: string;

  /** The whole ProcessEvent, its `type` and `private` mark included. */
  @Column({ type: 'jsonb' })
  event!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
