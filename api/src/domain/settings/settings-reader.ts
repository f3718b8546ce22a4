import type { SettingSource } from './setting';

/** An effective setting with the layer it came from (the first hit of the cascade). */
export interface SettingHit {
  readonly value: string;
  readonly source: SettingSource;
  /** The layer in words, for messages: "project 'p'", "the tenant", "the server defaults". */
  readonly layer: string;
  /** Stored as a secret (or named like one): only for the server's own use, and only where it is bound. */
  readonly secret?: boolean;
}

/**
 * Settings as one request sees them, already cascaded: project → tenant → environment defaults
 * (first hit wins). Keys are dotted (`ai.default.provider`, `ai.alias.default.fast`). Secret values
 * (provider API keys) are readable here, for the server's own use, but never through the API.
 * `lookup` also says which layer the value came from: a key is bound to the endpoint of its layer
 * (domain/llm/endpoint-credential.ts).
 */
export interface SettingsReader {
  get(key: string): Promise<string | undefined>;
  lookup(key: string): Promise<SettingHit | undefined>;
}

/** How a layer is named in messages. */
export function describeSettingLayer(source: SettingSource, projectName: string | null): string {
  switch (source) {
    case 'PROJECT':
      return projectName ? `project '${projectName}'` : 'the project';
    case 'VANCE':
      return 'the tenant';
    case 'ENVIRONMENT':
      return 'the server defaults (VANCE_DEFAULT_SETTINGS)';
    default: {
      const never: never = source;
      return never;
    }
  }
}

/** A fixed map, for tests and for composing defaults; its values report `source` (default: the environment). */
export class StaticSettings implements SettingsReader {
  constructor(
    private readonly values: Readonly<Record<string, string>>,
    private readonly source: SettingSource = 'ENVIRONMENT',
    private readonly projectName: string | null = null,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.lookup(key))?.value;
  }

  async lookup(key: string): Promise<SettingHit | undefined> {
    if (!Object.hasOwn(this.values, key)) return undefined;
    return { value: this.values[key]!, source: this.source, layer: describeSettingLayer(this.source, this.projectName) };
  }
}

/** Readers tried in order, first hit wins: `new CascadedSettings([project, tenant, environment])`. */
export class CascadedSettings implements SettingsReader {
  constructor(private readonly layers: readonly SettingsReader[]) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.lookup(key))?.value;
  }

  async lookup(key: string): Promise<SettingHit | undefined> {
    for (const layer of this.layers) {
      const hit = await layer.lookup(key);
      if (hit) return hit;
    }
    return undefined;
  }
}
