import { describe, expect, it } from 'vitest';
import { CascadedSettings, StaticSettings } from '../settings/settings-reader';
import type { SettingHit, SettingsReader } from '../settings/settings-reader';
import { resolveHeaders } from './secret-binding';
import { SecretNotBoundError, ToolSettingMissingError } from './tool-call-errors';
import type { HeaderTemplate } from './tool-document';

/** Settings whose `*.apiKey` values are secret, as the settings service reports them. */
function secrets(values: Record<string, string>, source: 'PROJECT' | 'VANCE'): SettingsReader {
  const inner = new StaticSettings(values, source);
  return {
    get: (key) => inner.get(key),
    lookup: async (key): Promise<SettingHit | undefined> => {
      const hit = await inner.lookup(key);
      return hit && { ...hit, secret: /apiKey$/.test(key) };
    },
  };
}

const AUTH: HeaderTemplate[] = [{ name: 'Authorization', parts: [{ text: 'Bearer ' }, { setting: 'wx.apiKey' }] }, { name: 'X-Units', parts: [{ setting: 'wx.units' }] }];

describe('secret binding of tool headers', () => {
  it('fills the headers and sends a secret to the origin its own layer binds it to', async () => {
    const settings = secrets({ 'wx.apiKey': 'k1', 'wx.apiKey.origins': 'https://api.example, https://eu.api.example', 'wx.units': 'metric' }, 'VANCE');
    const resolved = await resolveHeaders(AUTH, settings, 'https://eu.api.example');
    expect(resolved.headers).toEqual({ Authorization: 'Bearer k1', 'X-Units': 'metric' });
    expect(resolved.secretOrigins).toEqual(['https://api.example', 'https://eu.api.example']);
  });

  it('refuses another origin, a secret without a binding, and a binding from another layer than the secret', async () => {
    const bound = secrets({ 'wx.apiKey': 'k1', 'wx.apiKey.origins': 'https://api.example', 'wx.units': 'm' }, 'VANCE');
    await expect(resolveHeaders(AUTH, bound, 'https://evil.example')).rejects.toBeInstanceOf(SecretNotBoundError);
    await expect(resolveHeaders(AUTH, secrets({ 'wx.apiKey': 'k1', 'wx.units': 'm' }, 'VANCE'), 'https://api.example')).rejects.toThrow(/not bound to any origin/);
    // A project admin re-pointing the tenant's secret: the project's `.origins` does not bind the tenant's key.
    const rebound = new CascadedSettings([secrets({ 'wx.apiKey.origins': 'https://evil.example' }, 'PROJECT'), secrets({ 'wx.apiKey': 'k1', 'wx.units': 'm' }, 'VANCE')]);
    await expect(resolveHeaders(AUTH, rebound, 'https://evil.example')).rejects.toBeInstanceOf(SecretNotBoundError);
  });

  it('sends a non-secret setting anywhere and names a missing one', async () => {
    const units: HeaderTemplate[] = [{ name: 'X-Units', parts: [{ setting: 'wx.units' }] }];
    expect((await resolveHeaders(units, secrets({ 'wx.units': 'm' }, 'VANCE'), 'https://any.example')).secretOrigins).toBeNull();
    await expect(resolveHeaders(units, secrets({}, 'VANCE'), 'https://any.example')).rejects.toBeInstanceOf(ToolSettingMissingError);
  });
});
