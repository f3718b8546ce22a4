import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ChatMessage, ModelCallRequest, ModelStreamEvent, ToolSpec } from '../../api/src/domain/llm/model-provider';
import type { SamplingParams } from '../../api/src/domain/recipes/sampling-params';
import { StaticSettings } from '../../api/src/domain/settings/settings-reader';
import { AiSdkProvider, toInt32, toModelMessages } from '../../api/src/llm/ai-sdk-provider';
import { FakeLlmServer, anthropic, jsonError, openai, sse } from './fake-llm-server';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const SAMPLING: SamplingParams = { temperature: 0.2, maxTokens: 256, topP: 0.9, topK: 40, stopSequences: ['END'], seed: 4_294_967_297, frequencyPenalty: 0.5, presencePenalty: 0.25 };
const TOOLS: ToolSpec[] = [
  {
    name: 'workspace_read',
    description: 'Read a workspace file',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'the file' } }, required: ['path'], additionalProperties: false },
  },
];
const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'You are a worker.' },
  { role: 'user', content: 'Read notes.md' },
  { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'call_0', name: 'workspace_read', arguments: { path: 'notes.md' } }] },
  { role: 'tool', toolCallId: 'call_0', toolName: 'workspace_read', content: 'the notes' },
];

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

function request(provider: string, settings: Record<string, string>, extra: Partial<ModelCallRequest> = {}): ModelCallRequest {
  return { provider, model: `${provider}-model`, messages: CONVERSATION, tools: TOOLS, sampling: SAMPLING, settings: new StaticSettings(settings), ...extra };
}

async function collect(it: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

async function failure(it: AsyncIterable<ModelStreamEvent>): Promise<ModelCallError> {
  try {
    await collect(it);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelCallError);
    return error as ModelCallError;
  }
  throw new Error('expected the stream to fail');
}

const text = (events: ModelStreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
const provider = new AiSdkProvider();

describe('AiSdkProvider — OpenAI chat completions over SSE', () => {
  const settings = () => ({ 'ai.openai.apiKey': KEY, 'ai.openai.baseUrl': `${server.baseUrl}/v1` });

  it('streams text in chunks and maps the request (messages, tool results, tools, sampling, auth)', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('', true));
      for (const piece of ['Hel', 'lo ', 'world']) s.data(openai.text(piece));
      s.data(openai.finish('stop'));
      s.data(openai.usage(21, 3));
      s.data('[DONE]');
      s.end();
    };
    const events = await collect(provider.stream(request('openai', settings())));
    expect(events.filter((e) => e.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo ' },
      { type: 'text-delta', text: 'world' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 21, outputTokens: 3 } });

    const [req] = server.requests;
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = req?.body ?? {};
    expect(body.model).toBe('openai-model');
    expect(body.stream).toBe(true);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a worker.' },
      { role: 'user', content: 'Read notes.md' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'workspace_read', arguments: '{"path":"notes.md"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'the notes' },
    ]);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'workspace_read', description: 'Read a workspace file', parameters: TOOLS[0]?.parameters, strict: undefined } },
    ].map((t) => JSON.parse(JSON.stringify(t))));
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 256, top_p: 0.9, stop: ['END'], seed: 1, frequency_penalty: 0.5, presence_penalty: 0.25 });
    expect(body).not.toHaveProperty('top_k');
    expect(Number.isInteger(body.seed)).toBe(true);
  });

  it('returns a tool call whose JSON arguments arrive split across chunks, finishing with tool-calls', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.toolStart(0, 'call_7', 'workspace_read'));
      for (const fragment of ['{"pa', 'th": "dir/', 'notes.md"', '}']) s.data(openai.toolArgs(0, fragment));
      s.data(openai.finish('tool_calls'));
      s.data(openai.usage(30, 9));
      s.data('[DONE]');
      s.end();
    };
    const events = await collect(provider.stream(request('openai', settings())));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'call_7', name: 'workspace_read', arguments: { path: 'dir/notes.md' } } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 30, outputTokens: 9 } },
    ]);
  });

  it('maps HTTP 401 to PROVIDER_ERROR with the status and without the key', async () => {
    server.handler = (_req, res) =>
      jsonError(res, 401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    const error = await failure(provider.stream(request('openai', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.provider).toBe('openai');
    expect(error.message).toContain('401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('SECRET');
    expect(server.requests).toHaveLength(1); // no retries
  });

  it('maps HTTP 500 to PROVIDER_ERROR', async () => {
    server.handler = (_req, res) => jsonError(res, 500, { error: { message: 'The server had an error', type: 'server_error' } });
    const error = await failure(provider.stream(request('openai', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toMatch(/500.*The server had an error/);
  });

  it('maps a connection dropped mid-stream to PROVIDER_ERROR, after the text already streamed', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('partial ', true));
      setTimeout(() => s.drop(), 20);
    };
    const seen: ModelStreamEvent[] = [];
    const error = await failure((async function* () {
      for await (const e of provider.stream(request('openai', settings()))) {
        seen.push(e);
        yield e;
      }
    })());
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).not.toContain(KEY);
    expect(text(seen)).toBe('partial ');
  });

  it('maps an unreachable endpoint to PROVIDER_UNAVAILABLE', async () => {
    const closed = new FakeLlmServer();
    await closed.start();
    const url = closed.baseUrl;
    await closed.stop();
    const error = await failure(provider.stream(request('openai', { 'ai.openai.apiKey': KEY, 'ai.openai.baseUrl': `${url}/v1` })));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).not.toContain(KEY);
  });

  // Load-proof: after one chunk the server is silent for ever, so only the timeout can end the call.
  it('maps silence past ai.<provider>.timeoutMs to PROVIDER_TIMEOUT', async () => {
    server.handler = (_req, res) => {
      sse(res).data(openai.text('slow', true));
    };
    const error = await failure(provider.stream(request('openai', { ...settings(), 'ai.openai.timeoutMs': '150' })));
    expect(error.code).toBe('PROVIDER_TIMEOUT');
    expect(error.message).toContain('150 ms');
  });

  it('rethrows the caller abort reason, not a provider error', async () => {
    server.handler = (_req, res) => {
      sse(res).data(openai.text('x', true));
    };
    const controller = new AbortController();
    const reason = new Error('turn cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(collect(provider.stream(request('openai', settings(), { signal: controller.signal })))).rejects.toBe(reason);
  });

  it('fails with PROVIDER_NOT_CONFIGURED naming the setting when the key is missing', async () => {
    const error = await failure(provider.stream(request('openai', {})));
    expect(error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(error.message).toContain('ai.openai.apiKey');
    expect(server.requests).toHaveLength(0);
  });
});

describe('AiSdkProvider — Anthropic messages over SSE', () => {
  const settings = () => ({ 'ai.anthropic.apiKey': KEY, 'ai.anthropic.baseUrl': `${server.baseUrl}/v1` });
  const send = (s: ReturnType<typeof sse>, ev: readonly [string, unknown]) => s.event(ev[0], ev[1]);

  it('streams text, and maps the request (system, tool_use/tool_result, tools, sampling without penalties or seed, x-api-key)', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      send(s, anthropic.messageStart(40));
      send(s, anthropic.textStart(0));
      for (const piece of ['The notes ', 'say ', 'hello.']) send(s, anthropic.textDelta(0, piece));
      send(s, anthropic.blockStop(0));
      send(s, anthropic.messageDelta('end_turn', 6));
      send(s, anthropic.messageStop());
      s.end();
    };
    const events = await collect(provider.stream(request('anthropic', settings())));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['The notes ', 'say ', 'hello.']);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 40, outputTokens: 6 } });

    const [req] = server.requests;
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe(KEY);
    const body = req?.body ?? {};
    expect(body.model).toBe('anthropic-model');
    expect(body.stream).toBe(true);
    expect(body.system).toEqual([{ type: 'text', text: 'You are a worker.' }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read notes.md' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'call_0', name: 'workspace_read', input: { path: 'notes.md' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_0', content: 'the notes' }] },
    ]);
    expect(body.tools).toMatchObject([{ name: 'workspace_read', description: 'Read a workspace file', input_schema: TOOLS[0]?.parameters }]);
    expect(body).toMatchObject({ max_tokens: 256, top_k: 40, stop_sequences: ['END'] });
    expect(body).not.toHaveProperty('frequency_penalty');
    expect(body).not.toHaveProperty('presence_penalty');
    expect(body).not.toHaveProperty('seed');
  });

  it('defaults max_tokens to 4096 and sends a failed tool result as an error', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      send(s, anthropic.messageStart(5));
      send(s, anthropic.messageDelta('end_turn', 1));
      send(s, anthropic.messageStop());
      s.end();
    };
    const messages: ChatMessage[] = [...CONVERSATION.slice(0, 3), { role: 'tool', toolCallId: 'call_0', toolName: 'workspace_read', content: 'no such file', isError: true }];
    await collect(provider.stream(request('anthropic', settings(), { messages, sampling: { ...SAMPLING, maxTokens: null } })));
    const body = server.requests[0]?.body ?? {};
    expect(body.max_tokens).toBe(4096);
    expect((body.messages as unknown[])[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_0', content: 'no such file', is_error: true }] });
  });

  it('returns a tool_use whose input_json_delta arrives in fragments', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      send(s, anthropic.messageStart(50));
      send(s, anthropic.textStart(0));
      send(s, anthropic.textDelta(0, 'Let me read it.'));
      send(s, anthropic.blockStop(0));
      send(s, anthropic.toolStart(1, 'toolu_01', 'workspace_read'));
      for (const fragment of ['', '{"path"', ': "a/b', '.md"}']) send(s, anthropic.toolDelta(1, fragment));
      send(s, anthropic.blockStop(1));
      send(s, anthropic.messageDelta('tool_use', 20));
      send(s, anthropic.messageStop());
      s.end();
    };
    const events = await collect(provider.stream(request('anthropic', settings())));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Let me read it.' },
      { type: 'tool-call', call: { id: 'toolu_01', name: 'workspace_read', arguments: { path: 'a/b.md' } } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 50, outputTokens: 20 } },
    ]);
  });

  it('maps HTTP 401 to PROVIDER_ERROR without the key', async () => {
    server.handler = (_req, res) => jsonError(res, 401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } });
    const error = await failure(provider.stream(request('anthropic', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toContain('401');
    expect(error.message).toContain('invalid x-api-key');
    expect(error.message).not.toContain(KEY);
  });

  it('maps HTTP 500 to PROVIDER_ERROR', async () => {
    server.handler = (_req, res) => jsonError(res, 500, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } });
    const error = await failure(provider.stream(request('anthropic', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toMatch(/500.*Internal server error/);
  });

  it('maps a connection dropped mid-stream to PROVIDER_ERROR', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      send(s, anthropic.messageStart(5));
      send(s, anthropic.textStart(0));
      send(s, anthropic.textDelta(0, 'half'));
      setTimeout(() => s.drop(), 20);
    };
    const error = await failure(provider.stream(request('anthropic', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
  });
});

describe('AiSdkProvider — OpenAI-compatible endpoints and configuration', () => {
  it('lmstudio and openai-compatible use ai.<name>.baseUrl, no auth header without a key, no top_k', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('ok', true));
      s.data(openai.finish('stop'));
      s.data('[DONE]');
      s.end();
    };
    for (const name of ['lmstudio', 'openai-compatible']) {
      server.requests.length = 0;
      const events = await collect(provider.stream(request(name, { [`ai.${name}.baseUrl`]: `${server.baseUrl}/v1` })));
      expect(text(events)).toBe('ok');
      const [req] = server.requests;
      expect(req?.path).toBe('/v1/chat/completions');
      expect(req?.headers.authorization).toBeUndefined();
      expect(req?.body).toMatchObject({ model: `${name}-model`, seed: 1, frequency_penalty: 0.5 });
      expect(req?.body).not.toHaveProperty('top_k');
    }
  });

  it('sends the optional key of an openai-compatible endpoint as a bearer token', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.finish('stop'));
      s.data('[DONE]');
      s.end();
    };
    await collect(provider.stream(request('openai-compatible', { 'ai.openai-compatible.baseUrl': `${server.baseUrl}/v1`, 'ai.openai-compatible.apiKey': KEY })));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('requires ai.openai-compatible.baseUrl, and keys for anthropic and gemini', async () => {
    expect((await failure(provider.stream(request('openai-compatible', {})))).message).toContain('ai.openai-compatible.baseUrl');
    expect((await failure(provider.stream(request('anthropic', {})))).message).toContain('ai.anthropic.apiKey');
    const gemini = await failure(provider.stream(request('gemini', {})));
    expect(gemini.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(gemini.message).toContain('ai.gemini.apiKey');
  });

  it('casts seed like Java (int): low 32 bits', () => {
    expect(toInt32(7)).toBe(7);
    expect(toInt32(2 ** 32 + 1)).toBe(1);
    expect(toInt32(2 ** 31)).toBe(-(2 ** 31));
    expect(toInt32(-5)).toBe(-5);
  });
});

describe('AiSdkProvider — Ollama over NDJSON', () => {
  const line = (res: import('node:http').ServerResponse, value: unknown) => res.write(`${JSON.stringify(value)}\n`);
  const chunk = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'llama', created_at: '2026-01-01T00:00:00Z', done: false, message: { role: 'assistant', content }, ...extra });

  it('streams text from /api/chat and sends sampling in options (num_predict, top_k, seed; no penalties)', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      line(res, chunk('Hi '));
      line(res, chunk('there'));
      line(res, { ...chunk(''), done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 2 });
      res.end();
    };
    const events = await collect(provider.stream(request('ollama', { 'ai.ollama.baseUrl': `${server.baseUrl}/api` })));
    expect(text(events)).toBe('Hi there');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 2 } });
    const [req] = server.requests;
    expect(req?.path).toBe('/api/chat');
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body.model).toBe('ollama-model');
    expect(req?.body.options).toEqual({ temperature: 0.2, num_predict: 256, top_p: 0.9, top_k: 40, stop: ['END'], seed: 1 });
    expect(JSON.stringify(req?.body)).not.toMatch(/frequency|presence/);
  });

  it('returns a tool call (Ollama sends the arguments whole)', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      line(res, { ...chunk(''), message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'workspace_read', arguments: { path: 'x.md' } } }] } });
      line(res, { ...chunk(''), done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 4 });
      res.end();
    };
    const events = await collect(provider.stream(request('ollama', { 'ai.ollama.baseUrl': `${server.baseUrl}/api`, 'ai.ollama.apiKey': KEY })));
    const call = events.find((e) => e.type === 'tool-call');
    expect(call).toMatchObject({ type: 'tool-call', call: { name: 'workspace_read', arguments: { path: 'x.md' } } });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('AiSdkProvider — Gemini over SSE', () => {
  it('streams text and a function call; sends every §5c param in generationConfig with x-goog-api-key', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data({ candidates: [{ content: { parts: [{ text: 'Reading ' }], role: 'model' }, index: 0 }] });
      s.data({ candidates: [{ content: { parts: [{ text: 'now.' }], role: 'model' }, index: 0 }] });
      s.data({
        candidates: [{ content: { parts: [{ functionCall: { name: 'workspace_read', args: { path: 'g.md' } } }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 17, candidatesTokenCount: 5, totalTokenCount: 22 },
      });
      s.end();
    };
    // gemini falls back to ai.google.apiKey. (A gemini-2.5 model would get no penalties: the SDK drops them, the API rejects them.)
    const events = await collect(provider.stream(request('gemini', { 'ai.google.apiKey': KEY, 'ai.gemini.baseUrl': `${server.baseUrl}/v1beta` }, { model: 'gemini-2.0-flash' })));
    expect(text(events)).toBe('Reading now.');
    expect(events.find((e) => e.type === 'tool-call')).toMatchObject({ call: { name: 'workspace_read', arguments: { path: 'g.md' } } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', usage: { inputTokens: 17, outputTokens: 5 } });
    const [req] = server.requests;
    expect(req?.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(req?.headers['x-goog-api-key']).toBe(KEY);
    expect(req?.body.systemInstruction).toEqual({ parts: [{ text: 'You are a worker.' }] });
    expect(req?.body.generationConfig).toMatchObject({
      temperature: 0.2, maxOutputTokens: 256, topP: 0.9, topK: 40, stopSequences: ['END'], seed: 1, frequencyPenalty: 0.5, presencePenalty: 0.25,
    });
    expect(JSON.stringify(req?.body.tools)).toContain('"name":"workspace_read"');
  });
});

describe('AiSdkProvider — odd tool calls are passed on for the engine to refuse', () => {
  const settings = () => ({ 'ai.openai.apiKey': KEY, 'ai.openai.baseUrl': `${server.baseUrl}/v1` });

  it('a call to a tool not offered keeps its name; unparsable arguments become {}', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.toolStart(0, 'c1', 'workspace_read'));
      s.data(openai.toolArgs(0, '{"path": '));
      s.data(openai.toolStart(1, 'c2', 'workspace_delete'));
      s.data(openai.toolArgs(1, '{"path":"x"}'));
      s.data(openai.finish('tool_calls'));
      s.data('[DONE]');
      s.end();
    };
    const events = await collect(provider.stream(request('openai', settings())));
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'c1', name: 'workspace_read', arguments: {} } },
      { type: 'tool-call', call: { id: 'c2', name: 'workspace_delete', arguments: { path: 'x' } } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('an error event inside the stream becomes PROVIDER_ERROR', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('a', true));
      s.data({ error: { message: 'overloaded', type: 'server_error' } });
      s.end();
    };
    const error = await failure(provider.stream(request('openai', settings())));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.message).toContain('overloaded');
  });
});

describe('AiSdkProvider — lifecycle', () => {
  const settings = () => ({ 'ai.openai.apiKey': KEY, 'ai.openai.baseUrl': `${server.baseUrl}/v1`, 'ai.openai.timeoutMs': '1000' });

  // Load: with a 100 ms idle timeout a busy machine could miss the first byte of the (local) server
  // and fail with PROVIDER_TIMEOUT. Now the server's wait has a generous 1 s, and the consumer's
  // one pause (1.5 s) is longer than that by construction, so the property does not depend on speed.
  it('does not count the consumer\'s own time against the idle timeout', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.data(openai.text('a', true));
      s.data(openai.text('b'));
      s.data(openai.finish('stop'));
      s.data('[DONE]');
      s.end();
    };
    const out: string[] = [];
    for await (const e of provider.stream(request('openai', settings()))) {
      if (e.type === 'text-delta') {
        if (out.length === 0) await new Promise((r) => setTimeout(r, 1500));
        out.push(e.text);
      }
    }
    expect(out.join('')).toBe('ab');
  });

  it('cancels the HTTP request when the caller stops reading', async () => {
    let closed!: () => void;
    const requestClosed = new Promise<void>((resolve) => (closed = resolve));
    server.handler = (_req, res) => {
      res.on('close', () => closed());
      sse(res).data(openai.text('first', true));
    };
    for await (const e of provider.stream(request('openai', { ...settings(), 'ai.openai.timeoutMs': '60000' }))) {
      expect(e).toEqual({ type: 'text-delta', text: 'first' });
      break;
    }
    await requestClosed;
  });
});

describe('toModelMessages', () => {
  it('merges consecutive tool results and turns a late system message into a marked user message for Anthropic', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S1' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 't', arguments: {} }, { id: 'b', name: 't', arguments: { x: 1 } }] },
      { role: 'tool', toolCallId: 'a', toolName: 't', content: 'ra' },
      { role: 'tool', toolCallId: 'b', toolName: 't', content: 'rb', isError: true },
      { role: 'system', content: 'Correction' },
    ];
    const anthropicMessages = toModelMessages(messages, 'anthropic');
    expect(anthropicMessages).toEqual([
      { role: 'system', content: 'S1' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: [
        { type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} },
        { type: 'tool-call', toolCallId: 'b', toolName: 't', input: { x: 1 } },
      ] },
      { role: 'tool', content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'text', value: 'ra' } },
        { type: 'tool-result', toolCallId: 'b', toolName: 't', output: { type: 'error-text', value: 'rb' } },
      ] },
      { role: 'user', content: '[system] Correction' },
    ]);
    expect(toModelMessages(messages, 'openai').at(-1)).toEqual({ role: 'system', content: 'Correction' });
  });
});

describe('AiSdkProvider — warnings', () => {
  it('hands the SDK call warnings to onWarnings (Anthropic drops topP when temperature is set)', async () => {
    server.handler = (_req, res) => {
      const s = sse(res);
      s.event(...anthropic.messageStart(1));
      s.event(...anthropic.messageDelta('end_turn', 1));
      s.event(...anthropic.messageStop());
      s.end();
    };
    const g = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    const before = g.AI_SDK_LOG_WARNINGS;
    g.AI_SDK_LOG_WARNINGS = false;
    try {
      const seen: string[] = [];
      const withHook = new AiSdkProvider({ onWarnings: (p, m, warnings) => seen.push(...warnings.map((w) => `${p}/${m}: ${w}`)) });
      await collect(withHook.stream(request('anthropic', { 'ai.anthropic.apiKey': KEY, 'ai.anthropic.baseUrl': `${server.baseUrl}/v1` }, { model: 'claude-sonnet-4-5' })));
      expect(seen.some((w) => w.startsWith('anthropic/claude-sonnet-4-5: ') && w.includes('topP'))).toBe(true);
      expect(server.requests[0]?.body).not.toHaveProperty('top_p');
    } finally {
      g.AI_SDK_LOG_WARNINGS = before;
    }
  });
});
