/**
 * The one token estimator of activation/ (issue 8: the catalog budget and the context budget; issue
 * 15: the preview's token split). tokenx prices text segment by segment the way BPE tokenizers
 * split it — English words, numbers, punctuation, and CJK at about 1.2 (Han) to 1.35 (kana)
 * characters a token. It replaced characters ÷ 4, which undercounts Japanese and Chinese by about
 * two thirds — measured against OpenAI's o200k tokenizer (gpt-tokenizer), by hand: a 78-character
 * Japanese text of 59 tokens was 20 (tokenx: 65), a 69-character Chinese one of 45 was 18 (tokenx:
 * 59); English recipe and manual text within 2 % for tokenx, 3–5 % for ÷ 4 — so CJK conversations
 * overflowed the window the budget thought it kept (tokens.test.ts).
 * Provider-independent on purpose: both budgets compare like with like, and the preview shows the
 * numbers the cuts were decided on; the provider's own count is shown beside it after the call
 * (TurnFinished.promptTokens).
 */
import { LRUCache } from 'lru-cache';
import { estimateTokenCount } from 'tokenx';

/**
 * Every turn prices the same chat log, system prompt and tool specs again; tokenx takes about 0.1 s
 * per million characters (test/bench/token-estimate.ts), a map lookup one hash of the text. Long
 * texts are remembered by content, within 2 million characters: the memo keeps its texts alive in
 * the server's heap after the session that priced them, and the chat log's messages keep their own
 * estimates (turns/message-tokens.ts), so this memo serves what those do not (issue 18, memory).
 */
const MEMO_MIN_CHARS = 256;
export const TOKEN_MEMO_CHARS = 2_000_000;
const memo = new LRUCache<string, number>({ maxSize: TOKEN_MEMO_CHARS, sizeCalculation: (_tokens, text) => text.length });

/** Characters of text the memo keeps; for tests and metrics. */
export function memoChars(): number {
  return memo.calculatedSize;
}

export function estimateTokens(text: string): number {
  if (text.length < MEMO_MIN_CHARS) return estimateTokenCount(text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const tokens = estimateTokenCount(text);
  memo.set(text, tokens);
  return tokens;
}

/** The estimate before issue 15 — characters ÷ 4 — kept for the comparison in tests and the bench. */
export function estimateTokensByChars(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Tokens of a tool spec as the model receives it: its JSON text. */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? '');
}
