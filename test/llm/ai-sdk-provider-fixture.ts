/** Shared by the AiSdkProvider test files: a request over the fake wire server, and stream helpers. */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ChatMessage, ModelCallRequest, ModelStreamEvent, ToolSpec } from '../../api/src/domain/llm/model-provider';
import type { SamplingParams } from '../../api/src/domain/recipes/sampling-params';
import { StaticSettings } from '../../api/src/domain/settings/settings-reader';
import { AiSdkProvider } from '../../api/src/llm/ai-sdk-provider';
import { FakeLlmServer } from './fake-llm-server';

export const KEY = 'sk-test-SECRET-0123456789abcdef';
export const SAMPLING: SamplingParams = { temperature: 0.2, maxTokens: 256, topP: 0.9, topK: 40, stopSequences: ['END'], seed: 4_294_967_297, frequencyPenalty: 0.5, presencePenalty: 0.25 };
export const TOOLS: ToolSpec[] = [
  {
    name: 'workspace_read',
    description: 'Read a workspace file',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'the file' } }, required: ['path'], additionalProperties: false },
  },
];
export const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'You are a worker.' },
  { role: 'user', content: 'Read notes.md' },
  { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'call_0', name: 'workspace_read', arguments: { path: 'notes.md' } }] },
  { role: 'tool', toolCallId: 'call_0', toolName: 'workspace_read', content: 'the notes' },
];

export const server = new FakeLlmServer();

/** The wire server for one test file: started once, its recorded requests cleared before each test. */
export function useServer(): void {
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
  });
}

export function request(provider: string, settings: Record<string, string>, extra: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { provider, model: `${provider}-model`, messages: CONVERSATION, tools: TOOLS, sampling: SAMPLING, settings: new StaticSettings(settings), ...extra };
}

export async function collect(it: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

export async function failure(it: AsyncIterable<ModelStreamEvent>): Promise<ModelCallError> {
  try {
    await collect(it);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelCallError);
    return error as ModelCallError;
  }
  throw new Error('expected the stream to fail');
}

export const text = (events: ModelStreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
export const provider = new AiSdkProvider();
