import { describe, expect, it } from 'vitest';
import type { Principal } from '../identity/principal';
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../llm/model-provider';
import { RecipeLoader } from '../recipes/recipe-loader';
import { RecipeResolver } from '../recipes/recipe-resolver';
import { cascadeWith, FakeTemplateEngine, recipeYaml, SCOPE } from '../recipes/testing';
import { StaticSettings } from '../settings/settings-reader';
import type { SettingsService } from '../settings/settings-service';
import { StaticToolCatalog } from '../tools/tool-descriptor';
import { RecipeLlmJsonCaller } from './llm-json';

const PRINCIPAL = { tenant: { id: 't1', name: 'acme' } } as unknown as Principal;
const SETTINGS = { reader: () => new StaticSettings({ 'ai.default.provider': 'offline', 'ai.default.model': 'offline-echo' }) } as unknown as SettingsService;

class JudgeProvider implements ModelProvider {
  readonly requests: ModelCallRequest[] = [];
  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push(request);
    yield { type: 'text-delta', text: '{"fire": true, "reason": "yes"}' };
    yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
  }
}

function callerWith() {
  const { cascade } = cascadeWith([
    { path: '_vance/recipes/judge.yaml', content: recipeYaml('promptPrefix: "You are a strict judge."') },
    // The fake engine fails `{{ explode }}` at render, as a real one fails a template it stopped.
    { path: '_vance/recipes/broken.yaml', content: recipeYaml('promptPrefix: "{{ explode }}"') },
  ]);
  const templates = new FakeTemplateEngine();
  const resolver = new RecipeResolver({ loader: new RecipeLoader({ cascade, templates }), templates, tools: new StaticToolCatalog([]) });
  const provider = new JudgeProvider();
  const caller = new RecipeLlmJsonCaller({ resolver, settings: SETTINGS, provider });
  const ask = (recipe: string) => caller.callForJson({ principal: PRINCIPAL, scope: SCOPE, recipe, instruction: 'Evaluate.', data: { output: 'DONE' } });
  return { provider, ask };
}

describe('RecipeLlmJsonCaller', () => {
  it("asks the model with the recipe's prompt as the system message and parses the answer", async () => {
    const { provider, ask } = callerWith();
    await expect(ask('judge')).resolves.toEqual({ fire: true, reason: 'yes' });
    expect(provider.requests[0]!.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('You are a strict judge.') });
  });

  // Seen under load: the judge's prompt render was stopped, and the judge ran without its prompt —
  // a different question, so the guard silently never fired. Now the call fails, visibly.
  it("refuses to ask when the recipe's prompt could not be rendered", async () => {
    const { provider, ask } = callerWith();
    await expect(ask('broken')).rejects.toThrow("vance.llm.callForJson: recipe 'broken': the system prompt preview could not be rendered: fake failure");
    expect(provider.requests).toEqual([]);
  });
});
