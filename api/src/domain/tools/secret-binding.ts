/**
 * Headers of an HTTP tool with their `{setting:<key>}` references filled in, and the rule that keeps
 * secrets where they belong (issue 19: "secrets only to the endpoint they are bound to"). A secret
 * setting is bound by the setting `<key>.origins` (comma- or space-separated origins) in the SAME
 * layer as the secret: whoever may set the secret names where it may go, and neither a tool
 * document's author nor a project admin overriding `.origins` can send a tenant's secret elsewhere.
 * Non-secret settings go wherever the tool's URL goes.
 */
import type { SettingsReader } from '../settings/settings-reader';
import { SecretNotBoundError, ToolSettingMissingError } from './tool-call-errors';
import type { HeaderTemplate } from './tool-document';

export const ORIGINS_SUFFIX = '.origins';

export interface ResolvedHeaders {
  readonly headers: Readonly<Record<string, string>>;
  /** Null without secrets; else the origins every secret carried is bound to (redirects may only go there). */
  readonly secretOrigins: readonly string[] | null;
  /** The secret settings the headers carry. */
  readonly secretSettings: readonly string[];
}

/** Throws SecretNotBoundError when a secret would go to `origin`; nothing is sent then. */
export async function resolveHeaders(templates: readonly HeaderTemplate[], settings: SettingsReader, origin: string): Promise<ResolvedHeaders> {
  const headers: Record<string, string> = {};
  let secretOrigins: string[] | null = null;
  const secretSettings: string[] = [];
  for (const header of templates) {
    let value = '';
    for (const part of header.parts) {
      if ('text' in part) {
        value += part.text;
        continue;
      }
      const hit = await settings.lookup(part.setting);
      if (!hit) throw new ToolSettingMissingError(part.setting);
      if (hit.secret) {
        const bound = await boundOrigins(settings, part.setting, hit.source);
        if (!bound.includes(origin)) throw new SecretNotBoundError(part.setting, origin, bound);
        secretSettings.push(part.setting);
        secretOrigins = secretOrigins === null ? bound : secretOrigins.filter((o) => bound.includes(o));
      }
      value += hit.value;
    }
    if (/[\r\n]/.test(value)) throw new ToolSettingMissingError(header.name, 'resolves to a value with a line break, which a header cannot carry');
    headers[header.name] = value;
  }
  return { headers, secretOrigins, secretSettings };
}

async function boundOrigins(settings: SettingsReader, key: string, layer: string): Promise<string[]> {
  const binding = await settings.lookup(`${key}${ORIGINS_SUFFIX}`);
  if (!binding || binding.source !== layer) return [];
  return binding.value.split(/[\s,]+/).flatMap((entry) => {
    try {
      const url = new URL(entry);
      return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [];
    } catch {
      return [];
    }
  });
}
