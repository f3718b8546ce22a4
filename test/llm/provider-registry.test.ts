import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../api/src/domain/llm/errors';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { REGISTERED_PROVIDERS } from '../../api/src/domain/recipes/model-alias';
import { StaticSettings } from '../../api/src/domain/settings/settings-reader';
import { PROVIDER_NAMES, ProviderRegistry } from '../../api/src/llm/provider-registry';

const request = (provider: string): ModelCallRequest => ({
  provider,
  model: 'offline-echo',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  sampling: { temperature: 0.7, maxTokens: null, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null },
  settings: new StaticSettings({}),
});

async function collect(it: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('ProviderRegistry', () => {
  it('registers exactly the providers alias resolution accepts', () => {
    expect([...PROVIDER_NAMES].sort()).toEqual([...REGISTERED_PROVIDERS].sort());
    expect([...new ProviderRegistry().names].sort()).toEqual([...REGISTERED_PROVIDERS].sort());
  });

  it('dispatches to the offline provider (case-insensitive)', async () => {
    const events = await collect(new ProviderRegistry().stream(request('Offline')));
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toContain('You said: hi');
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('dispatches AI SDK names to the AI SDK provider', async () => {
    const error = await collect(new ProviderRegistry().stream(request('anthropic'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', provider: 'anthropic' });
  });

  // Issue 18: the SDK's modules are a second or more of the start; an offline instance never needs them.
  it('loads the AI SDK only when a call needs it', () => {
    const script = [
      "const { ProviderRegistry } = require('./api/src/llm/provider-registry');",
      'new ProviderRegistry();',
      "console.log(Object.keys(require.cache).filter((file) => /[\\/]node_modules[\\/](ai|@ai-sdk)[\\/]/.test(file)).length);",
    ].join('\n');
    const loaded = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' });
    expect(loaded.trim()).toBe('0');
  }, 60_000);

  it('fails an unknown provider with UNKNOWN_PROVIDER', async () => {
    const error = await collect(new ProviderRegistry().stream(request('nope'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'UNKNOWN_PROVIDER', provider: 'nope' });
  });

  it('takes overrides by name', async () => {
    const fake: ModelProvider = {
      async *stream() {
        yield { type: 'finish', reason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
      },
    };
    const registry = new ProviderRegistry({ overrides: { OpenAI: fake } });
    expect(await collect(registry.stream(request('openai')))).toEqual([{ type: 'finish', reason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } }]);
  });
});
