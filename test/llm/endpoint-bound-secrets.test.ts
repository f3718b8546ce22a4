import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ModelCallRequest, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { CascadedSettings, StaticSettings } from '../../api/src/domain/settings/settings-reader';
import { AiSdkProvider } from '../../api/src/llm/ai-sdk-provider';
import { FakeLlmServer, anthropic, jsonError, openai, sse, type RecordedRequest } from './fake-llm-server';

/**
 * Issue 13 part 6, measured: a project ADMIN set `ai.openai.baseUrl` for the project to a listener of
 * their own and received the tenant's write-only key as `Authorization: Bearer …`. A key now goes
 * only to a base URL set at its own layer or an outer one. The listener below plays the project
 * admin's endpoint: it must never see the tenant's (or the server's) key, and does see the
 * project's own key when the project sets key and URL together.
 */
const TENANT_KEY = 'sk-tenant-KEY-0123456789abcdef';
const PROJECT_KEY = 'sk-project-KEY-9876543210fedcba';
const SERVER_KEY = 'sk-server-KEY-55555555555555';

const server = new FakeLlmServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.handler = answer;
});

/** A one-word successful answer in whichever wire format the path asks for. */
function answer(req: RecordedRequest, res: ServerResponse): void {
  if (req.path.startsWith('/api/chat')) {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.end(`${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', done: true, done_reason: 'stop', message: { role: 'assistant', content: 'ok' }, prompt_eval_count: 1, eval_count: 1 })}\n`);
    return;
  }
  const s = sse(res);
  if (req.path.includes(':streamGenerateContent')) {
    s.data({ candidates: [{ content: { parts: [{ text: 'ok' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } });
  } else if (req.path.endsWith('/messages')) {
    for (const [name, payload] of [anthropic.messageStart(1), anthropic.textStart(0), anthropic.textDelta(0, 'ok'), anthropic.blockStop(0), anthropic.messageDelta('end_turn', 1), anthropic.messageStop()]) s.event(name, payload);
  } else {
    s.data(openai.text('ok', true));
    s.data(openai.finish('stop'));
    s.data('[DONE]');
  }
  s.end();
}

interface ProviderCase {
  readonly name: string;
  readonly path: string;
  /** The key is optional: the call goes out without it instead of failing. */
  readonly optionalKey: boolean;
}
const PROVIDERS: ProviderCase[] = [
  { name: 'openai', path: '/v1', optionalKey: false },
  { name: 'anthropic', path: '/v1', optionalKey: false },
  { name: 'gemini', path: '/v1beta', optionalKey: false },
  { name: 'google', path: '/v1beta', optionalKey: false },
  { name: 'openai-compatible', path: '/v1', optionalKey: true },
  { name: 'lmstudio', path: '/v1', optionalKey: true },
  { name: 'ollama', path: '/api', optionalKey: true },
];

type Layer = Record<string, string>;
function request(provider: string, layers: { project?: Layer; tenant?: Layer; server?: Layer }): ModelCallRequest {
  const settings = new CascadedSettings([
    new StaticSettings(layers.project ?? {}, 'PROJECT', 'p'),
    new StaticSettings(layers.tenant ?? {}, 'VANCE'),
    new StaticSettings(layers.server ?? {}, 'ENVIRONMENT'),
  ]);
  return {
    provider, model: provider === 'gemini' || provider === 'google' ? 'gemini-2.0-flash' : `${provider}-model`,
    messages: [{ role: 'user', content: 'hi' }], tools: [], sampling: { temperature: 0.2, maxTokens: null, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null },
    settings,
  };
}

async function run(provider: AiSdkProvider, req: ModelCallRequest): Promise<{ events: ModelStreamEvent[]; error: ModelCallError | null }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of provider.stream(req)) events.push(e);
    return { events, error: null };
  } catch (err) {
    expect(err).toBeInstanceOf(ModelCallError);
    return { events, error: err as ModelCallError };
  }
}

/** Everything the listener could read a key from: every header and the URL (Gemini could take `?key=`). */
const seen = (req: RecordedRequest) => `${req.path} ${JSON.stringify(req.headers)}`;
const keysSeen = () => server.requests.map(seen).join('\n');

describe.each(PROVIDERS)('endpoint-bound keys: $name', ({ name, path, optionalKey }) => {
  const key = `ai.${name}.apiKey`;
  const url = `ai.${name}.baseUrl`;
  const endpoint = () => `${server.baseUrl}${path}`;

  it("never sends the tenant's key to a base URL the project set, and says why", async () => {
    const warnings: string[] = [];
    const provider = new AiSdkProvider({ onWarnings: (_p, _m, w) => warnings.push(...w) });
    const { error } = await run(provider, request(name, { tenant: { [key]: TENANT_KEY }, project: { [url]: endpoint() } }));
    expect(keysSeen()).not.toContain(TENANT_KEY);
    const why = `${url} is set in project 'p' but ${key} is not: the tenant's key (${key}, set in the tenant) is not sent to an endpoint configured in project 'p'`;
    expect(warnings.join('\n')).toContain(why);
    if (optionalKey) {
      // Called without it: the endpoint may not need one.
      expect(error).toBeNull();
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
    } else {
      expect(error?.code).toBe('PROVIDER_NOT_CONFIGURED');
      expect(error?.message).toContain(why);
      expect(server.requests).toHaveLength(0);
    }
  });

  it("never sends the server's default key to a base URL the tenant set", async () => {
    await run(new AiSdkProvider(), request(name, { server: { [key]: SERVER_KEY }, tenant: { [url]: endpoint() } }));
    expect(keysSeen()).not.toContain(SERVER_KEY);
  });

  it("sends the project's own key to the project's own base URL", async () => {
    const { error } = await run(new AiSdkProvider(), request(name, { tenant: { [key]: TENANT_KEY }, project: { [key]: PROJECT_KEY, [url]: endpoint() } }));
    expect(error).toBeNull();
    expect(server.requests).toHaveLength(1);
    expect(keysSeen()).toContain(PROJECT_KEY);
    expect(keysSeen()).not.toContain(TENANT_KEY);
  });

  it("sends the tenant's key to the tenant's base URL, and a project's key to it as well (an outer endpoint)", async () => {
    expect((await run(new AiSdkProvider(), request(name, { tenant: { [key]: TENANT_KEY, [url]: endpoint() } }))).error).toBeNull();
    expect(keysSeen()).toContain(TENANT_KEY);
    server.requests.length = 0;
    expect((await run(new AiSdkProvider(), request(name, { project: { [key]: PROJECT_KEY }, tenant: { [key]: TENANT_KEY, [url]: endpoint() } }))).error).toBeNull();
    expect(keysSeen()).toContain(PROJECT_KEY);
    expect(keysSeen()).not.toContain(TENANT_KEY);
  });
});

describe('endpoint-bound keys: fallbacks and errors', () => {
  it("binds gemini's fallback names too: the tenant's ai.google.apiKey never goes to the project's ai.gemini.baseUrl", async () => {
    const { error } = await run(new AiSdkProvider(), request('gemini', { tenant: { 'ai.google.apiKey': TENANT_KEY }, project: { 'ai.gemini.baseUrl': `${server.baseUrl}/v1beta` } }));
    expect(error?.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(error?.message).toContain("the tenant's key (ai.google.apiKey, set in the tenant)");
    expect(server.requests).toHaveLength(0);
  });

  it('names the withheld key in the error of an optional-key call the endpoint refuses', async () => {
    server.handler = (_req, res) => jsonError(res, 401, { error: { message: 'missing key' } });
    const { error } = await run(new AiSdkProvider(), request('openai-compatible', {
      tenant: { 'ai.openai-compatible.apiKey': TENANT_KEY }, project: { 'ai.openai-compatible.baseUrl': `${server.baseUrl}/v1` },
    }));
    expect(error?.code).toBe('PROVIDER_ERROR');
    expect(error?.message).toContain('answered HTTP 401');
    expect(error?.message).toContain("ai.openai-compatible.baseUrl is set in project 'p'");
    expect(keysSeen()).not.toContain(TENANT_KEY);
  });
});
