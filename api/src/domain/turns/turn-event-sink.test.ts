import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelopeOf, MAX_INLINE_PAYLOAD_CHARS, TextBatcher } from './turn-event-sink';

describe('TextBatcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Load-proof: fake timers, so "not before 50 ms, then at 50 ms" is exact instead of racing sleeps.
  it('emits at 200 characters at once, the rest after 50 ms, in order', async () => {
    vi.useFakeTimers();
    const out: string[] = [];
    const batcher = new TextBatcher(async (t) => void out.push(t));
    batcher.push('a'.repeat(150));
    batcher.push('b'.repeat(60));
    batcher.push('c');
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(out).toEqual(['a'.repeat(150) + 'b'.repeat(60)]);
    await vi.advanceTimersByTimeAsync(49);
    expect(out).toEqual(['a'.repeat(150) + 'b'.repeat(60)]);
    await vi.advanceTimersByTimeAsync(1);
    expect(out).toEqual(['a'.repeat(150) + 'b'.repeat(60), 'c']);
  });
  it('flush emits what is held and waits for it', async () => {
    const out: string[] = [];
    const batcher = new TextBatcher(async (t) => void out.push(t));
    batcher.push('x');
    batcher.push('');
    await batcher.flush();
    expect(out).toEqual(['x']);
    await batcher.flush();
    expect(out).toEqual(['x']);
  });
});

describe('TextBatcher when a chunk cannot be stored (issue 14)', () => {
  it('fails the flush with the first error and emits nothing after it, so no gap reaches the log', async () => {
    const out: string[] = [];
    let calls = 0;
    const batcher = new TextBatcher(async (t) => {
      if (++calls === 2) throw new Error('connection terminated');
      out.push(t);
    }, 3);
    batcher.push('one');
    batcher.push('two');
    batcher.push('six');
    await expect(batcher.flush()).rejects.toThrow('connection terminated');
    expect(out).toEqual(['one']); // 'six' would have left a hole where 'two' was
    await expect(batcher.flush()).rejects.toThrow('connection terminated');
  });
});

describe('envelopeOf', () => {
  it('leaves out a payload too large for a notification', () => {
    const base = { id: '1', tenantId: 't', processId: 'p', turnId: 'u', type: 'PromptComposed' as const, at: 'now' };
    expect(envelopeOf({ ...base, payload: { text: 'small' } })).toEqual({ ...base, payload: { text: 'small' } });
    expect(envelopeOf({ ...base, payload: { text: 'x'.repeat(MAX_INLINE_PAYLOAD_CHARS) } })).toEqual(base);
    // Counted in bytes: 2,500 em dashes are 7,500 bytes of UTF-8.
    expect(envelopeOf({ ...base, payload: { text: '—'.repeat(2_500) } })).toEqual(base);
  });
});
