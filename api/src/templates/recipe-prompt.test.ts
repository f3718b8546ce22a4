import { afterAll, describe, expect, it } from 'vitest';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { NO_TIME_CAP, SANDBOXES } from './testing';

/** A recipe `promptPrefix` in the style of the bundled ones, using the render context of seed 004 §5.1. */
const PROMPT = `You are {{ recipe }}, a Vance worker on the {{ engine }} engine ({{ provider }}/{{ model }}).
{% if tier == "small" %}
Work in small steps: one action, one tool call, then report.
{% elseif mode == "PLANNING" %}
Plan first: at most {{ params.maxSteps }} numbered steps, then wait for approval.
{% else %}
Gather concrete data with your tools before answering; paste what matters.
{% endif %}
{%- if model is matching("(?i)^claude-") %}
Use extended reasoning sparingly.
{%- endif %}
{% if params.focus is not empty %}Focus areas: {{ params.focus | join(", ") }}.{% endif %}
Tags: [{{ params.tags | join(", ") }}]
Answer in {{ lang | default("the user's language", true) }}.
{% if profileAppend is not empty %}
{{ profileAppend }}
{% endif %}
## Hard rules
- At most {{ params.maxIterations }} iterations.
- Profile: {{ profile }}; memory key: {{ recipe ~ "-" ~ profile | slug }}.
notes: |
  {{ params.notes | yamlIndent }}`;

const CONTEXT = {
  tier: 'large',
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  mode: 'NORMAL',
  profile: 'web',
  recipe: 'web-research',
  engine: 'ford',
  lang: '',
  params: { maxIterations: 12, maxSteps: 5, focus: ['sources', 'dates'], notes: 'first line\nsecond line' },
  profileAppend: '## Client context — web browser\nNo local files here.',
};

describe.each(SANDBOXES)('a realistic recipe prompt with the seed 004 §5.1 context (%s)', (sandbox) => {
  // Load: the clock is lifted, so rendering the prompt cannot miss the 50 ms / 100 ms defaults on a busy machine.
  const engine = new NunjucksTemplateEngine({ sandbox, limits: NO_TIME_CAP });
  afterAll(() => engine.dispose());

  it('compiles, and places profileAppend itself', () => {
    expect(engine.check(PROMPT)).toEqual([]);
    expect(engine.referencedVariables(PROMPT)).toEqual(new Set(['recipe', 'engine', 'provider', 'model', 'tier', 'mode', 'params', 'lang', 'profileAppend', 'profile']));
  });

  // Whitespace is nunjucks': `{%- … %}` eats the line break before the tag, nothing eats the one after.
  it('renders the large-tier variant', async () => {
    await expect(engine.render(PROMPT, CONTEXT)).resolves.toBe(`You are web-research, a Vance worker on the ford engine (anthropic/claude-sonnet-4-6).

Gather concrete data with your tools before answering; paste what matters.

Use extended reasoning sparingly.
Focus areas: sources, dates.
Tags: []
Answer in the user's language.

## Client context — web browser
No local files here.

## Hard rules
- At most 12 iterations.
- Profile: web; memory key: web-research-web.
notes: |
  first line
  second line`);
  });

  it('renders the small-tier variant of another model without the optional parts', async () => {
    const small = { ...CONTEXT, tier: 'small', model: 'gemini-2.5-flash', provider: 'google', lang: 'de', profileAppend: '', params: { maxIterations: 4 } };
    await expect(engine.render(PROMPT, small)).resolves.toBe(`You are web-research, a Vance worker on the ford engine (google/gemini-2.5-flash).

Work in small steps: one action, one tool call, then report.


Tags: []
Answer in de.

## Hard rules
- At most 4 iterations.
- Profile: web; memory key: web-research-web.
notes: |
  `);
  });

  it('renders the planning variant', async () => {
    await expect(engine.render(PROMPT, { ...CONTEXT, mode: 'PLANNING' })).resolves.toContain('\nPlan first: at most 5 numbered steps, then wait for approval.\n');
  });
});
