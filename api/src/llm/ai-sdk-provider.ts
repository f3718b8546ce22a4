/**
 * The real model providers, all behind the one ModelProvider port, through the AI SDK (`ai` v6):
 *
 *   name               settings (cascaded project → tenant → environment)                 SDK model
 *   openai             ai.openai.apiKey (required), ai.openai.baseUrl                       createOpenAI(...).chat (chat completions)
 *   anthropic          ai.anthropic.apiKey (required), ai.anthropic.baseUrl                 createAnthropic
 *   gemini / google    ai.<name>.apiKey (required; the other name is read as a fallback),   createGoogleGenerativeAI
 *                      ai.<name>.baseUrl
 *   ollama             ai.ollama.baseUrl (default http://127.0.0.1:11434/api), ai.ollama.apiKey
 *                      (optional, sent as a bearer token for Ollama Cloud)                  createOllama (ollama-ai-provider-v2)
 *   openai-compatible  ai.openai-compatible.baseUrl (required), ai.openai-compatible.apiKey  createOpenAICompatible
 *   lmstudio           ai.lmstudio.baseUrl (default http://127.0.0.1:1234/v1), apiKey        createOpenAICompatible
 *
 * Every provider also reads `ai.<name>.timeoutMs` (default 120 000): the longest wait for the first
 * stream part and between two parts; past it the call is aborted with PROVIDER_TIMEOUT.
 *
 * Keys are bound to their endpoint (domain/llm/endpoint-credential.ts, DESIGN §6): a key is sent only
 * to a base URL set at the key's own layer or an outer one. With a base URL from an inner layer, a
 * provider that needs a key fails with PROVIDER_NOT_CONFIGURED saying which key was withheld and why;
 * one whose key is optional (ollama, openai-compatible, lmstudio) is called without it, the reason
 * goes to `onWarnings` and into the message of any error the call ends with.
 *
 * One call = one model step (`stopWhen: stepCountIs(1)`): tools are declared WITHOUT `execute`, so the
 * SDK hands the tool calls back and our engine runs the tool loop. No SDK retries (`maxRetries: 0`):
 * a failed call fails the turn and keeps the inbox.
 *
 * Sampling (seed 004 §5c): what a provider does not support is dropped, by the coverage table in
 *   domain/llm/sampling-coverage.ts (the turn's request applies it already; applied here again for
 *   callers that did not).  Ollama gets its sampling in `options` (num_predict, top_k, seed, stop, ...)
 *   through providerOptions, the only way ollama-ai-provider-v2 forwards them.
 *
 * Errors become ModelCallError: PROVIDER_NOT_CONFIGURED (names the setting to set), PROVIDER_UNAVAILABLE
 * (no connection), PROVIDER_ERROR (an HTTP error with its status and the provider's message, a stream
 * that broke off, anything else), PROVIDER_TIMEOUT. The API key is scrubbed from every message. An abort
 * through `request.signal` is not a provider failure: the signal's reason is rethrown as is.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, RetryError, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type { JSONSchema7, LanguageModel, ModelMessage, ToolSet } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { endpointCredential } from '../domain/llm/endpoint-credential';
import { ModelCallError } from '../domain/llm/errors';
import { coverageOf, toInt32, type SamplingCoverage } from '../domain/llm/sampling-coverage';
import { MAX_TOOL_ARGUMENT_CHARS } from '../domain/tools/tool-call-bounds';
import { boundedFetch, DEFAULT_MAX_MODEL_RESPONSE_BYTES, ResponseTooLargeError } from './bounded-fetch';
import type { ChatMessage, FinishReason, ModelCallRequest, ModelProvider, ModelStreamEvent, ToolSpec } from '../domain/llm/model-provider';
import type { SamplingParams } from '../domain/recipes/sampling-params';
import type { SettingsReader } from '../domain/settings/settings-reader';
import { AI_SDK_PROVIDER_NAMES, type AiSdkProviderName } from './ai-sdk-names';

// The §5c coverage table lives in the domain (the request a turn builds already applies it).
export { ANTHROPIC_DEFAULT_MAX_TOKENS, SAMPLING_COVERAGE, toInt32, type SamplingCoverage } from '../domain/llm/sampling-coverage';

export { AI_SDK_PROVIDER_NAMES, type AiSdkProviderName };

export const DEFAULT_TIMEOUT_MS = 120_000;
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/api';
export const LMSTUDIO_DEFAULT_BASE_URL = 'http://127.0.0.1:1234/v1';

type FetchFunction = typeof globalThis.fetch;

export interface AiSdkProviderOptions {
  /** A fetch to use instead of the global one (tests, proxies). */
  readonly fetch?: FetchFunction;
  /** The most bytes one provider response may hold (bounded-fetch.ts); default 32 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Receives the SDK's call warnings (an unsupported setting, a compatibility mode), one line each, e.g.
   * to log them through pino. The SDK also prints them to the console unless
   * `globalThis.AI_SDK_LOG_WARNINGS = false` (a process-wide switch, left to main.ts).
   */
  readonly onWarnings?: (provider: string, model: string, warnings: readonly string[]) => void;
}

export function isAiSdkProvider(name: string): name is AiSdkProviderName {
  return (AI_SDK_PROVIDER_NAMES as readonly string[]).includes(name);
}

interface ResolvedModel {
  readonly model: LanguageModel;
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  /** A key that is set but was not sent (endpoint binding): said in every error of the call. */
  readonly withheld: string | null;
}

export class AiSdkProvider implements ModelProvider {
  constructor(private readonly options: AiSdkProviderOptions = {}) {}

  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    const provider = request.provider.toLowerCase();
    if (!isAiSdkProvider(provider)) throw new ModelCallError('UNKNOWN_PROVIDER', `Unknown model provider "${request.provider}"`, request.provider);
    if (request.signal?.aborted) throw abortReason(request.signal);
    const resolved = await this.resolveModel(provider, request.model, request.settings);

    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => timeout.abort(new Error('timeout')), resolved.timeoutMs);
    };
    // Cancels the HTTP request when our consumer stops iterating early (break / return).
    const cancel = new AbortController();
    const signal = AbortSignal.any([timeout.signal, cancel.signal, ...(request.signal ? [request.signal] : [])]);
    let received = false;

    const fail = (error: unknown): unknown => {
      if (request.signal?.aborted) return abortReason(request.signal);
      if (timeout.signal.aborted) {
        return new ModelCallError('PROVIDER_TIMEOUT', `${provider} (model ${request.model}) did not answer within ${resolved.timeoutMs} ms`, provider);
      }
      const failure = toModelCallError(error, provider, received, resolved.secrets);
      return resolved.withheld ? new ModelCallError(failure.code, `${failure.message} (${resolved.withheld})`, provider) : failure;
    };

    arm();
    try {
      const tools = toToolSet(request.tools);
      const result = streamText({
        model: resolved.model,
        messages: toModelMessages(request.messages, provider),
        // Our system messages are composed by the server (engine prompt, recipe prefix, skills), not user input.
        allowSystemInMessages: true,
        ...(tools ? { tools, toolChoice: 'auto' as const } : {}),
        ...(provider === 'ollama' ? toOllamaSettings(request.sampling) : toCallSettings(request.sampling, coverageOf(provider))),
        stopWhen: stepCountIs(1),
        maxRetries: 0,
        abortSignal: signal,
        // The SDK's default onError logs to the console; failures reach us as 'error' parts instead.
        onError: () => undefined,
      });

      let finished = false;
      const inputChars = new Map<string, number>();
      const tooLarge = (what: string) => {
        cancel.abort(new Error(what));
        return new ModelCallError('PROVIDER_ERROR', `${provider} (model ${request.model}) sent too much: ${what}; the call was stopped`, provider);
      };
      for await (const part of result.fullStream) {
        // The idle timer runs only while we wait for the provider, not while our consumer handles a yield.
        clearTimeout(timer);
        switch (part.type) {
          case 'text-delta':
            received = true;
            if (part.text !== '') yield { type: 'text-delta', text: part.text };
            break;
          case 'tool-call':
            received = true;
            yield { type: 'tool-call', call: { id: part.toolCallId, name: part.toolName, arguments: toArguments(part.input) } };
            break;
          case 'tool-input-delta': {
            received = true;
            // Counted as they stream, so an endless argument is stopped before the SDK buffers and parses it (issue 13).
            const chars = (inputChars.get(part.id) ?? 0) + part.delta.length;
            inputChars.set(part.id, chars);
            if (chars > MAX_TOOL_ARGUMENT_CHARS) throw tooLarge(`the arguments of one tool call exceed ${MAX_TOOL_ARGUMENT_CHARS} characters`);
            break;
          }
          case 'reasoning-delta':
          case 'tool-input-start':
          case 'text-start':
            received = true;
            break;
          case 'start-step':
            if (part.warnings.length > 0) this.options.onWarnings?.(provider, request.model, part.warnings.map(describeWarning));
            break;
          case 'error':
            throw fail(part.error);
          case 'abort':
            throw fail(new Error('aborted'));
          case 'finish':
            finished = true;
            yield {
              type: 'finish',
              reason: toFinishReason(part.finishReason),
              usage: { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 },
            };
            break;
          default:
            break;
        }
        arm();
      }
      if (!finished) throw fail(new Error('the stream ended without a finish'));
    } catch (error) {
      if (error instanceof ModelCallError) throw error;
      throw fail(error);
    } finally {
      clearTimeout(timer);
      cancel.abort(new Error('the caller stopped reading the stream'));
    }
  }

  private async resolveModel(provider: AiSdkProviderName, model: string, settings: SettingsReader): Promise<ResolvedModel> {
    const fetch = boundedFetch(this.options.fetch ?? globalThis.fetch, this.options.maxResponseBytes ?? DEFAULT_MAX_MODEL_RESPONSE_BYTES);
    const setting = async (key: string) => {
      const value = (await settings.get(key))?.trim();
      return value === undefined || value === '' ? undefined : value;
    };
    const timeoutMs = parseTimeout(await setting(`ai.${provider}.timeoutMs`));
    // gemini and google read each other's settings as a fallback.
    const names = provider === 'gemini' || provider === 'google' ? [provider, provider === 'gemini' ? 'google' : 'gemini'] : [provider];
    const { apiKey, baseUrl: baseURL, withheld } = await endpointCredential(settings, names.map((n) => `ai.${n}.apiKey`), names.map((n) => `ai.${n}.baseUrl`));
    if (withheld) this.options.onWarnings?.(provider, model, [withheld]);
    const required = (): string => {
      if (apiKey !== undefined) return apiKey;
      throw new ModelCallError('PROVIDER_NOT_CONFIGURED', withheld ?? `Model provider ${provider} is not configured: set ai.${provider}.apiKey (the API key)`, provider);
    };
    const resolved = (languageModel: LanguageModel): ResolvedModel => ({ model: languageModel, secrets: apiKey ? [apiKey] : [], timeoutMs, withheld });

    switch (provider) {
      case 'openai':
        return resolved(createOpenAI({ apiKey: required(), baseURL, fetch }).chat(model));
      case 'anthropic':
        return resolved(createAnthropic({ apiKey: required(), baseURL, fetch })(model));
      case 'gemini':
      case 'google':
        return resolved(createGoogleGenerativeAI({ apiKey: required(), baseURL, fetch })(model));
      case 'ollama': {
        const ollama = createOllama({ baseURL: baseURL ?? OLLAMA_DEFAULT_BASE_URL, fetch, ...(apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : {}) });
        return resolved(ollama(model));
      }
      case 'openai-compatible':
      case 'lmstudio': {
        const base = baseURL ?? (provider === 'lmstudio' ? LMSTUDIO_DEFAULT_BASE_URL : undefined);
        if (base === undefined) {
          throw new ModelCallError('PROVIDER_NOT_CONFIGURED', `Model provider ${provider} is not configured: set ai.${provider}.baseUrl (the endpoint, e.g. http://127.0.0.1:8000/v1)`, provider);
        }
        return resolved(createOpenAICompatible({ name: provider, baseURL: base, apiKey, fetch, includeUsage: true }).chatModel(model));
      }
    }
  }
}

function parseTimeout(raw: string | undefined): number {
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** Our sampling params → the SDK's call settings, per the §5c coverage table. */
export function toCallSettings(sampling: SamplingParams, coverage: SamplingCoverage) {
  const maxTokens = sampling.maxTokens ?? coverage.defaultMaxTokens;
  return {
    temperature: sampling.temperature,
    ...(maxTokens !== null ? { maxOutputTokens: maxTokens } : {}),
    ...(sampling.topP !== null ? { topP: sampling.topP } : {}),
    ...(sampling.topK !== null && coverage.topK ? { topK: sampling.topK } : {}),
    ...(sampling.stopSequences !== null && sampling.stopSequences.length > 0 ? { stopSequences: [...sampling.stopSequences] } : {}),
    ...(sampling.seed !== null && coverage.seed ? { seed: toInt32(sampling.seed) } : {}),
    ...(sampling.frequencyPenalty !== null && coverage.frequencyPenalty ? { frequencyPenalty: sampling.frequencyPenalty } : {}),
    ...(sampling.presencePenalty !== null && coverage.presencePenalty ? { presencePenalty: sampling.presencePenalty } : {}),
  };
}

/**
 * Ollama's /api/chat reads sampling from `options` (temperature, top_p, top_k, seed, stop, num_predict);
 * ollama-ai-provider-v2 only forwards those through providerOptions.ollama.options, so they go there.
 * Penalties are not mapped (§5c: ignored for Ollama).
 */
export function toOllamaSettings(sampling: SamplingParams) {
  const options = {
    temperature: sampling.temperature,
    ...(sampling.maxTokens !== null ? { num_predict: sampling.maxTokens } : {}),
    ...(sampling.topP !== null ? { top_p: sampling.topP } : {}),
    ...(sampling.topK !== null ? { top_k: sampling.topK } : {}),
    ...(sampling.stopSequences !== null && sampling.stopSequences.length > 0 ? { stop: [...sampling.stopSequences] } : {}),
    ...(sampling.seed !== null ? { seed: toInt32(sampling.seed) } : {}),
  };
  return { providerOptions: { ollama: { options } } };
}

/**
 * Our messages → the SDK's. Assistant tool calls become tool-call parts, tool results tool-result
 * parts (consecutive results share one tool message). Anthropic takes system text only at the start:
 * a system message after the conversation began is sent there as a user message marked `[system]`.
 */
export function toModelMessages(messages: readonly ChatMessage[], provider: string): ModelMessage[] {
  const out: ModelMessage[] = [];
  let conversationStarted = false;
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        if (conversationStarted && provider === 'anthropic') out.push({ role: 'user', content: `[system] ${m.content}` });
        else out.push({ role: 'system', content: m.content });
        break;
      case 'user':
        conversationStarted = true;
        out.push({ role: 'user', content: m.content });
        break;
      case 'assistant':
        conversationStarted = true;
        if (m.toolCalls && m.toolCalls.length > 0) {
          out.push({
            role: 'assistant',
            content: [
              ...(m.content !== '' ? [{ type: 'text' as const, text: m.content }] : []),
              ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.arguments })),
            ],
          });
        } else {
          out.push({ role: 'assistant', content: m.content });
        }
        break;
      case 'tool': {
        conversationStarted = true;
        const part = {
          type: 'tool-result' as const,
          toolCallId: m.toolCallId,
          toolName: m.toolName,
          output: m.isError ? { type: 'error-text' as const, value: m.content } : { type: 'text' as const, value: m.content },
        };
        const previous = out[out.length - 1];
        if (previous?.role === 'tool') previous.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return out;
}

/** Tools without `execute`: the SDK returns the calls to us. Undefined when there are none. */
export function toToolSet(tools: readonly ToolSpec[]): ToolSet | undefined {
  if (tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const t of tools) {
    const schema = { type: 'object', properties: {}, ...t.parameters } as JSONSchema7;
    set[t.name] = tool({ description: t.description, inputSchema: jsonSchema<Record<string, unknown>>(schema) });
  }
  return set;
}

function toArguments(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'tool-calls':
    case 'length':
    case 'content-filter':
    case 'error':
      return reason;
    default:
      return 'other';
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** Any failure → ModelCallError, with the API key(s) scrubbed from the message. */
export function toModelCallError(error: unknown, provider: string, received: boolean, secrets: readonly string[]): ModelCallError {
  let e = error;
  if (RetryError.isInstance(e)) e = e.lastError;
  const scrub = (text: string) => scrubSecrets(text, secrets);
  const tooLarge = e instanceof ResponseTooLargeError ? e : (e as { cause?: unknown } | null)?.cause instanceof ResponseTooLargeError ? (e as { cause: ResponseTooLargeError }).cause : null;
  if (tooLarge) return new ModelCallError('PROVIDER_ERROR', `${provider} sent too much: ${tooLarge.message}; the call was stopped`, provider);
  if (APICallError.isInstance(e)) {
    if (e.statusCode !== undefined) {
      const detail = providerMessage(e.responseBody) ?? e.message;
      return new ModelCallError('PROVIDER_ERROR', scrub(`${provider} answered HTTP ${e.statusCode}: ${detail}`), provider);
    }
    if (!received) return new ModelCallError('PROVIDER_UNAVAILABLE', scrub(`${provider} is unreachable${urlNote(e.url)}: ${e.message}`), provider);
    return new ModelCallError('PROVIDER_ERROR', scrub(`${provider} stream broke off: ${e.message}`), provider);
  }
  if (!(e instanceof Error)) {
    // An error the provider reported inside the stream (e.g. OpenAI's `data: {"error": {...}}`).
    return new ModelCallError('PROVIDER_ERROR', scrub(`${provider} reported an error: ${describe(e)}`), provider);
  }
  const message = e.message;
  if (!received && hasConnectionCode(e)) return new ModelCallError('PROVIDER_UNAVAILABLE', scrub(`${provider} is unreachable: ${message}`), provider);
  if (received || /terminated|socket|ECONNRESET|aborted/i.test(message)) {
    return new ModelCallError('PROVIDER_ERROR', scrub(`${provider} stream broke off: ${message}`), provider);
  }
  return new ModelCallError('PROVIDER_ERROR', scrub(`${provider} call failed: ${message}`), provider);
}

function describeWarning(warning: { type: string; feature?: string; details?: string; message?: string }): string {
  return [warning.type, warning.feature, warning.details ?? warning.message].filter((x) => x !== undefined && x !== '').join(': ');
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  try {
    const json = JSON.stringify(value);
    return json.length > 300 ? `${json.slice(0, 300)}…` : json;
  } catch {
    return String(value);
  }
}

function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: unknown }).error;
    if (typeof error === 'string') return error;
    const message = (error as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return body.length > 300 ? `${body.slice(0, 300)}…` : body;
  }
}

function urlNote(url: string | undefined): string {
  if (!url) return '';
  try {
    return ` at ${new URL(url).origin}`;
  } catch {
    return '';
  }
}

function hasConnectionCode(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Removes the keys themselves and anything shaped like an API key (sk-…, with providers' own masking). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out.replace(/\b(?:sk-|sk_|AIza)[-_A-Za-z0-9*]{8,}/g, '[redacted]');
}
