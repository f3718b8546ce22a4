import { describe, expect, it } from 'vitest';
import type { TemplateEngine } from '../../templates/template-engine';
import { RenderedBodyCache } from './rendered-body-cache';

/** Renders a body as itself repeated `times` (from the data), counting renders per source. */
function engine(): TemplateEngine & { readonly renders: string[] } {
  const renders: string[] = [];
  return {
    renders,
    check: () => [],
    referencedVariables: () => new Set(),
    render: async (source, context) => {
      renders.push(source);
      return source.repeat(Number(context.times ?? 1));
    },
  };
}

describe('RenderedBodyCache', () => {
  it('keeps outputs by characters: the least recently used goes when the budget is full', async () => {
    const templates = engine();
    const cache = new RenderedBodyCache({ maxChars: 1_000 });
    const render = (body: string) => cache.render(templates, body.repeat(10), () => templates.render(body.repeat(10), { times: 22 }), 'k'); // 234 characters each
    for (const body of ['a', 'b', 'a', 'c', 'd']) await render(body);
    await render('e'); // five would pass 1,000: evicts b, the least recently used
    templates.renders.length = 0;
    for (const body of ['a', 'c', 'd', 'e', 'b']) await render(body);
    expect(templates.renders).toEqual(['b'.repeat(10)]);
  });

  it('does not keep one output larger than a quarter of the budget', async () => {
    const templates = engine();
    const cache = new RenderedBodyCache({ maxChars: 1_000 });
    await cache.render(templates, 'x'.repeat(20), () => templates.render('x'.repeat(20), { times: 13 }), 'k'); // 284 characters
    await cache.render(templates, 'x'.repeat(20), () => templates.render('x'.repeat(20), { times: 13 }), 'k');
    expect(cache.engineRenders).toBe(2);
  });
});
