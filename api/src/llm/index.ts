export { OfflineProvider, OFFLINE_PROVIDER_NAME, OFFLINE_MODEL } from './offline-provider';
export type { OfflineProviderOptions } from './offline-provider';
export { AiSdkProvider, AI_SDK_PROVIDER_NAMES, SAMPLING_COVERAGE, DEFAULT_TIMEOUT_MS, ANTHROPIC_DEFAULT_MAX_TOKENS } from './ai-sdk-provider';
export type { AiSdkProviderName, AiSdkProviderOptions, SamplingCoverage } from './ai-sdk-provider';
export { ProviderRegistry, PROVIDER_NAMES } from './provider-registry';
export type { ProviderRegistryOptions } from './provider-registry';
