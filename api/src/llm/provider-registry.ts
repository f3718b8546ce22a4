/**
 * The ModelProvider the engines get: dispatches each call by `request.provider` (case-insensitive) to
 * the offline provider or to the AI SDK provider. The registered names must equal REGISTERED_PROVIDERS
 * of domain/recipes/model-alias.ts (alias resolution accepts exactly those as `<provider>:<model>`);
 * a test keeps the two lists in step. An unknown name fails the call with UNKNOWN_PROVIDER.
 */
import { ModelCallError } from '../domain/llm/errors';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../domain/llm/model-provider';
import { AI_SDK_PROVIDER_NAMES } from './ai-sdk-names';
import type { AiSdkProviderOptions } from './ai-sdk-provider';
import { OFFLINE_PROVIDER_NAME, OfflineProvider } from './offline-provider';
import type { OfflineProviderOptions } from './offline-provider';

export const PROVIDER_NAMES: readonly string[] = [...AI_SDK_PROVIDER_NAMES, OFFLINE_PROVIDER_NAME];

export interface ProviderRegistryOptions {
  readonly offline?: OfflineProviderOptions;
  readonly aiSdk?: AiSdkProviderOptions;
  /** Replace or add providers by name (tests, fakes). */
  readonly overrides?: Readonly<Record<string, ModelProvider>>;
}

export class ProviderRegistry implements ModelProvider {
  private readonly providers = new Map<string, ModelProvider>();

  constructor(options: ProviderRegistryOptions = {}) {
    const aiSdk = new LazyAiSdkProvider(options.aiSdk);
    for (const name of AI_SDK_PROVIDER_NAMES) this.providers.set(name, aiSdk);
    this.providers.set(OFFLINE_PROVIDER_NAME, new OfflineProvider(options.offline));
    for (const [name, provider] of Object.entries(options.overrides ?? {})) this.providers.set(name.toLowerCase(), provider);
  }

  /** The names this registry dispatches. */
  get names(): readonly string[] {
    return [...this.providers.keys()];
  }

  has(name: string): boolean {
    return this.providers.has(name.toLowerCase());
  }

  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const provider = this.providers.get(request.provider.toLowerCase());
    if (!provider) {
      throw new ModelCallError('UNKNOWN_PROVIDER', `Unknown model provider "${request.provider}" (known: ${this.names.join(', ')})`, request.provider);
    }
    yield* provider.stream(request);
  }
}

/**
 * The AI SDK and its providers are a second or more of modules at start (issue 18: the embedded
 * start); they are loaded by the first call that needs them, so an instance on the offline provider
 * never loads them.
 */
class LazyAiSdkProvider implements ModelProvider {
  private provider: Promise<ModelProvider> | undefined;

  constructor(private readonly options: AiSdkProviderOptions | undefined) {}

  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    this.provider ??= import('./ai-sdk-provider.js').then(({ AiSdkProvider }) => new AiSdkProvider(this.options));
    yield* (await this.provider).stream(request);
  }
}
