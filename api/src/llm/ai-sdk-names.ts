/** The providers the AI SDK adapter serves: its own module, so the registry names them without loading the SDK. */
export const AI_SDK_PROVIDER_NAMES = ['openai', 'anthropic', 'gemini', 'google', 'ollama', 'openai-compatible', 'lmstudio'] as const;
export type AiSdkProviderName = (typeof AI_SDK_PROVIDER_NAMES)[number];
