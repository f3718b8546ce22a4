import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelCallRequest, ModelStreamEvent, ToolSpec } from '../../api/src/domain/llm/model-provider';
import { StaticSettings } from '../../api/src/domain/settings/settings-reader';
import type { SamplingParams } from '../../api/src/domain/recipes/sampling-params';
import { OfflineProvider, WORDS_PER_CHUNK, chunkWords } from '../../api/src/llm/offline-provider';

const SAMPLING: SamplingParams = { temperature: 0.7, maxTokens: null, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null };
const TOOLS: ToolSpec[] = [
  { name: 'workspace_read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'recipe_list', description: 'List recipes', parameters: { type: 'object', properties: {} } },
];

function request(messages: ChatMessage[], extra: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { provider: 'offline', model: 'offline-echo', messages, tools: TOOLS, sampling: SAMPLING, settings: new StaticSettings({}), ...extra };
}

async function collect(it: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

const text = (events: ModelStreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');

describe('OfflineProvider', () => {
  const provider = new OfflineProvider();

  it('echoes the last user message with a note on the prompt and tools, streamed in word groups', async () => {
    const events = await collect(provider.stream(request([
      { role: 'system', content: 'You are helpful.' },
      { role: 'system', content: 'Skills: none' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: '  hello there, offline model  ' },
    ])));
    expect(text(events)).toBe(
      'Offline model (no provider configured). You said: hello there, offline model\n' +
        '[system prompt: 28 chars in 2 messages; tools: workspace_read, recipe_list]',
    );
    const deltas = events.filter((e) => e.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(3);
    for (const d of deltas) expect(d.text.match(/\S+/g)?.length ?? 0).toBeLessThanOrEqual(WORDS_PER_CHUNK);
    const finish = events.at(-1);
    expect(finish).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 11, outputTokens: expect.any(Number) } });
    if (finish?.type === 'finish') expect(finish.usage.outputTokens).toBe(text(events).match(/\S+/g)?.length);
  });

  it('is deterministic', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'same input' }];
    expect(await collect(provider.stream(request(messages)))).toEqual(await collect(provider.stream(request(messages))));
  });

  it('answers through respond when it is offered (seed 004 §5a), with the text it would have streamed', async () => {
    const respond: ToolSpec = { name: 'respond', description: 'Reply', parameters: { type: 'object', properties: { message: { type: 'string' } } } };
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const events = await collect(provider.stream(request(messages, { tools: [respond] })));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'offline-call-1', name: 'respond', arguments: { message: 'Offline model (no provider configured). You said: hi\n[system prompt: 0 chars in 0 messages; tools: respond]' } } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: expect.any(Number) } },
    ]);
    expect(text(events)).toBe('');
    // A tool call line is still a tool call.
    const called = await collect(provider.stream(request([{ role: 'user', content: 'call workspace_read {"path": "a"}' }], { tools: [...TOOLS, respond] })));
    expect(called[0]).toMatchObject({ type: 'tool-call', call: { name: 'workspace_read' } });
  });

  it('says "tools: none" when no tools are offered', async () => {
    const events = await collect(provider.stream(request([{ role: 'user', content: 'hi' }], { tools: [] })));
    expect(text(events)).toContain('tools: none]');
  });

  it('calls an offered tool from a `call <name> {json}` line and finishes with tool-calls', async () => {
    const events = await collect(provider.stream(request([
      { role: 'user', content: 'please\ncall workspace_read {"path": "notes.md"}\n/tool recipe_list' },
    ])));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'offline-call-1', name: 'workspace_read', arguments: { path: 'notes.md' } } },
      { type: 'tool-call', call: { id: 'offline-call-2', name: 'recipe_list', arguments: {} } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 7, outputTokens: expect.any(Number) } },
    ]);
  });

  it('numbers call ids after the calls already in the conversation', async () => {
    const events = await collect(provider.stream(request([
      { role: 'user', content: 'call recipe_list {}' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'offline-call-1', name: 'recipe_list', arguments: {} }] },
      { role: 'tool', toolCallId: 'offline-call-1', toolName: 'recipe_list', content: '[]' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: '/tool recipe_list {}' },
    ])));
    expect(events[0]).toEqual({ type: 'tool-call', call: { id: 'offline-call-2', name: 'recipe_list', arguments: {} } });
  });

  it('answers in text when the tool is not offered or the arguments are not a JSON object', async () => {
    const notOffered = await collect(provider.stream(request([{ role: 'user', content: 'call rm_rf {}' }])));
    expect(text(notOffered)).toBe('Offline model: tool rm_rf is not offered (offered: workspace_read, recipe_list).');
    expect(notOffered.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    const badArgs = await collect(provider.stream(request([{ role: 'user', content: 'call workspace_read [1,2]' }])));
    expect(text(badArgs)).toBe('Offline model: arguments for tool workspace_read are not a JSON object: [1,2]');
  });

  it('summarises trailing tool results (first 200 chars) and finishes with stop', async () => {
    const long = 'x'.repeat(300);
    const events = await collect(provider.stream(request([
      { role: 'user', content: 'call workspace_read {"path":"a"}\ncall recipe_list' },
      { role: 'assistant', content: '', toolCalls: [
        { id: 'offline-call-1', name: 'workspace_read', arguments: { path: 'a' } },
        { id: 'offline-call-2', name: 'recipe_list', arguments: {} },
      ] },
      { role: 'tool', toolCallId: 'offline-call-1', toolName: 'workspace_read', content: long },
      { role: 'tool', toolCallId: 'offline-call-2', toolName: 'recipe_list', content: 'boom', isError: true },
    ])));
    expect(text(events)).toBe(`Tool workspace_read returned: ${'x'.repeat(200)}…\nTool recipe_list failed: boom`);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('honours maxTokens (finish length) and stopSequences', async () => {
    const capped = await collect(provider.stream(request([{ role: 'user', content: 'hello' }], { sampling: { ...SAMPLING, maxTokens: 4 } })));
    expect(text(capped)).toBe('Offline model (no provider');
    expect(capped.at(-1)).toMatchObject({ type: 'finish', reason: 'length', usage: { outputTokens: 4 } });
    const stopped = await collect(provider.stream(request([{ role: 'user', content: 'hello' }], { sampling: { ...SAMPLING, stopSequences: ['You said'] } })));
    expect(text(stopped)).toBe('Offline model (no provider configured). ');
    expect(stopped.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('stops with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const run = async () => {
      for await (const e of provider.stream(request([{ role: 'user', content: 'one two three four five six seven' }], { signal: controller.signal }))) {
        events.push(e);
        controller.abort(new Error('cancelled'));
      }
    };
    await expect(run()).rejects.toThrow('cancelled');
    expect(events).toHaveLength(1);
  });

  it('chunks concatenate back to the text', () => {
    expect(chunkWords('  a b  c d e\nf g ').join('')).toBe('  a b  c d e\nf g ');
    expect(chunkWords('')).toEqual([]);
  });
});
