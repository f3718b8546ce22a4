import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../activation';
import type { ChatLogMessage } from './turn';
import { toChatMessages } from './history';
import { messageTokens, tokenMemo } from './message-tokens';

describe('message token estimates (issue 18)', () => {
  it('estimates a message object once, and each object for itself', () => {
    const seen: string[] = [];
    const tokens = tokenMemo((text) => {
      seen.push(text);
      return text.length;
    });
    const a = { role: 'user' as const, content: 'hello there' };
    const b = { role: 'user' as const, content: 'hello there' };
    expect([tokens(a), tokens(a), tokens(b), tokens(a)]).toEqual([11, 11, 11, 11]);
    expect(seen).toEqual(['hello there', 'hello there']);
  });

  it('gives what estimateTokens gives for the content', () => {
    const m = { role: 'assistant' as const, content: 'A longer answer, with some words and numbers 12345 in it.' };
    expect(messageTokens(m)).toBe(estimateTokens(m.content));
  });

  it('the same chat-log message is the same model message turn after turn, so its estimate is kept', () => {
    const log: ChatLogMessage[] = [
      { id: 'm1', processId: 'p', seq: '1', role: 'user', senderName: 'u', content: 'hi', toolCall: null, turnId: 't', createdAt: new Date(0) },
      { id: 'm2', processId: 'p', seq: '2', role: 'assistant', senderName: 'w', content: 'hello', toolCall: { kind: 'calls', calls: [{ id: 'c', name: 'x', arguments: {} }] }, turnId: 't', createdAt: new Date(0) },
    ];
    const first = toChatMessages(log);
    const again = toChatMessages([...log]);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(first[1]).toEqual({ role: 'assistant', content: 'hello', toolCalls: [{ id: 'c', name: 'x', arguments: {} }] });
    // A different row object (read again from the database) is converted afresh, to an equal message.
    const reread = toChatMessages([{ ...log[0]! }]);
    expect(reread[0]).not.toBe(first[0]);
    expect(reread[0]).toEqual(first[0]);
  });
});
