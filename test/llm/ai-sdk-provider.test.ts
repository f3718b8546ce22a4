import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { CONVERSATION, KEY, SAMPLING, TOOLS, collect, failure, provider, request, server, text, useServer } from './ai-sdk-provider-fixture';
import { FakeLlmServer, anthropic, jsonError, openai, sse } from './fake-llm-server';

useServer();

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
