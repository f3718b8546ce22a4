/**
 * Secrets are bound to their endpoint (DESIGN §6, issue 13 part 6). Settings cascade project →
 * tenant → server defaults, and a provider key is write-only — but whoever may set a base URL could
 * read any key that would be sent to it. So a key goes only to a base URL configured at the same
 * layer as the key or an outer one (a layer whose writers may set that key too: tenant admins write
 * tenant and project settings, project admins only their project's); no base URL means the
 * provider's own endpoint, built into the code — the outermost of all. A base URL set at an inner
 * layer than the key gets no key, and the caller is told why (`withheld`).
 *
 * Measured before: a project admin set `ai.openai.baseUrl` for the project to their own listener,
 * sent a message, and received the tenant's `ai.openai.apiKey` as `Authorization: Bearer …`.
 */
import type { SettingSource } from '../settings/setting';
import type { SettingHit, SettingsReader } from '../settings/settings-reader';

/** Innermost first: a key at rank r may go to an endpoint at rank ≥ r. */
const RANK: Readonly<Record<SettingSource, number>> = { PROJECT: 0, VANCE: 1, ENVIRONMENT: 2 };
const OWNERS: Readonly<Record<SettingSource, string>> = {
  PROJECT: "the project's",
  VANCE: "the tenant's",
  ENVIRONMENT: "the server's default",
};

export interface EndpointCredential {
  /** The key to send, or undefined (none set, or withheld). */
  readonly apiKey: string | undefined;
  /** The configured base URL, or undefined for the provider's own endpoint. */
  readonly baseUrl: string | undefined;
  /** Why a key that is set is not sent, in one sentence naming the settings and layers; null when nothing was withheld. */
  readonly withheld: string | null;
}

/**
 * The key and base URL a call may use. `keys` and `urls` are setting names in fallback order (the
 * first one set wins, e.g. gemini reads `ai.gemini.*`, then `ai.google.*`). Values are trimmed; an
 * empty value counts as not set.
 */
export async function endpointCredential(settings: SettingsReader, keys: readonly string[], urls: readonly string[]): Promise<EndpointCredential> {
  const key = await firstSet(settings, keys);
  const url = await firstSet(settings, urls);
  if (!key || !url || RANK[key.hit.source] <= RANK[url.hit.source]) {
    return { apiKey: key?.value, baseUrl: url?.value, withheld: null };
  }
  const withheld =
    `${url.name} is set in ${url.hit.layer} but ${keys[0]} is not: ${OWNERS[key.hit.source]} key (${key.name}, set in ${key.hit.layer}) ` +
    `is not sent to an endpoint configured in ${url.hit.layer}. Set ${keys[0]} in ${url.hit.layer} too, or remove ${url.name} there.`;
  return { apiKey: undefined, baseUrl: url.value, withheld };
}

async function firstSet(settings: SettingsReader, names: readonly string[]): Promise<{ name: string; value: string; hit: SettingHit } | null> {
  for (const name of names) {
    const hit = await settings.lookup(name);
    const value = hit?.value.trim();
    if (hit && value) return { name, value, hit };
  }
  return null;
}
