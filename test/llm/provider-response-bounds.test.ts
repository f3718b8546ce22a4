import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ModelCallRequest, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { MAX_TOOL_ARGUMENT_CHARS } from '../../api/src/domain/tools/tool-call-bounds';
import { StaticSettings } from '../../api/src/domain/settings/settings-reader';
import { AiSdkProvider } from '../../api/src/llm/ai-sdk-provider';
import { FakeLlmServer, openai, sse } from './fake-llm-server';

/**
 * Issue 13: a tool-call argument from the model was size-checked only after the AI SDK had buffered
 * and parsed it (50 MB grew the server by 400–870 MB). A streamed argument is now counted delta by
 * delta and the call stopped past MAX_TOOL_ARGUMENT_CHARS; an argument that arrives whole (or any
 * response) is stopped at the byte limit of the response body, before the SDK parses it.
 */
const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const TOOLS = [{ name: 'doc_read', description: 'Read', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const request = (settings: Record<string, string>): ModelCallRequest => ({
  provider: settings['ai.ollama.baseUrl'] ? 'ollama' : 'openai', model: 'm', tools: TOOLS,
  sampling: { temperature: 0, maxTokens: null, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null },
  messages: [{ role: 'user', content: 'read' }], settings: new StaticSettings(settings),
});

async function failure(events: AsyncIterable<ModelStreamEvent>): Promise<ModelCallError> {
  try {
    for await (const _ of events) { /* drain */ }
  } catch (error) {
    expect(error).toBeInstanceOf(ModelCallError);
    return error as ModelCallError;
  }
  throw new Error('expected the stream to fail');
}

describe('provider responses are bounded before they are parsed', () => {
  it(`stops a streamed tool-call argument past ${MAX_TOOL_ARGUMENT_CHARS} characters, and stops reading`, async () => {
    let written = 0;
    let closed = false;
    server.handler = async (_req, res) => {
      res.on('close', () => { closed = true; });
      const s = sse(res);
      s.data(openai.toolStart(0, 'call_1', 'doc_read'));
      s.data(openai.toolArgs(0, '{"path": "'));
      // Endless: only the client stopping ends it.
      while (!closed && written < 50_000_000) {
        s.data(openai.toolArgs(0, 'x'.repeat(10_000)));
        written += 10_000;
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    };
    const error = await failure(new AiSdkProvider().stream(request({ 'ai.openai.apiKey': 'k', 'ai.openai.baseUrl': `${server.baseUrl}/v1` })));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toContain(`exceed ${MAX_TOOL_ARGUMENT_CHARS} characters`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBeLessThan(50_000_000);
  });

  it('stops a response past its byte limit, an argument that arrives whole included', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const args = { path: 'y'.repeat(3_000_000) };
      res.write(`${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', done: false, message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'doc_read', arguments: args } }] } })}\n`);
      res.end(`${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', done: true, done_reason: 'stop', message: { role: 'assistant', content: '' } })}\n`);
    };
    const provider = new AiSdkProvider({ maxResponseBytes: 1_000_000 });
    const error = await failure(provider.stream(request({ 'ai.ollama.baseUrl': `${server.baseUrl}/api` })));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toContain('sent too much: the response exceeds 1000000 bytes');
  });
});
