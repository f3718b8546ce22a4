import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../api/src/domain/llm/model-provider';
import { AiSdkProvider, toInt32, toModelMessages } from '../../api/src/llm/ai-sdk-provider';
import { KEY, collect, failure, provider, request, server, text, useServer } from './ai-sdk-provider-fixture';
import { anthropic, openai, sse } from './fake-llm-server';

// AiSdkProvider beside OpenAI and Anthropic (ai-sdk-provider.test.ts): compatible endpoints, Ollama,
// Gemini, odd tool calls, the stream's lifecycle, and the message mapping.
useServer();

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
