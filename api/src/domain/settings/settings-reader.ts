/**
 * Settings as one request sees them, already cascaded: project → tenant → environment defaults
 * (first hit wins). Keys are dotted (`ai.default.provider`, `ai.alias.default.fast`). Secret values
 * (provider API keys) are readable here, for the server's own use, but never through the API.
 */
export interface SettingsReader {
  get(key: string): Promise<string | undefined>;
}

/** A fixed map, for tests and for composing defaults. */
export class StaticSettings implements SettingsReader {
  constructor(private readonly values: Readonly<Record<string, string>>) {}
  async get(key: string): Promise<string | undefined> {
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }
}
