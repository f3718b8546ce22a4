/**
 * The OFFLINE provider (`offline`, model `offline-echo`): the default when nothing is configured
 * (built-in settings ai.default.provider=offline, ai.default.model=offline-echo), so a fresh machine
 * can run a whole turn — prompt, streamed text, tool loop — without a key or a network. It is NOT a
 * language model: every answer is computed from the conversation, deterministically (same request →
 * same events, same ids, same usage).
 *
 * Protocol (how demos and tests drive the loop):
 *
 * 1. Plain answer. The reply is
 *      `Offline model (no provider configured). You said: <last user message, trimmed>`
 *    followed by one line `[system prompt: <n> chars in <m> messages; tools: <a, b> | none]`,
 *    streamed as `text-delta` events of at most WORDS_PER_CHUNK words each, then `finish` 'stop'.
 *
 * 2. Tool calls. If the last message is a user message and it contains lines of the form
 *      `call <tool_name> {json args}`     or     `/tool <tool_name> {json args}`
 *    (the JSON object is optional, default `{}`), each such line naming a tool offered in
 *    `request.tools` becomes one `tool-call` event — ids `offline-call-<k>` where k counts the tool
 *    calls already in the conversation plus one, so ids are unique within a conversation and
 *    reproducible — and the call finishes with 'tool-calls' (no text). A line naming a tool that is
 *    not offered, or with arguments that are not a JSON object, is answered in text instead
 *    ("Offline model: tool <name> is not offered ..." / "... arguments are not a JSON object ...").
 *
 * 3. Tool results. If the conversation ends with tool results, the answer summarises each of them:
 *      `Tool <name> returned: <first 200 chars of the result>`  (or `Tool <name> failed: ...`)
 *    streamed in chunks, then `finish` 'stop'.
 *
 * 4. respond (seed 004 §5a). When `respond` is among `request.tools`, every text answer of 1.–3. is
 *    given as one `respond` tool call `{ message: <the text> }` (finish 'tool-calls') instead of
 *    text deltas — as a model following the convention does, so a validated turn takes one call.
 *
 * Sampling: `maxTokens` caps the answer at that many words (finish 'length'); `stopSequences` cut the
 * answer before the first match (finish 'stop'); the rest is ignored. Usage counts words: input = all
 * message contents (+ tool-call arguments), output = the words produced (a tool call counts its name and
 * its JSON arguments). An aborted `signal` stops the stream with the signal's reason.
 */
import type { ChatMessage, ChatToolCall, ModelCallRequest, ModelProvider, ModelStreamEvent, ToolSpec } from '../domain/llm/model-provider';
import { toolArgumentTextProblem } from '../domain/tools/tool-call-bounds';
import { RESPOND_TOOL } from '../domain/tools/builtin/respond-tool';

export const OFFLINE_PROVIDER_NAME = 'offline';
export const OFFLINE_MODEL = 'offline-echo';
export const WORDS_PER_CHUNK = 3;
export const RESULT_PREVIEW_CHARS = 200;

const CALL_LINE = /^\s*(?:call|\/tool)\s+([A-Za-z0-9_.:-]+)\s*(.*?)\s*$/;

export interface OfflineProviderOptions {
  /** Waits this long between chunks (demos); 0 (default) only yields to the event loop. */
  readonly chunkDelayMs?: number;
}

export class OfflineProvider implements ModelProvider {
  readonly name = OFFLINE_PROVIDER_NAME;

  constructor(private readonly options: OfflineProviderOptions = {}) {}

  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    throwIfAborted(request.signal);
    const inputTokens = countWords(request.messages.map(messageText).join(' '));
    const plan = planAnswer(request);

    if (plan.kind === 'tool-calls') {
      let outputTokens = 0;
      for (const call of plan.calls) {
        await this.pause();
        throwIfAborted(request.signal);
        outputTokens += 1 + countWords(JSON.stringify(call.arguments));
        yield { type: 'tool-call', call };
      }
      yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens, outputTokens } };
      return;
    }

    const { text, reason } = applySampling(plan.text, request);
    if (request.tools.some((t) => t.name === RESPOND_TOOL)) {
      await this.pause();
      throwIfAborted(request.signal);
      yield { type: 'tool-call', call: { id: `offline-call-${countToolCalls(request.messages) + 1}`, name: RESPOND_TOOL, arguments: { message: text } } };
      yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens, outputTokens: countWords(text) } };
      return;
    }
    for (const chunk of chunkWords(text)) {
      await this.pause();
      throwIfAborted(request.signal);
      yield { type: 'text-delta', text: chunk };
    }
    yield { type: 'finish', reason, usage: { inputTokens, outputTokens: countWords(text) } };
  }

  private async pause(): Promise<void> {
    const ms = this.options.chunkDelayMs ?? 0;
    await new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
  }
}

type Plan = { kind: 'text'; text: string } | { kind: 'tool-calls'; calls: ChatToolCall[] };

function planAnswer(request: ModelCallRequest): Plan {
  const messages = request.messages;
  const trailingResults: Extract<ChatMessage, { role: 'tool' }>[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'tool') break;
    trailingResults.unshift(m);
  }
  if (trailingResults.length > 0) {
    return { kind: 'text', text: trailingResults.map(summariseResult).join('\n') };
  }

  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const said = lastUser?.content.trim() ?? '';

  if (last?.role === 'user') {
    const offered = new Map(request.tools.map((t) => [t.name, t]));
    const calls: ChatToolCall[] = [];
    const problems: string[] = [];
    let next = countToolCalls(messages) + 1;
    for (const line of last.content.split(/\r?\n/)) {
      const match = CALL_LINE.exec(line);
      if (!match) continue;
      const name = match[1] ?? '';
      const rawArgs = match[2] ?? '';
      if (!offered.has(name)) {
        problems.push(`Offline model: tool ${name} is not offered (offered: ${toolList(request.tools)}).`);
        continue;
      }
      // Never parse (or echo) text over the tool-argument caps.
      const tooBig = toolArgumentTextProblem(rawArgs);
      if (tooBig) {
        problems.push(`Offline model: arguments for tool ${name} refused: ${tooBig}.`);
        continue;
      }
      const args = parseArgs(rawArgs);
      if (!args) {
        problems.push(`Offline model: arguments for tool ${name} are not a JSON object: ${rawArgs}`);
        continue;
      }
      calls.push({ id: `offline-call-${next++}`, name, arguments: args });
    }
    if (calls.length > 0) return { kind: 'tool-calls', calls };
    if (problems.length > 0) return { kind: 'text', text: problems.join('\n') };
  }

  const systemMessages = messages.filter((m) => m.role === 'system');
  const systemChars = systemMessages.reduce((n, m) => n + m.content.length, 0);
  return {
    kind: 'text',
    text:
      `Offline model (no provider configured). You said: ${said}\n` +
      `[system prompt: ${systemChars} chars in ${systemMessages.length} messages; tools: ${toolList(request.tools)}]`,
  };
}

function summariseResult(m: Extract<ChatMessage, { role: 'tool' }>): string {
  const preview = m.content.length > RESULT_PREVIEW_CHARS ? `${m.content.slice(0, RESULT_PREVIEW_CHARS)}…` : m.content;
  return `Tool ${m.toolName} ${m.isError ? 'failed' : 'returned'}: ${preview}`;
}

function parseArgs(raw: string): Record<string, unknown> | null {
  if (raw === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function applySampling(text: string, request: ModelCallRequest): { text: string; reason: 'stop' | 'length' } {
  let out = text;
  for (const stop of request.sampling.stopSequences ?? []) {
    const at = stop === '' ? -1 : out.indexOf(stop);
    if (at >= 0) out = out.slice(0, at);
  }
  const max = request.sampling.maxTokens;
  if (max !== null && countWords(out) > max) {
    const words = out.match(/\S+\s*/g) ?? [];
    return { text: words.slice(0, max).join('').trimEnd(), reason: 'length' };
  }
  return { text: out, reason: 'stop' };
}

/** Groups of WORDS_PER_CHUNK words, whitespace kept, so the chunks concatenate to the text. */
export function chunkWords(text: string): string[] {
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  const words = text.slice(leading.length).match(/\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) chunks.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  if (leading !== '') {
    if (chunks.length === 0) chunks.push(leading);
    else chunks[0] = leading + chunks[0];
  }
  return chunks;
}

export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

function countToolCalls(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
}

function messageText(m: ChatMessage): string {
  if (m.role === 'assistant' && m.toolCalls) return [m.content, ...m.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)].join(' ');
  return m.content;
}

function toolList(tools: readonly ToolSpec[]): string {
  return tools.length === 0 ? 'none' : tools.map((t) => t.name).join(', ');
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
