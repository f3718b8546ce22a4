/**
 * The provider request of a turn's first model call (issue 15, "the preview is the request"): one
 * pure function builds it, the turn sends it (turn-runner.ts) and composeTurnPreview, the
 * PromptComposed event and resolveRecipe show it. Anything the preview shows about what the model
 * receives comes from here, so the two cannot drift apart again (34 tools shown, 11 sent).
 *
 * What the provider adapter still does on the wire (llm/ai-sdk-provider.ts): it wraps each tool as
 * the provider's tool format and leaves `labels` out (they are for `@label` selectors, not the
 * model), and maps the sampling values onto the provider's names. The sampling here is already the
 * provider's (sampling-coverage.ts): what it does not take is left out and listed in `droppedSampling`.
 * Also the SDK's, not ours: Anthropic gets a system message after the conversation began as a user
 * message marked `[system]`; OpenAI reasoning models (o1, o3, gpt-5) get system messages with the
 * role `developer`, and the SDK removes temperature, topP and the penalties for them (with a warning
 * the adapter logs) — the preview still shows them; transport fields (`stream`, `tool_choice`) are added.
 * Checked on the wire by test/graphql/preview-request.test.ts.
 */
import type { ChatMessage, ToolSpec } from '../llm/model-provider';
import { samplingAsSent } from '../llm/sampling-coverage';
import type { SamplingKey, SamplingParams } from '../recipes/sampling-params';

/** A tool as the request offers it: what the model gets, plus its labels for the reader. */
export interface RequestTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly labels: readonly string[];
}

export interface ModelRequest {
  readonly provider: string;
  readonly model: string;
  /** The composed system messages first, then the chat history that fits the context window. */
  readonly messages: readonly ChatMessage[];
  /** How many of `messages` are composed system messages (the rest is the chat log). */
  readonly systemMessages: number;
  readonly tools: readonly RequestTool[];
  /** As the provider receives them. */
  readonly sampling: SamplingParams;
  /** Sampling params that were set but that this provider does not take. */
  readonly droppedSampling: readonly SamplingKey[];
}

export interface ModelRequestSource {
  readonly model: { readonly provider: string; readonly model: string };
  /** The composed system messages (prompt, skills section, deferred-tool listing). */
  readonly system: readonly ChatMessage[];
  /** The tools offered to the model, with their schemas. */
  readonly tools: readonly ToolSpec[];
  /** The process's sampling params (resolveSampling over its engine params). */
  readonly sampling: SamplingParams;
}

export function buildModelRequest(source: ModelRequestSource, fittedHistory: readonly ChatMessage[]): ModelRequest {
  const { sampling, dropped } = samplingAsSent(source.model.provider, source.sampling);
  return {
    provider: source.model.provider,
    model: source.model.model,
    messages: [...source.system, ...fittedHistory],
    systemMessages: source.system.length,
    tools: source.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, labels: t.labels ?? [] })),
    sampling,
    droppedSampling: dropped,
  };
}

/** The composed system messages of a request. */
export function systemOf(request: ModelRequest): readonly ChatMessage[] {
  return request.messages.slice(0, request.systemMessages);
}

/** The chat history a request carries. */
export function historyOf(request: ModelRequest): readonly ChatMessage[] {
  return request.messages.slice(request.systemMessages);
}
