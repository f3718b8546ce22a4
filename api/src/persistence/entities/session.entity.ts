/** Row mapping of `sessions`: a user's named session in a project. Writes go through typeorm-process-store.ts. */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', collation: 'C' })
  name!: string;

  @Column({ name: 'client_tools', type: 'jsonb', nullable: true })
  clientTools!: unknown[] | null;

  @Column({ name: 'client_tools_at', type: 'timestamptz', nullable: true })
  clientToolsAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
