import { describe, expect, it } from 'vitest';
import type { ChatToolCall, ModelStreamEvent } from '../llm/model-provider';
import type { NewChatLogMessage } from '../turns/turn';
import type { TurnContext } from './engine';
import { runToolLoop } from './tool-loop';
import { MAX_TOOL_RESULT_CHARS } from '../tools/tool-call-bounds';

function deep(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return { nested: value };
}

/** A model that makes the given calls on its first round and answers "done" on the second. */
function contextFor(calls: ChatToolCall[], result: string) {
  const dispatched: ChatToolCall[] = [];
  const recorded: NewChatLogMessage[] = [];
  const events: Array<{ type: string; payload: Record<string, unknown> }> = [];
  let round = 0;
  const ctx = {
    process: { name: 'p' }, turnId: 't', system: [], history: [], tools: [], maxIterations: 3, validation: false, dataRelayCorrection: null,
    async *callModel(): AsyncIterable<ModelStreamEvent> {
      round++;
      if (round === 1) for (const call of calls) yield { type: 'tool-call', call };
      else yield { type: 'text-delta', text: 'done' };
      yield { type: 'finish', reason: round === 1 ? 'tool-calls' : 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    },
    dispatch: async (call: ChatToolCall) => {
      dispatched.push(call);
      return { content: result };
    },
    record: async (message: NewChatLogMessage) => { recorded.push(message); },
    text: () => undefined,
    emit: async (type: string, payload: Record<string, unknown>) => { events.push({ type, payload }); },
  } as unknown as TurnContext;
  return { ctx, dispatched, recorded, events };
}

// Issue 13: a 100,000-deep argument failed the turn with "Maximum call stack size exceeded".
describe('the tool loop bounds tool calls', () => {
  it('does not run a call whose arguments nest too deep, tells the model why, and finishes the turn', async () => {
    const t = contextFor([{ id: 'c1', name: 'echo', arguments: deep(100_000) }, { id: 'c2', name: 'echo', arguments: { ok: true } }], 'fine');
    const outcome = await runToolLoop(t.ctx);
    expect(outcome.lastText).toBe('done');
    expect(t.dispatched.map((c) => c.id)).toEqual(['c2']);
    const refusal = t.recorded.find((m) => m.role === 'tool' && m.content.startsWith('Tool call refused'));
    expect(refusal?.content).toContain('nest deeper than the limit of 64 levels');
    // What is stored and streamed is the refusal, not the 100,000-deep value.
    expect(JSON.stringify(t.events.find((e) => e.type === 'ToolCallStarted')?.payload)).toContain('refused');
    expect(JSON.stringify(t.recorded).length).toBeLessThan(10_000);
  });

  it('does not run a call whose arguments are too large', async () => {
    const t = contextFor([{ id: 'c1', name: 'echo', arguments: { blob: 'x'.repeat(5_000_000) } }], 'fine');
    await runToolLoop(t.ctx);
    expect(t.dispatched).toEqual([]);
    expect(JSON.stringify(t.recorded).length).toBeLessThan(10_000);
  });

  it('cuts a tool result over the cap and says so', async () => {
    const t = contextFor([{ id: 'c1', name: 'echo', arguments: {} }], 'y'.repeat(MAX_TOOL_RESULT_CHARS + 10));
    await runToolLoop(t.ctx);
    const stored = t.recorded.find((m) => m.role === 'tool')!;
    expect(stored.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200);
    expect(stored.content).toContain('the tool result was cut');
  });
});
