import type { ChatMessage } from '../llm/model-provider';
import type { ChatLogMessage } from './turn';

/**
 * Each chat-log message's model message, kept with it: the chat log's reader hands the same rows
 * back turn after turn, and so the same model messages, whose token estimates are kept (message-tokens.ts).
 */
const converted = new WeakMap<ChatLogMessage, ChatMessage>();

/** The chat log as the model sees it: user, assistant (with its tool calls), tool results, corrections. */
export function toChatMessages(log: readonly ChatLogMessage[]): ChatMessage[] {
  return log.map((m) => {
    let message = converted.get(m);
    if (!message) {
      message = toChatMessage(m);
      converted.set(m, message);
    }
    return message;
  });
}

function toChatMessage(m: ChatLogMessage): ChatMessage {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: m.content };
    case 'system':
      return { role: 'system', content: m.content };
    case 'assistant':
      return m.toolCall?.kind === 'calls' && m.toolCall.calls.length > 0
        ? { role: 'assistant', content: m.content, toolCalls: m.toolCall.calls }
        : { role: 'assistant', content: m.content };
    case 'tool': {
      const ref = m.toolCall?.kind === 'result' ? m.toolCall : null;
      return { role: 'tool', toolCallId: ref?.toolCallId ?? '', toolName: ref?.toolName ?? m.senderName ?? '', content: m.content, ...(ref?.isError ? { isError: true } : {}) };
    }
    default: {
      const never: never = m.role;
      return never;
    }
  }
}
