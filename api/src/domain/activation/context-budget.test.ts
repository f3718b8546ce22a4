import { describe, expect, it } from 'vitest';
import { fitContext, type HistoryMessage } from './context-budget';
import { estimateJsonTokens, estimateTokens } from './tokens';

const msg = (role: HistoryMessage['role'], tokens: number): HistoryMessage => ({ role, content: tokens });

describe('fitContext', () => {
  const history = [msg('user', 100), msg('assistant', 100), msg('user', 100), msg('assistant', 100), msg('user', 50)];

  it('keeps everything when it fits and reports the token split', () => {
    const result = fitContext({ window: 2000, system: 'x'.repeat(400), skills: 300, tools: [{ name: 'a', description: 'b' }], history });
    expect(result.kept).toEqual([0, 1, 2, 3, 4]);
    expect(result.dropped).toEqual([]);
    const system = estimateTokens('x'.repeat(400));
    const tools = estimateJsonTokens({ name: 'a', description: 'b' });
    expect(result.split).toEqual({ system, skills: 300, history: 450, tools, total: system + 300 + 450 + tools, window: 2000 });
    expect(result.exceeded).toBe(false);
  });

  it('trims history oldest first while the skills section stays whole', () => {
    const result = fitContext({ window: 700, system: 100, skills: 300, tools: 0, history });
    expect(result.kept).toEqual([2, 3, 4]);
    expect(result.dropped).toEqual([0, 1]);
    expect(result.split.skills).toBe(300);
    expect(result.split.total).toBeLessThanOrEqual(700);
    expect(result.summary).toBe('History: 3 of 5 messages kept (2 oldest dropped); skills 300 tokens reserved.');
  });

  it('never drops the skills section or the newest user message, and says when the window is exceeded', () => {
    const result = fitContext({ window: 300, system: 100, skills: 300, tools: 0, history });
    expect(result.kept).toEqual([4]);
    expect(result.split).toMatchObject({ skills: 300, history: 50, total: 450 });
    expect(result.exceeded).toBe(true);
    expect(result.summary).toMatch(/Over the window: 450 of 300 tokens/);
  });

  it('keeps the tool exchange after the newest user message together with it', () => {
    const withTools = [msg('user', 100), msg('user', 100), msg('assistant', 100), msg('tool', 100)];
    expect(fitContext({ window: 250, system: 0, skills: 0, tools: 0, history: withTools }).kept).toEqual([1, 2, 3]);
  });

  it('reserves room for the reply', () => {
    expect(fitContext({ window: 700, system: 100, skills: 300, tools: 0, history, reserveForReply: 200 }).kept).toEqual([4]);
  });
});
