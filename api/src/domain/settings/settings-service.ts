import { layerAccess } from '../access/layer-access';
import type { LayerTargetResolver } from '../documents/layer-target';
import { ForbiddenError, InvalidInputError } from '../errors';
import type { Principal } from '../identity/principal';
import { TtlCache } from '../shared/ttl-cache';
import {
  isSecretKey, MAX_SETTING_VALUE_LENGTH, validateSettingKey,
  type SettingSource, type SettingView, type StoredSetting,
} from './setting';
import { describeSettingLayer, type SettingsReader } from './settings-reader';
import type { SettingsStore } from './settings-store';

/**
 * Settings cascade project → tenant → environment defaults, first hit wins (like documents).
 * Tenant settings are written by tenant admins, project settings by project admins; secrets are
 * write-only through the API. Reads are cached briefly per (tenant, project) for the turn path.
 */
export class SettingsService {
  private readonly cache: TtlCache<string, ReadonlyMap<string, StoredSetting>>;

  constructor(
    private readonly store: SettingsStore,
    private readonly targets: LayerTargetResolver,
    private readonly environment: Readonly<Record<string, string>>,
    cacheTtlMs = 5_000,
  ) {
    this.cache = new TtlCache(cacheTtlMs);
  }

  /** The server-side view (secrets included) for one tenant and project; `lookup` names the layer of a hit. */
  reader(tenantId: string, projectId: string | null): SettingsReader {
    const lookup = async (key: string) => {
      const hit = await this.effective(tenantId, projectId, key);
      if (!hit) return undefined;
      const projectName = hit.source === 'PROJECT' && projectId ? await this.targets.projectName(tenantId, projectId) : null;
      return { value: hit.setting.value, source: hit.source, layer: describeSettingLayer(hit.source, projectName), secret: hit.setting.secret || isSecretKey(key) };
    };
    return { get: async (key) => (await this.effective(tenantId, projectId, key))?.setting.value, lookup };
  }

  async readerFor(principal: Principal, projectName: string | null | undefined): Promise<SettingsReader> {
    const scope = await this.targets.scope(principal, projectName);
    return this.reader(scope.tenantId, scope.projectId);
  }

  async get(principal: Principal, key: string, projectName?: string | null): Promise<SettingView> {
    const scope = await this.targets.scope(principal, projectName);
    const hit = await this.effective(scope.tenantId, scope.projectId, validateSettingKey(key));
    return hit ? view(hit.setting, hit.source) : { key, value: null, secret: isSecretKey(key), hasValue: false, source: null, updatedAt: null };
  }

  async list(principal: Principal, projectName?: string | null): Promise<SettingView[]> {
    const scope = await this.targets.scope(principal, projectName);
    const merged = new Map<string, SettingView>();
    for (const [key, value] of Object.entries(this.environment)) merged.set(key, view(envSetting(scope.tenantId, key, value), 'ENVIRONMENT'));
    for (const s of (await this.layer(scope.tenantId, null)).values()) merged.set(s.key, view(s, 'VANCE'));
    if (scope.projectId) for (const s of (await this.layer(scope.tenantId, scope.projectId)).values()) merged.set(s.key, view(s, 'PROJECT'));
    return [...merged.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  /** Sets (or, with value null, removes) a tenant setting, or a project setting when `project` is given. */
  async put(principal: Principal, key: string, value: string | null, projectName?: string | null, secret?: boolean | null): Promise<SettingView> {
    validateSettingKey(key);
    const projectId = await this.writableProject(principal, projectName);
    const tenantId = principal.tenant.id;
    this.cache.delete(cacheKey(tenantId, projectId));
    if (value === null) {
      await this.store.delete(tenantId, projectId, key);
      return this.get(principal, key, projectName);
    }
    if (value.length > MAX_SETTING_VALUE_LENGTH) {
      throw new InvalidInputError('SETTING_TOO_LARGE', `A setting value may hold at most ${MAX_SETTING_VALUE_LENGTH} characters`, 'value');
    }
    const stored = await this.store.put({ tenantId, projectId, key, value, secret: Boolean(secret) || isSecretKey(key) });
    this.cache.delete(cacheKey(tenantId, projectId));
    return view(stored, projectId ? 'PROJECT' : 'VANCE');
  }

  private async writableProject(principal: Principal, projectName: string | null | undefined): Promise<string | null> {
    if (!projectName) {
      if (layerAccess(principal, 'VANCE', null, null) !== 'WRITE') throw new ForbiddenError('Only tenant admins change tenant settings');
      return null;
    }
    const target = await this.targets.resolve(principal, 'PROJECT', projectName);
    if (target.access !== 'WRITE') throw new ForbiddenError(`Only admins of '${projectName}' change its settings`);
    return target.projectId;
  }

  private async effective(tenantId: string, projectId: string | null, key: string): Promise<{ setting: StoredSetting; source: SettingSource } | null> {
    if (projectId) {
      const hit = (await this.layer(tenantId, projectId)).get(key);
      if (hit) return { setting: hit, source: 'PROJECT' };
    }
    const tenantHit = (await this.layer(tenantId, null)).get(key);
    if (tenantHit) return { setting: tenantHit, source: 'VANCE' };
    const env = this.environment[key];
    return env === undefined ? null : { setting: envSetting(tenantId, key, env), source: 'ENVIRONMENT' };
  }

  private layer(tenantId: string, projectId: string | null): Promise<ReadonlyMap<string, StoredSetting>> {
    return this.cache.getOrLoad(cacheKey(tenantId, projectId), async () => new Map((await this.store.list(tenantId, projectId)).map((s) => [s.key, s])));
  }
}

function view(setting: StoredSetting, source: SettingSource): SettingView {
  return {
    key: setting.key,
    value: setting.secret ? null : setting.value,
    secret: setting.secret,
    hasValue: true,
    source,
    updatedAt: source === 'ENVIRONMENT' ? null : setting.updatedAt,
  };
}

function envSetting(tenantId: string, key: string, value: string): StoredSetting {
  return { tenantId, projectId: null, key, value, secret: isSecretKey(key), updatedAt: new Date(0) };
}

const cacheKey = (tenantId: string, projectId: string | null) => `${tenantId}/${projectId ?? '-'}`;
