import { afterAll, describe, expect, it } from 'vitest';
import { TemplateRenderError } from '../domain/templates/errors';
import { NunjucksTemplateEngine } from './nunjucks-template-engine';
import { NO_TIME_CAP, SANDBOXES } from './testing';

describe.each(SANDBOXES)('engine.context: one context for a turn\'s renders (%s)', (sandbox) => {
  const engine = new NunjucksTemplateEngine({ sandbox, limits: NO_TIME_CAP });
  afterAll(() => engine.dispose());

  it('renders with the context plus each render\'s own extra values, which replace the context\'s', async () => {
    const rendering = engine.context({ tier: 'small', profileAppend: 'from the context', params: { n: 1 } });
    await expect(rendering.render('{{ tier }}|{{ profileAppend }}|{{ params.n }}')).resolves.toBe('small|from the context|1');
    await expect(rendering.render('{{ tier }}|{{ profileAppend }}', { profileAppend: '' })).resolves.toBe('small|');
    await expect(rendering.render('{{ tier }}|{{ profileAppend }}', { profileAppend: 'P' })).resolves.toBe('small|P');
    // One render's extra values are its own: the next render without them reads the context.
    await expect(rendering.render('{{ profileAppend }}|{{ args.x }}')).resolves.toBe('from the context|');
    await expect(rendering.render('{{ args.x }}', { args: { x: 'a' } })).resolves.toBe('a');
    await expect(rendering.render('{{ args.x }}', { args: { x: 'b' } })).resolves.toBe('b');
    await expect(rendering.render('{{ args.x }}|{{ tier }}')).resolves.toBe('|small');
  });

  it('copies the context when it is made: later changes to the object passed in are not seen', async () => {
    const values = { name: 'before', list: ['a'] };
    const rendering = engine.context(values);
    values.name = 'after';
    values.list.push('b');
    await expect(rendering.render('{{ name }} {{ list | join(",") }}')).resolves.toBe('before a');
  });

  it('never shows one context\'s data to another context\'s renders, also when they alternate', async () => {
    const tenantA = engine.context({ secret: 'A-only', n: 1 });
    const tenantB = engine.context({ n: 2 });
    for (let i = 0; i < 3; i++) {
      await expect(tenantA.render('{{ secret }}|{{ n }}')).resolves.toBe('A-only|1');
      await expect(tenantB.render('{{ secret }}|{{ n }}')).resolves.toBe('|2');
      await expect(tenantB.render('{{ secret }}|{{ n }}', { n: 3 })).resolves.toBe('|3');
    }
  });

  it('reuses the copy of an equal context, and never for one that differs in a nested value', async () => {
    await expect(engine.context({ p: { q: [1, 2] }, s: 'x' }).render('{{ p.q | join }}{{ s }}')).resolves.toBe('12x');
    await expect(engine.context({ p: { q: [1, 2] }, s: 'x' }).render('{{ p.q | join }}{{ s }}')).resolves.toBe('12x');
    await expect(engine.context({ p: { q: [1, 3] }, s: 'x' }).render('{{ p.q | join }}{{ s }}')).resolves.toBe('13x');
    await expect(engine.context({ s: 'x', p: { q: [1, 3] } }).render('{% for k, v in p %}{{ k }}{% endfor %}{{ s }}')).resolves.toBe('qx');
  });

  it('reuses the copies of the last two contexts made (a turn makes two), and copies any other', async () => {
    const fresh = new NunjucksTemplateEngine({ sandbox, limits: NO_TIME_CAP });
    try {
      const prompt = { tier: 'small', params: { n: 1 } };
      const skills = { ...prompt, profileAppend: 'P' };
      for (let turn = 0; turn < 3; turn++) {
        await expect(fresh.context({ ...prompt, params: { n: 1 } }).render('{{ tier }}{{ params.n }}{{ profileAppend }}')).resolves.toBe('small1');
        await expect(fresh.context({ ...skills }).render('{{ tier }}{{ params.n }}{{ profileAppend }}')).resolves.toBe('small1P');
      }
      expect(fresh.contextCopies).toBe(2);
      await expect(fresh.context({ ...prompt, params: { n: 2 } }).render('{{ params.n }}')).resolves.toBe('2');
      expect(fresh.contextCopies).toBe(3);
    } finally {
      fresh.dispose();
    }
  });

  it('keeps nothing a render sets, and a failed render passes nothing on', async () => {
    const rendering = engine.context({ n: 1, o: { k: 'v' } });
    await expect(rendering.render('{% set n = 99 %}{% set o = "x" %}{{ n }}{{ o }}')).resolves.toBe('99x');
    await expect(rendering.render('{{ n }}{{ range.constructor("return 1")() }}')).rejects.toMatchObject({ reason: 'FORBIDDEN' });
    await expect(rendering.render('{{ n }}{{ o.k }}')).resolves.toBe('1v');
  });

  it('fails every render of a context the copy refuses, as render() does', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const rendering = engine.context({ cyclic });
    for (let i = 0; i < 2; i++) {
      const error = await rendering.render('{{ 1 }}').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemplateRenderError);
      expect(error).toMatchObject({ reason: 'RUNTIME', message: 'the render context is circular' });
    }
  });

  it('counts extra values against the context caps', async () => {
    const capped = new NunjucksTemplateEngine({ sandbox, limits: { ...NO_TIME_CAP, maxContextChars: 10 } });
    try {
      const rendering = capped.context({ s: 'abcdef' });
      await expect(rendering.render('{{ s }}{{ t }}', { t: 'ab' })).resolves.toBe('abcdefab');
      await expect(rendering.render('{{ s }}{{ t }}', { t: 'abcde' })).rejects.toMatchObject({ reason: 'RUNTIME', message: /more than 10 characters/ });
    } finally {
      capped.dispose();
    }
  });
});
