import type { ChatMessage, ChatToolCall, FinishReason, ModelUsage } from '../llm/model-provider';
import type { TurnContext, TurnResult } from './engine';
import { correctionFor, type CorrectionKind } from './validator-corrections';
import { capToolResult, toolArgumentsProblem } from '../tools/tool-call-bounds';

/**
 * The turn of a tool-using engine (ford, arthur): call the model, run the tool calls it makes, feed
 * the results back, until it answers without a tool call or `maxIterations` model calls were made.
 * Every assistant and tool message is persisted; validator corrections (seed 004 §5a) are persisted
 * as system messages and give the model one more round each.
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
    for await (const event of ctx.callModel(conversation, ctx.tools)) {
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
    conversation.push({ role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
    await ctx.record({ role: 'assistant', senderName: ctx.process.name, content: text, toolCall: calls.length > 0 ? { kind: 'calls', calls } : null });
    if (text.trim() !== '') lastText = text;
    if (calls.length > 0) {
      anyToolCall = true;
      for (const call of calls) {
        await ctx.emit('ToolCallStarted', { toolCallId: call.id, name: call.name, arguments: call.arguments });
        const refused = refusals.get(call);
        const raw = refused ? { content: `Tool call refused: ${refused}; nothing was run.`, isError: true } : await ctx.dispatch(call);
        const result = { ...raw, content: capToolResult(raw.content) };
        toolDataChars += result.content.length;
        await ctx.emit('ToolCallFinished', {
          toolCallId: call.id, name: call.name, isError: result.isError ?? false, chars: result.content.length, preview: result.content.slice(0, 500),
          ...(result.replaced ? { replacedCharacters: result.replaced } : {}),
        });
        conversation.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: result.content, ...(result.isError ? { isError: true } : {}) });
        await ctx.record({ role: 'tool', senderName: call.name, content: result.content, toolCall: { kind: 'result', toolCallId: call.id, toolName: call.name, isError: result.isError ?? false } });
      }
      if (iterations >= ctx.maxIterations) finishReason = 'length';
      continue;
    }
    if (ctx.validation && iterations < ctx.maxIterations) {
      const correction = correctionFor({ anyToolCall, toolDataChars, replyChars: text.length }, new Set(corrections), ctx.dataRelayCorrection);
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
