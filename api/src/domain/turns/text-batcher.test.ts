import { afterEach, describe, expect, it, vi } from 'vitest';
import { fitsInline } from '../events/notification-size';
import { inlinePrefixLength, TextBatcher } from './text-batcher';

/** Lets started writes reach `emit` (they start from a microtask) and completions run. */
const tick = () => new Promise((r) => setImmediate(r));

/** An emit whose writes complete when the test says so. */
function controlledEmit() {
  const out: string[] = [];
  const waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  const emit = (text: string) => new Promise<void>((resolve, reject) => {
    out.push(text);
    waiting.push({ resolve, reject });
  });
  const complete = async (error?: unknown) => {
    await tick();
    const next = waiting.shift()!;
    if (error === undefined) next.resolve();
    else next.reject(error);
    await tick();
  };
  /** Completes every write, those the completions start included. */
  const drain = async () => {
    await tick();
    while (waiting.length > 0) await complete();
  };
  return { out, emit, complete, drain };
}

/** Every chunk fits its payload, is as long as the bound allows, and starts and ends on whole characters. */
function expectBoundedChunks(chunks: string[], all: string) {
  expect(chunks.join('')).toBe(all);
  for (const [i, chunk] of chunks.entries()) {
    expect(fitsInline({ text: chunk })).toBe(true);
    expect(chunk).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    const next = chunks[i + 1];
    if (next !== undefined) expect(fitsInline({ text: chunk + next.slice(0, next.codePointAt(0)! > 0xffff ? 2 : 1) })).toBe(false);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TextBatcher under backpressure (issue 18)', () => {
  it('coalesces the text pushed while a write is in flight into one TextDelta when it completes', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('a'.repeat(200));
    await tick();
    expect(w.out).toEqual(['a'.repeat(200)]);
    for (let i = 0; i < 20; i++) batcher.push('b'.repeat(200));
    await tick();
    expect(w.out).toHaveLength(1); // not 20 chunks queued behind the first
    await w.complete();
    expect(w.out).toEqual(['a'.repeat(200), 'b'.repeat(4_000)]);
    await w.complete();
    await batcher.flush();
    expect(w.out).toHaveLength(2);
  });

  it('cuts coalesced text at the payload bound in UTF-8 bytes, so no delta goes without its payload', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('x'.repeat(200));
    // 3 bytes each, and JSON escapes (a quote, a newline, a control character) count as written.
    const rest = '€'.repeat(4_000) + '"\n\u0001'.repeat(300) + 'é'.repeat(3_000);
    batcher.push(rest);
    await w.drain();
    await batcher.flush();
    expect(w.out.length).toBeGreaterThan(3);
    expectBoundedChunks(w.out.slice(1), rest);
  });

  it('never cuts inside a surrogate pair, wherever the bound falls', async () => {
    for (const lead of ['', 'a', 'ab']) {
      const w = controlledEmit();
      const batcher = new TextBatcher(w.emit);
      batcher.push('y'.repeat(200));
      const rest = lead + '😀'.repeat(5_000);
      batcher.push(rest);
      await w.drain();
      await batcher.flush();
      expectBoundedChunks(w.out.slice(1), rest);
    }
  });

  it('keeps a surrogate pair split across two pushes whole', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit, 3);
    batcher.push('ab\ud83d');
    await tick();
    expect(w.out).toEqual(['ab']);
    batcher.push('\ude00');
    await w.complete();
    expect(w.out).toEqual(['ab']); // one unit short of 3 characters, so held
    const flushed = batcher.flush();
    await w.complete();
    await flushed;
    expect(w.out).toEqual(['ab', '😀']);
  });

  it('take emits only what would not fit one payload and hands back the rest', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('z'.repeat(200));
    const rest = '€'.repeat(5_000);
    batcher.push(rest);
    let back: string | undefined;
    void batcher.take().then((rest) => (back = rest));
    while (back === undefined) await w.drain();
    expect(w.out).toHaveLength(3); // the first write, then two payloads' worth; the rest comes back
    expect(fitsInline({ text: back })).toBe(true);
    expectBoundedChunks([...w.out.slice(1), back], rest);
  });
});

describe('TextBatcher: the 200 characters / 50 ms rule', () => {
  // Load-proof: fake timers, so "not before 50 ms, then at 50 ms" is exact instead of racing sleeps.
  it('emits short text 50 ms after its first character when nothing is in flight', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const out: string[] = [];
    const batcher = new TextBatcher(async (t) => void out.push(t));
    batcher.push('a');
    await vi.advanceTimersByTimeAsync(30);
    batcher.push('b');
    await vi.advanceTimersByTimeAsync(19);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(out).toEqual(['ab']);
  });

  it('does not send a short text early because a write completed: it still waits its 50 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('a'.repeat(200));
    await vi.advanceTimersByTimeAsync(10);
    batcher.push('b');
    await vi.advanceTimersByTimeAsync(10);
    await w.complete();
    expect(w.out).toEqual(['a'.repeat(200)]);
    await vi.advanceTimersByTimeAsync(39);
    expect(w.out).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.out).toEqual(['a'.repeat(200), 'b']);
  });

  it('sends text whose 50 ms passed during a write as soon as the write completes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('a'.repeat(200));
    batcher.push('b');
    await vi.advanceTimersByTimeAsync(80);
    expect(w.out).toHaveLength(1);
    await w.complete();
    await tick();
    expect(w.out).toEqual(['a'.repeat(200), 'b']);
  });
});

describe('TextBatcher when a coalesced chunk cannot be stored (issue 14)', () => {
  it('fails the flush with the first error and drops what came after it', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('a'.repeat(200));
    batcher.push('b'.repeat(300));
    await w.complete(new Error('connection terminated'));
    batcher.push('c'.repeat(300));
    await expect(batcher.flush()).rejects.toThrow('connection terminated');
    expect(w.out).toEqual(['a'.repeat(200)]); // 'b…' and 'c…' would leave a hole where 'a…' was
    await expect(batcher.take()).rejects.toThrow('connection terminated');
  });

  it('fails the flush when the coalesced chunk itself cannot be stored', async () => {
    const w = controlledEmit();
    const batcher = new TextBatcher(w.emit);
    batcher.push('a'.repeat(200));
    batcher.push('b'.repeat(300));
    // The expectation is attached before the write fails: the flush's rejection is never unhandled.
    const flushed = expect(batcher.flush()).rejects.toThrow('gone');
    await w.complete();
    await w.complete(new Error('gone'));
    await flushed;
    expect(w.out).toEqual(['a'.repeat(200), 'b'.repeat(300)]);
  });
});

describe('inlinePrefixLength', () => {
  it('agrees with fitsInline: the prefix fits, one more character does not', () => {
    const alphabet = ['a', '"', '\\', '\n', '\u0001', 'é', '€', '😀', '\u2028', '\ud800', '\udfff'];
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let round = 0; round < 40; round++) {
      let text = '';
      while (text.length < 9_000) text += alphabet[Math.floor(random() * alphabet.length)];
      const n = inlinePrefixLength(text);
      expect(fitsInline({ text: text.slice(0, n) })).toBe(true);
      const step = /[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(n, n + 2)) ? 2 : 1;
      expect(fitsInline({ text: text.slice(0, n + step) })).toBe(false);
    }
  });
});
