/** Row mapping of `document_versions`: one row per write or delete (content null on delete). */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'document_versions' })
export class DocumentVersionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId!: string;

  @Column({ type: 'text', collation: 'C' })
  path!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'text', nullable: true })
  content!: string | null;

  @Column({ type: 'boolean' })
  deleted!: boolean;

  @Column({ type: 'text', nullable: true })
  author!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
