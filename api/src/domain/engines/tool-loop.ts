import type { ChatMessage, ChatToolCall, FinishReason, ModelUsage, ToolSpec } from '../llm/model-provider';
import type { TurnContext, TurnResult } from './engine';
import { correctionFor, type CorrectionKind } from './validator-corrections';
import { capToolResult, toolArgumentsProblem } from '../tools/tool-call-bounds';
import { RESPOND_TOOL, respondMessage } from '../tools/builtin/respond-tool';

/**
 * The turn of a tool-using engine (ford, arthur): call the model, run the tool calls it makes, feed
 * the results back, until it replies — through `respond` (seed 004 §5a) or in plain text — or
 * `maxIterations` model calls were made. A respond call is the reply: its message is streamed and
 * stored as the assistant's message, like a plain answer, and ends the turn (the work calls of the
 * same response run first). Every assistant and tool message is persisted; validator corrections
 * (seed 004 §5a) are persisted as system messages and give the model one more round each.
 */
/** Calls whose arguments were over a cap: stored and emitted without them, never dispatched. */
const refusals = new WeakMap<ChatToolCall, string>();

function bounded(call: ChatToolCall): ChatToolCall {
  const problem = toolArgumentsProblem(call.arguments);
  if (problem === null) return call;
  const stripped: ChatToolCall = { ...call, arguments: { refused: problem } };
  refusals.set(stripped, problem);
  return stripped;
}

export async function runToolLoop(ctx: TurnContext): Promise<TurnResult> {
  const conversation: ChatMessage[] = [...ctx.system, ...ctx.history];
  const usage = { inputTokens: 0, outputTokens: 0 };
  const corrections: CorrectionKind[] = [];
  let finishReason: FinishReason = 'stop';
  let lastText = '';
  let anyToolCall = false;
  let toolDataChars = 0;
  let iterations = 0;
  while (iterations < ctx.maxIterations) {
    iterations++;
    let text = '';
    const calls: ChatToolCall[] = [];
    const tools = offeredTools(ctx);
    for await (const event of ctx.callModel(conversation, tools)) {
      if (event.type === 'text-delta') {
        text += event.text;
        ctx.text(event.text);
      } else if (event.type === 'tool-call') {
        calls.push(bounded(event.call));
      } else {
        finishReason = event.reason;
        usage.inputTokens += event.usage.inputTokens;
        usage.outputTokens += event.usage.outputTokens;
      }
    }
    // A respond call with a message is the reply; one without goes to dispatch, which says what is missing.
    const respondOffered = tools.some((t) => t.name === RESPOND_TOOL);
    const respond = respondOffered
      ? calls.find((c) => c.name === RESPOND_TOOL && !refusals.has(c) && respondMessage(c.arguments) !== null)
      : undefined;
    const work = respond ? calls.filter((c) => c !== respond) : calls;
    if (work.length > 0 || !respond) {
      conversation.push({ role: 'assistant', content: respond ? '' : text, ...(work.length > 0 ? { toolCalls: work } : {}) });
      await ctx.record({ role: 'assistant', senderName: ctx.process.name, content: respond ? '' : text, toolCall: work.length > 0 ? { kind: 'calls', calls: work } : null });
    }
    if (!respond && text.trim() !== '') lastText = text;
    if (work.length > 0) {
      anyToolCall = true;
      toolDataChars += await runCalls(ctx, work, conversation);
      if (!respond) {
        if (iterations >= ctx.maxIterations) finishReason = 'length';
        continue;
      }
    }
    let replyChars = text.length;
    if (respond) {
      anyToolCall = true;
      const message = respondMessage(respond.arguments)!;
      const reply = text.trim() === '' ? message : `${text}\n\n${message}`;
      ctx.text(text.trim() === '' ? message : `\n\n${message}`);
      conversation.push({ role: 'assistant', content: reply });
      await ctx.record({ role: 'assistant', senderName: ctx.process.name, content: reply, toolCall: null });
      lastText = reply;
      replyChars = reply.length;
      finishReason = 'stop';
    }
    if (ctx.validation && iterations < ctx.maxIterations) {
      const correction = correctionFor({ anyToolCall, toolDataChars, replyChars, respondOffered }, new Set(corrections), ctx.dataRelayCorrection);
      if (correction) {
        corrections.push(correction.kind);
        conversation.push({ role: 'system', content: correction.text });
        await ctx.record({ role: 'system', senderName: `_validator:${correction.kind}`, content: correction.text, toolCall: null });
        continue;
      }
    }
    break;
  }
  return { finishReason, usage: usage satisfies ModelUsage, lastText, iterations, corrections };
}

/** The tools of this model call: the turn's, plus the deferred ones tool_describe loaded. */
function offeredTools(ctx: TurnContext): readonly ToolSpec[] {
  const loaded = ctx.loadedTools?.() ?? [];
  if (loaded.length === 0) return ctx.tools;
  const offered = new Set(ctx.tools.map((t) => t.name));
  return [...ctx.tools, ...loaded.filter((t) => !offered.has(t.name))];
}

/** Runs the work calls of one response in order, persisting each result; returns the result characters. */
async function runCalls(ctx: TurnContext, calls: readonly ChatToolCall[], conversation: ChatMessage[]): Promise<number> {
  let chars = 0;
  for (const call of calls) {
    await ctx.emit('ToolCallStarted', { toolCallId: call.id, name: call.name, arguments: call.arguments });
    const refused = refusals.get(call);
    const raw = refused ? { content: `Tool call refused: ${refused}; nothing was run.`, isError: true } : await ctx.dispatch(call);
    const result = { ...raw, content: capToolResult(raw.content) };
    chars += result.content.length;
    await ctx.emit('ToolCallFinished', {
      toolCallId: call.id, name: call.name, isError: result.isError ?? false, chars: result.content.length, preview: result.content.slice(0, 500),
      ...(result.replaced ? { replacedCharacters: result.replaced } : {}),
    });
    conversation.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: result.content, ...(result.isError ? { isError: true } : {}) });
    await ctx.record({ role: 'tool', senderName: call.name, content: result.content, toolCall: { kind: 'result', toolCallId: call.id, toolName: call.name, isError: result.isError ?? false } });
  }
  return chars;
}
