import { describe, expect, it } from 'vitest';
import { fitContext } from './context-budget';
import { estimateTokens, estimateTokensByChars, memoChars, TOKEN_MEMO_CHARS } from './tokens';

// Issue 15: characters ÷ 4 undercounted Japanese and Chinese by about two thirds (against OpenAI's
// o200k tokenizer, measured by hand: 20 for a 78-character Japanese text of 59 tokens, 18 for a
// 69-character Chinese text of 45), so a CJK conversation overflowed the window the budget thought it kept.
const JAPANESE = '東京都は日本の首都であり、世界で最も人口の多い都市圏の一つです。明日の会議の資料を準備してください。先週の売上報告書を確認して、問題点を三つ挙げてください。';
const CHINESE = '北京是中华人民共和国的首都，也是全国的政治和文化中心。请帮我总结一下这份报告的要点，并列出三个需要改进的地方。我们下周一开会讨论这个问题。';
const ENGLISH = 'The quick brown fox jumps over the lazy dog, and the composer keeps the skills section whole while history gives way.';

describe('estimateTokens', () => {
  it('counts Japanese and Chinese at about a token per character, where characters ÷ 4 counted a quarter', () => {
    for (const text of [JAPANESE, CHINESE]) {
      const old = estimateTokensByChars(text);
      const now = estimateTokens(text);
      expect(now).toBeGreaterThanOrEqual(Math.floor(text.length * 0.6));
      // The old estimate is less than half the new one: the undercount the issue reports.
      expect(old * 2).toBeLessThan(now);
    }
  });

  it('stays close to characters ÷ 4 for English prose', () => {
    const now = estimateTokens(ENGLISH);
    const old = estimateTokensByChars(ENGLISH);
    expect(Math.abs(now - old) / old).toBeLessThan(0.35);
  });

  // Issue 18 (memory that comes back): the memo's texts stayed in the heap after a session, 8 M characters of them.
  it('remembers long texts within its 2 M character budget, and prices them the same from the memo', () => {
    expect(TOKEN_MEMO_CHARS).toBe(2_000_000);
    const texts = Array.from({ length: 6 }, (_, i) => `${i} ${ENGLISH}`.repeat(Math.ceil(500_000 / ENGLISH.length)));
    const first = texts.map((t) => estimateTokens(t));
    expect(memoChars()).toBeGreaterThan(0);
    expect(memoChars()).toBeLessThanOrEqual(TOKEN_MEMO_CHARS);
    expect(texts.map((t) => estimateTokens(t))).toEqual(first);
  });
});

describe('fitContext with CJK history', () => {
  // Ten Japanese/Chinese exchanges, the newest user message last.
  const history = Array.from({ length: 10 }, (_v, i) => ({ role: i % 2 === 0 ? 'user' as const : 'assistant' as const, content: i % 4 < 2 ? JAPANESE : CHINESE }));
  const system = 'You are a Vance worker.';
  const window = 600;

  it('drops the oldest messages so the conversation fits, where characters ÷ 4 kept all of it and overflowed', () => {
    const fitted = fitContext({ window, system, skills: '', tools: 0, history });
    expect(fitted.dropped.length).toBeGreaterThan(0);
    expect(fitted.exceeded).toBe(false);
    expect(fitted.split.total).toBeLessThanOrEqual(window);

    // The same conversation priced the old way: nothing dropped, "fits" …
    const old = fitContext({
      window, system: estimateTokensByChars(system), skills: 0, tools: 0,
      history: history.map((m) => ({ role: m.role, content: estimateTokensByChars(m.content) })),
    });
    expect(old.dropped).toEqual([]);
    expect(old.exceeded).toBe(false);
    // … while what it kept is over the window by the tokenizer-grade count.
    const keptTokens = estimateTokens(system) + old.kept.reduce((sum, i) => sum + estimateTokens(history[i]!.content), 0);
    expect(keptTokens).toBeGreaterThan(window);
  });
});
