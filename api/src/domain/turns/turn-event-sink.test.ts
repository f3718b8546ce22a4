import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextBatcher } from './text-batcher';
import { envelopeOf, MAX_INLINE_PAYLOAD_CHARS, TurnEventSink } from './turn-event-sink';
import type { NewChatLogMessage, NewTurnEvent, TurnEvent, TurnOutcome } from './turn';
import type { TurnStore } from './turn-store';

/** A store that records each write: what it carried, in order; `fail` fails the n-th write it is asked for. */
function recordingStore(fail?: (write: number) => boolean) {
  const writes: { kind: 'events' | 'finish'; events: string[]; messages: string[] }[] = [];
  let id = 0;
  let attempts = 0;
  const stored = (events: readonly NewTurnEvent[]): TurnEvent[] =>
    events.map((e) => ({ ...e, id: String(++id), tenantId: 't', processId: 'p', turnId: 'u', at: 'now' }));
  const store = {
    appendEvents: async (_t: string, _p: string, _u: string, events: readonly NewTurnEvent[], messages: readonly NewChatLogMessage[] = []) => {
      if (fail?.(++attempts)) throw new Error('connection terminated');
      writes.push({ kind: 'events', events: events.map((e) => e.type), messages: messages.map((m) => m.content) });
      return stored(events);
    },
    finishTurn: async (_t: string, _u: string, outcome: TurnOutcome) => {
      writes.push({ kind: 'finish', events: [...(outcome.held?.events ?? []), ...(outcome.end ? [outcome.end] : [])].map((e) => e.type), messages: (outcome.held?.messages ?? []).map((m) => m.content) });
      return true;
    },
  } as unknown as TurnStore;
  return { store, writes };
}

const message = (content: string): NewChatLogMessage => ({ role: 'assistant', senderName: 'w', content, toolCall: null });

describe('TurnEventSink (issue 18: what is held goes with the next write)', () => {
  it('writes held events and chat-log rows with the next emit, before its own events; the end carries what is left', async () => {
    const { store, writes } = recordingStore();
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    sink.hold('TurnStarted', {});
    expect(writes).toEqual([]);
    const composed = await sink.emitAll([{ type: 'SkillVerdicts', payload: {} }, { type: 'PromptComposed', payload: {} }]);
    expect(composed.map((e) => e.type)).toEqual(['TurnStarted', 'SkillVerdicts', 'PromptComposed']);
    sink.holdMessage(message('reply'));
    sink.hold('TextDelta', { text: 'reply' });
    expect(await sink.finish({ status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } })).toBe(true);
    expect(writes).toEqual([
      { kind: 'events', events: ['TurnStarted', 'SkillVerdicts', 'PromptComposed'], messages: [] },
      { kind: 'finish', events: ['TextDelta', 'TurnFinished'], messages: ['reply'] },
    ]);
  });

  it('flush stores what is held (before a tool or a guard runs); with nothing held it only waits', async () => {
    const { store, writes } = recordingStore();
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    await sink.flush();
    expect(writes).toEqual([]);
    sink.holdMessage(message('calls a tool'));
    await sink.flush();
    expect(writes).toEqual([{ kind: 'events', events: [], messages: ['calls a tool'] }]);
  });

  it('a write that fails fails its emit; the failure end still goes out after it', async () => {
    const { store, writes } = recordingStore((n) => n === 1);
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    sink.hold('TurnStarted', {});
    await expect(sink.emit('PromptComposed', {})).rejects.toThrow('connection terminated');
    expect(await sink.finish({ status: 'FAILED', end: { type: 'TurnFailed', payload: {} } })).toBe(true);
    expect(writes).toEqual([{ kind: 'finish', events: ['TurnFailed'], messages: [] }]);
  });
});

describe('TurnEventSink.storeHeldWithin (issue 18: the composition waits for the next write, at most 50 ms)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const composed = (sink: TurnEventSink): void => {
    sink.hold('TurnStarted', {});
    sink.hold('SkillVerdicts', {});
    sink.hold('PromptComposed', {});
    sink.storeHeldWithin(50);
  };
  const COMPOSED = ['TurnStarted', 'SkillVerdicts', 'PromptComposed'];

  // Load-proof: fake timers, so "not before 50 ms, then at 50 ms" is exact.
  it('stores what is held on its own once the time is up, then the turn writes on as usual', async () => {
    vi.useFakeTimers();
    const { store, writes } = recordingStore();
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    composed(sink);
    await vi.advanceTimersByTimeAsync(49);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([{ kind: 'events', events: COMPOSED, messages: [] }]);
    await sink.emit('TextDelta', { text: 'hi' });
    expect(await sink.finish({ status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } })).toBe(true);
    expect(writes.slice(1)).toEqual([{ kind: 'events', events: ['TextDelta'], messages: [] }, { kind: 'finish', events: ['TurnFinished'], messages: [] }]);
  });

  it('goes with the first TextDelta when it comes first, and no deadline write follows', async () => {
    vi.useFakeTimers();
    const { store, writes } = recordingStore();
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    composed(sink);
    await vi.advanceTimersByTimeAsync(30);
    const stored = await sink.emit('TextDelta', { text: 'hi' });
    expect(stored.type).toBe('TextDelta');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(writes).toEqual([{ kind: 'events', events: [...COMPOSED, 'TextDelta'], messages: [] }]);
  });

  it('goes with the end when nothing writes before it; the timer is gone and nothing is written after the end', async () => {
    vi.useFakeTimers();
    const { store, writes } = recordingStore();
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    composed(sink);
    sink.holdMessage(message('reply'));
    sink.hold('TextDelta', { text: 'reply' });
    const ended = sink.finish({ status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } });
    expect(vi.getTimerCount()).toBe(0);
    sink.hold('ScriptLog', {}); // a stray hold after the end arms nothing
    sink.storeHeldWithin(50);
    expect(vi.getTimerCount()).toBe(0);
    expect(await ended).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(writes).toEqual([{ kind: 'finish', events: [...COMPOSED, 'TextDelta', 'TurnFinished'], messages: ['reply'] }]);
  });

  it('with nothing held arms no timer', () => {
    vi.useFakeTimers();
    const { store } = recordingStore();
    new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' }).storeHeldWithin(50);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a deadline write that fails fails every later write and a FINISHED end, storing nothing behind the lost events; the failure end goes out', async () => {
    vi.useFakeTimers();
    const { store, writes } = recordingStore((n) => n === 1);
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    composed(sink);
    await vi.advanceTimersByTimeAsync(50);
    await expect(sink.emit('TextDelta', { text: 'hi' })).rejects.toThrow('connection terminated');
    await expect(sink.flush()).rejects.toThrow('connection terminated'); // before a tool: nothing held, still failed
    sink.holdMessage(message('reply'));
    await expect(sink.finish({ status: 'FINISHED', end: { type: 'TurnFinished', payload: {} } })).rejects.toThrow('connection terminated');
    expect(writes).toEqual([]);
    expect(await sink.finish({ status: 'FAILED', end: { type: 'TurnFailed', payload: {} } })).toBe(true);
    expect(writes).toEqual([{ kind: 'finish', events: ['TurnFailed'], messages: [] }]);
  });

  it('a write asked for while the deadline write is under way fails with it, not after it', async () => {
    vi.useFakeTimers();
    let lose!: (error: Error) => void;
    const asked: string[][] = [];
    const store = {
      appendEvents: (_t: string, _p: string, _u: string, events: readonly NewTurnEvent[]) => {
        asked.push(events.map((e) => e.type));
        return new Promise((_resolve, reject) => (lose = reject));
      },
    } as unknown as TurnStore;
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    composed(sink);
    await vi.advanceTimersByTimeAsync(50); // the deadline write is under way
    const text = sink.emit('TextDelta', { text: 'hi' });
    lose(new Error('connection terminated'));
    await expect(text).rejects.toThrow('connection terminated');
    expect(asked).toEqual([COMPOSED]);
  });

  it('a deadline write queued behind a text chunk that fails: the chunk fails its emit, the deadline write stores what was held after it', async () => {
    vi.useFakeTimers();
    const { store, writes } = recordingStore((n) => n === 1);
    const sink = new TurnEventSink(store, { tenantId: 't', processId: 'p', turnId: 'u' });
    const text = expect(sink.emit('TextDelta', { text: 'first' })).rejects.toThrow('connection terminated');
    composed(sink);
    await vi.advanceTimersByTimeAsync(50);
    await text;
    expect(writes).toEqual([{ kind: 'events', events: COMPOSED, messages: [] }]);
  });
});

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

describe('TextBatcher.take (issue 18)', () => {
  it('waits for emitted chunks and hands back the held rest instead of emitting it', async () => {
    const out: string[] = [];
    const batcher = new TextBatcher(async (t) => void out.push(t), 3);
    batcher.push('abc');
    batcher.push('d');
    expect(await batcher.take()).toBe('d');
    expect(out).toEqual(['abc']);
    expect(await batcher.take()).toBe('');
  });
  it('throws the first chunk that could not be stored', async () => {
    const batcher = new TextBatcher(async () => {
      throw new Error('gone');
    }, 1);
    batcher.push('x');
    await expect(batcher.take()).rejects.toThrow('gone');
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
