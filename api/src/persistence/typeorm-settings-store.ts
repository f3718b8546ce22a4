/**
 * The SettingsStore port on TypeORM. `put` is one atomic upsert on the unique index
 * (tenant, COALESCE(project, zero-uuid), key), so concurrent writers never duplicate a key.
 */
import type { DataSource } from 'typeorm';
import type { StoredSetting } from '../domain/settings/setting';
import type { PutSettingCommand, SettingsStore } from '../domain/settings/settings-store';

interface SettingRow {
  tenant_id: string;
  project_id: string | null;
  key: string;
  value: string;
  secret: boolean;
  updated_at: Date;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export class TypeOrmSettingsStore implements SettingsStore {
  constructor(private readonly dataSource: DataSource) {}

  async list(tenantId: string, projectId: string | null): Promise<StoredSetting[]> {
    const rows: SettingRow[] = await this.dataSource.query(
      `SELECT tenant_id, project_id, key, value, secret, updated_at FROM settings
        WHERE tenant_id = $1 AND project_id IS NOT DISTINCT FROM $2 ORDER BY key`,
      [tenantId, projectId],
    );
    return rows.map(toSetting);
  }

  async put(command: PutSettingCommand): Promise<StoredSetting> {
    const rows: SettingRow[] = await this.dataSource.query(
      `INSERT INTO settings (tenant_id, project_id, key, value, secret, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (tenant_id, COALESCE(project_id, '${ZERO_UUID}'::uuid), key)
       DO UPDATE SET value = EXCLUDED.value, secret = EXCLUDED.secret, updated_at = now()
       RETURNING tenant_id, project_id, key, value, secret, updated_at`,
      [command.tenantId, command.projectId, command.key, command.value, command.secret],
    );
    return toSetting(rows[0]!);
  }

  async delete(tenantId: string, projectId: string | null, key: string): Promise<boolean> {
    // A CTE, because TypeORM answers a bare DELETE … RETURNING with [rows, count] on postgres.
    const rows: { n: number }[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM settings WHERE tenant_id = $1 AND project_id IS NOT DISTINCT FROM $2 AND key = $3 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [tenantId, projectId, key],
    );
    return (rows[0]?.n ?? 0) > 0;
  }
}

function toSetting(row: SettingRow): StoredSetting {
  return {
    tenantId: row.tenant_id,
    projectId: row.project_id,
    key: row.key,
    value: row.value,
    secret: row.secret,
    updatedAt: new Date(row.updated_at),
  };
}
