import { estimateTokens } from '../activation';
import type { ChatMessage } from '../llm/model-provider';

/**
 * A chat message's token estimate, computed once per message object (issue 18): every turn fits
 * the whole history into the context window, and estimating every message again each turn was
 * most of a turn's JavaScript. The chat log's reader hands the same message objects back turn after
 * turn (persistence/chat-log-reader.ts, history.ts), so the estimate stays with the message; the
 * memo holds no message alive (a WeakMap). Messages are immutable (readonly), so it cannot go stale.
 */
export function tokenMemo(estimate: (text: string) => number = estimateTokens): (message: ChatMessage) => number {
  const known = new WeakMap<ChatMessage, number>();
  return (message) => {
    let tokens = known.get(message);
    if (tokens === undefined) {
      tokens = estimate(message.content);
      known.set(message, tokens);
    }
    return tokens;
  };
}

export const messageTokens = tokenMemo();
