import { InvalidInputError } from '../errors';

/** A setting row: tenant-wide (projectId null) or per project. */
export interface StoredSetting {
  readonly tenantId: string;
  readonly projectId: string | null;
  readonly key: string;
  readonly value: string;
  readonly secret: boolean;
  readonly updatedAt: Date;
}

/** Where the effective value came from, innermost first: project → tenant → environment defaults. */
export type SettingSource = 'PROJECT' | 'VANCE' | 'ENVIRONMENT';

/** A setting as the API shows it: secret values never leave the server (DESIGN §6). */
export interface SettingView {
  readonly key: string;
  readonly value: string | null;
  readonly secret: boolean;
  readonly hasValue: boolean;
  readonly source: SettingSource | null;
  readonly updatedAt: Date | null;
}

const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const SECRET_SUFFIX = /(api[-_]?key|secret|token|password)$/i;
export const MAX_SETTING_VALUE_LENGTH = 64 * 1024;

export function validateSettingKey(key: string): string {
  if (typeof key !== 'string' || key.length > 200 || !KEY.test(key)) {
    throw new InvalidInputError('INVALID_SETTING_KEY', `Invalid setting key '${key}': dotted segments of letters, digits, '_' and '-'`, 'key');
  }
  return key;
}

/** Keys that name credentials are secret whatever the caller says (`ai.openai.apiKey`). */
export function isSecretKey(key: string): boolean {
  return SECRET_SUFFIX.test(key.split('.').pop() ?? '');
}
