/**
 * Row mapping of `documents`. A path keeps its row after a soft delete (`deleted_at`), so versions
 * keep counting across delete and recreate. Writes go through the SQL in typeorm-document-store.ts.
 */
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'documents' })
export class DocumentEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId!: string;

  /** Collation "C": byte order, the same on PGlite and every server, and LIKE 'prefix%' uses the index. */
  @Column({ type: 'text', collation: 'C' })
  path!: string;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'text', nullable: true })
  updatedBy!: string | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
