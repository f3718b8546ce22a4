/** Row mapping of `project_members`: one role per (project, user). */
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ProjectRole } from '../../domain/identity/identity';

@Entity({ name: 'project_members' })
export class ProjectMemberEntity {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar' })
  role!: ProjectRole;
}
