/** Row mapping of `turn_events`: the persisted event log of turns; `id` is the event id clients resume from. */
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'turn_events' })
export class TurnEventEntity {
  /** An identity (GENERATED ALWAYS): int8, so pg returns it as a string. */
  @PrimaryColumn({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'process_id', type: 'uuid' })
  processId!: string;

  @Column({ name: 'turn_id', type: 'uuid' })
  turnId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'jsonb' })
  payload!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
