/**
 * What a turn stores that no caller typed — tool results, the model's text and tool-call arguments,
 * event payloads — made storable before it reaches the database (shared/storable-text.ts, issue 13
 * part 5): a U+0000 or an unpaired surrogate becomes U+FFFD. A tool result says so in its text and
 * in ToolCallFinished; replaced model output is counted in TurnFinished. Before this, one NUL in a
 * tool result failed the turn, put the input back, and every later turn of the process failed alike.
 */
import type { ModelStreamEvent } from '../llm/model-provider';
import { replacedNote, storableValue, toStorable } from '../shared/storable-text';
import type { ToolResult } from '../tools/server-tool';
import type { NewChatLogMessage } from './turn';

export function storableToolResult(result: ToolResult): ToolResult {
  const { text, replaced } = toStorable(result.content);
  if (replaced === 0) return result;
  return { ...result, content: `${text}\n\n${replacedNote(replaced)}`, replaced };
}

/**
 * The model's stream with NULs replaced in text deltas and anything unstorable replaced in tool-call
 * arguments. Unpaired surrogates in text are left to `storableMessage` and the event sink: a pair
 * split across two deltas is fine once the text is joined.
 */
export async function* storableModelStream(events: AsyncIterable<ModelStreamEvent>, count: (replaced: number) => void): AsyncIterable<ModelStreamEvent> {
  for await (const event of events) {
    if (event.type === 'text-delta' && event.text.includes('\u0000')) {
      const text = event.text.replaceAll('\u0000', '\ufffd');
      count(event.text.length - event.text.replaceAll('\u0000', '').length);
      yield { ...event, text };
    } else if (event.type === 'tool-call') {
      const { value, replaced } = storableValue(event.call);
      count(replaced);
      yield replaced === 0 ? event : { ...event, call: value };
    } else {
      yield event;
    }
  }
}

/** A chat-log row as it can be stored; returns how many characters were replaced. */
export function storableMessage(message: NewChatLogMessage): { readonly message: NewChatLogMessage; readonly replaced: number } {
  const content = toStorable(message.content);
  const senderName = message.senderName === null ? null : toStorable(message.senderName).text;
  const toolCall = storableValue(message.toolCall);
  const replaced = content.replaced + toolCall.replaced;
  if (replaced === 0 && senderName === message.senderName) return { message, replaced: 0 };
  return { message: { ...message, content: content.text, senderName, toolCall: toolCall.value }, replaced };
}
