import type { StoredSetting } from './setting';

export interface PutSettingCommand {
  readonly tenantId: string;
  readonly projectId: string | null;
  readonly key: string;
  readonly value: string;
  readonly secret: boolean;
}

/** The port for stored settings; `put` is an upsert on (tenant, project, key). */
export interface SettingsStore {
  list(tenantId: string, projectId: string | null): Promise<StoredSetting[]>;
  put(command: PutSettingCommand): Promise<StoredSetting>;
  delete(tenantId: string, projectId: string | null, key: string): Promise<boolean>;
}
