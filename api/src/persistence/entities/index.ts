/** Every entity of the schema, for the DataSource. Indexes and constraints live in the migrations. */
import { ApiTokenEntity } from './api-token.entity';
import { DocumentVersionEntity } from './document-version.entity';
import { DocumentEntity } from './document.entity';
import { MessageEntity, type MessageRole } from './message.entity';
import { ProcessEventEntity } from './process-event.entity';
import { ProcessInboxEntity } from './process-inbox.entity';
import { ProcessEntity } from './process.entity';
import { ProjectMemberEntity } from './project-member.entity';
import { ProjectEntity } from './project.entity';
import { SessionEntity } from './session.entity';
import { SettingEntity } from './setting.entity';
import { TenantEntity } from './tenant.entity';
import { TurnEventEntity } from './turn-event.entity';
import { TurnEntity } from './turn.entity';
import { UserEntity } from './user.entity';

export {
  ApiTokenEntity,
  DocumentEntity,
  DocumentVersionEntity,
  MessageEntity,
  ProcessEntity,
  ProcessEventEntity,
  ProcessInboxEntity,
  ProjectEntity,
  ProjectMemberEntity,
  SessionEntity,
  SettingEntity,
  TenantEntity,
  TurnEntity,
  TurnEventEntity,
  UserEntity,
  type MessageRole,
};

export const ENTITIES = [
  TenantEntity,
  UserEntity,
  ApiTokenEntity,
  ProjectEntity,
  ProjectMemberEntity,
  DocumentEntity,
  DocumentVersionEntity,
  SettingEntity,
  SessionEntity,
  ProcessEntity,
  ProcessInboxEntity,
  ProcessEventEntity,
  MessageEntity,
  TurnEntity,
  TurnEventEntity,
];
