import type { SamplingParams } from '../recipes/sampling-params';
import type { SettingsReader } from '../settings/settings-reader';

/**
 * The one port every model provider sits behind (issue 5): OpenAI, OpenAI-compatible endpoints,
 * Anthropic, Gemini, Ollama (through the AI SDK) and the offline provider. A call streams text
 * deltas and tool calls, then one finish event. Keys and base URLs are read from `settings`
 * (`ai.<provider>.apiKey`, `ai.<provider>.baseUrl`), already cascaded project → tenant → environment.
 */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ChatToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string; readonly isError?: boolean };

/** A tool offered to the model: name, description and a JSON schema of its arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Its labels (`@label` selectors); shown in previews, not sent to the provider. */
  readonly labels?: readonly string[];
}

export interface ModelCallRequest {
  readonly provider: string;
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly sampling: SamplingParams;
  readonly settings: SettingsReader;
  readonly signal?: AbortSignal;
}

export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other';

export type ModelStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ChatToolCall }
  | { readonly type: 'finish'; readonly reason: FinishReason; readonly usage: ModelUsage };

export interface ModelProvider {
  /** Streams one model call. Throws ModelCallError (a DomainError) on provider failures. */
  stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent>;
}
