import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatToolCall, ModelStreamEvent, ToolSpec } from '../llm/model-provider';
import type { NewChatLogMessage } from '../turns/turn';
import type { TurnContext } from './engine';
import { runToolLoop } from './tool-loop';
import { NO_TOOL_CALL_CORRECTION } from './validator-corrections';

const RESPOND: ToolSpec = { name: 'respond', description: 'Reply', parameters: { type: 'object' } };
const WORK: ToolSpec = { name: 'work', description: 'Work', parameters: { type: 'object' } };

type Round = { text?: string; calls?: ChatToolCall[] };
const respond = (message: string, id = 'r'): ChatToolCall => ({ id, name: 'respond', arguments: { message } });
const work = (id = 'w'): ChatToolCall => ({ id, name: 'work', arguments: {} });

/** A model that plays the given rounds in order (and replies "again" after them), recording what it was offered. */
function scripted(rounds: Round[], opts: { validation?: boolean; result?: string; tools?: ToolSpec[]; loaded?: () => ToolSpec[] } = {}) {
  const recorded: NewChatLogMessage[] = [];
  const offered: string[][] = [];
  const seen: (readonly ChatMessage[])[] = [];
  let streamed = '';
  let round = 0;
  const ctx = {
    process: { name: 'p' }, turnId: 't', system: [], history: [{ role: 'user', content: 'hi' }],
    tools: opts.tools ?? [RESPOND, WORK], maxIterations: 6, validation: opts.validation ?? true, dataRelayCorrection: null,
    ...(opts.loaded ? { loadedTools: opts.loaded } : {}),
    async *callModel(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): AsyncIterable<ModelStreamEvent> {
      offered.push(tools.map((t) => t.name));
      seen.push([...messages]);
      const r = rounds[round++] ?? { text: 'again' };
      if (r.text) yield { type: 'text-delta', text: r.text };
      for (const call of r.calls ?? []) yield { type: 'tool-call', call };
      yield { type: 'finish', reason: r.calls?.length ? 'tool-calls' : 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
    },
    dispatch: async () => ({ content: opts.result ?? 'ok' }),
    record: async (message: NewChatLogMessage) => { recorded.push(message); },
    text: (delta: string) => { streamed += delta; },
    emit: async () => undefined,
  } as unknown as TurnContext;
  return { ctx, recorded, offered, seen, calls: () => round, streamed: () => streamed };
}

describe('respond ends the turn (seed 004 §5a)', () => {
  it('a respond reply is the assistant message, streamed as text; one model call, no correction', async () => {
    const t = scripted([{ calls: [respond('The answer is 42.')] }]);
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 1, corrections: [], lastText: 'The answer is 42.', finishReason: 'stop' });
    expect(t.recorded).toEqual([{ role: 'assistant', senderName: 'p', content: 'The answer is 42.', toolCall: null }]);
    expect(t.streamed()).toBe('The answer is 42.');
  });

  it('a plain-text reply without respond under validation gets the No-Tool-Call correction exactly once', async () => {
    const t = scripted([{ text: 'Plain one.' }, { text: 'Plain two.' }, { text: 'Plain three.' }]);
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 2, corrections: ['no-tool-call'], lastText: 'Plain two.' });
    expect(t.recorded.filter((m) => m.role === 'system').map((m) => m.content)).toEqual([NO_TOOL_CALL_CORRECTION]);
  });

  it('ends at a respond after a work tool: the work result, then the reply', async () => {
    const t = scripted([{ calls: [work()] }, { calls: [respond('Done: ok.')] }, { text: 'never' }]);
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 2, corrections: [], lastText: 'Done: ok.' });
    expect(t.recorded.map((m) => [m.role, m.content])).toEqual([['assistant', ''], ['tool', 'ok'], ['assistant', 'Done: ok.']]);
  });

  it('runs the work calls of the response that responds, then ends', async () => {
    const t = scripted([{ text: 'Here it is.', calls: [work(), respond('All set.')] }]);
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 1, lastText: 'Here it is.\n\nAll set.' });
    expect(t.recorded.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(t.recorded[0]!.toolCall).toEqual({ kind: 'calls', calls: [work()] });
    expect(t.streamed()).toBe('Here it is.\n\nAll set.');
  });

  it('still corrects a data-relay gap when the reply through respond is short', async () => {
    const t = scripted([{ calls: [work()] }, { calls: [respond('Done.')] }, { calls: [respond('The data: ' + 'y'.repeat(250))] }], { result: 'x'.repeat(600) });
    const result = await runToolLoop(t.ctx);
    expect(result.corrections).toEqual(['data-relay-gap']);
    expect(result.iterations).toBe(3);
    expect(result.lastText).toMatch(/^The data: y+$/);
  });

  it('a respond without a message goes to dispatch (which says what is missing) and the turn goes on', async () => {
    const t = scripted([{ calls: [{ id: 'r0', name: 'respond', arguments: {} }] }, { calls: [respond('Now with one.')] }]);
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 2, lastText: 'Now with one.' });
  });

  it('is a plain tool call when respond is not offered', async () => {
    const t = scripted([{ calls: [respond('x')] }, { text: 'Text reply.' }], { tools: [WORK], validation: false });
    const result = await runToolLoop(t.ctx);
    expect(result).toMatchObject({ iterations: 2, lastText: 'Text reply.' });
  });
});

describe('deferred tools loaded by tool_describe', () => {
  it('are offered from the next model call of the turn on', async () => {
    const loaded: ToolSpec[] = [];
    const t = scripted([{ calls: [{ id: 'd', name: 'tool_describe', arguments: { name: 'late' } }] }, { calls: [respond('ok')] }], {
      loaded: () => loaded, validation: false,
    });
    t.ctx.dispatch = async () => {
      loaded.push({ name: 'late', description: 'Late', parameters: { type: 'object' } });
      return { content: '{}' };
    };
    await runToolLoop(t.ctx);
    expect(t.offered).toEqual([['respond', 'work'], ['respond', 'work', 'late']]);
  });
});
