import { describe, expect, it } from 'vitest';
import { composeSystemPrompt, RECIPE_EXTENSION_SEPARATOR, renderRecipePrompt, type PromptRenderContext } from './prompt-composition';
import { FakeTemplateEngine } from './testing';

const CONTEXT: PromptRenderContext = {
  tier: 'small', model: 'claude-haiku-4-5', provider: 'anthropic', mode: 'NORMAL', profile: 'foot',
  recipe: 'analyze', engine: 'ford', lang: 'de', params: { maxIterations: 3 },
};
const templates = new FakeTemplateEngine();
const compose = (promptOverride: string | null, profileAppend: string | null, promptMode: 'APPEND' | 'OVERWRITE' = 'APPEND') =>
  composeSystemPrompt(templates, 'Engine for {{ engine }}.', { promptOverride, profileAppend, promptMode }, CONTEXT);

describe('prompt composition (seed 004 §5.3, DESIGN §10)', () => {
  it('renders the §5.1 context into the recipe template', async () => {
    const { text } = await renderRecipePrompt(templates, {
      promptOverride: '{{ tier }}/{{ model }}/{{ provider }}/{{ mode }}/{{ profile }}/{{ recipe }}/{{ engine }}/{{ lang }}/{{ params.maxIterations }}',
      profileAppend: null, promptMode: 'APPEND',
    }, CONTEXT);
    expect(text).toBe('small/claude-haiku-4-5/anthropic/NORMAL/foot/analyze/ford/de/3');
  });

  it('APPEND puts the recipe after the engine default with the exact separator', async () => {
    expect((await compose('Recipe {{ recipe }}.', null)).systemPrompt).toBe('Engine for ford.\n\n--- recipe extension ---\n\nRecipe analyze.');
    expect(RECIPE_EXTENSION_SEPARATOR).toBe('\n\n--- recipe extension ---\n\n');
  });

  it('OVERWRITE replaces the engine default', async () => {
    expect((await compose('Only me.', null, 'OVERWRITE')).systemPrompt).toBe('Only me.');
  });

  it('keeps the engine default alone when the recipe renders to nothing', async () => {
    expect((await compose('{% if missing %}x{% endif %}', null)).systemPrompt).toBe('Engine for ford.');
    expect((await compose(null, null)).systemPrompt).toBe('Engine for ford.');
  });

  it('exposes the rendered profile append as profileAppend where the template puts it', async () => {
    const result = await compose('Head.\n{{ profileAppend }}\nRules.', 'Foot on {{ profile }}.');
    expect(result).toMatchObject({ placement: 'TEMPLATE', profileAppend: 'Foot on foot.' });
    expect(result.systemPrompt).toBe(`Engine for ford.${RECIPE_EXTENSION_SEPARATOR}Head.\nFoot on foot.\nRules.`);
  });

  it('appends the profile append after a blank line when the template does not reference it', async () => {
    const result = await compose('Head.\n', 'Foot.');
    expect(result).toMatchObject({ placement: 'APPENDED', text: 'Head.\n\nFoot.' });
  });

  it('does not append a blank profile append', async () => {
    expect(await compose('Head.', '{% if missing %}x{% endif %}  ')).toMatchObject({ placement: 'NONE', text: 'Head.' });
  });

  it('keeps the profile append additive in OVERWRITE mode and without a promptPrefix', async () => {
    expect((await compose('Mine.', 'Foot.', 'OVERWRITE')).systemPrompt).toBe('Mine.\n\nFoot.');
    expect((await compose(null, 'Foot.')).systemPrompt).toBe(`Engine for ford.${RECIPE_EXTENSION_SEPARATOR}Foot.`);
  });
});
