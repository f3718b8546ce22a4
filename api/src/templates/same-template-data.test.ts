import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATE_LIMITS } from './limits';
import { isSameTemplateData } from './same-template-data';
import { toTemplateData } from './template-data';

const copy = (context: Record<string, unknown>) => toTemplateData(context, DEFAULT_TEMPLATE_LIMITS);

describe('isSameTemplateData: whether a context copies to a copy made before', () => {
  const context = { s: 'x', n: 1.5, b: false, z: null, list: [1, 'a', [true]], map: { k: { deep: 'v' } } };

  it('is true for equal plain data, in the same key order', () => {
    expect(isSameTemplateData(structuredClone(context), copy(context))).toBe(true);
  });

  it('is false for any difference: a value, a nested value, a key, the key order, an array length', () => {
    const made = copy(context);
    expect(isSameTemplateData({ ...context, s: 'y' }, made)).toBe(false);
    expect(isSameTemplateData({ ...context, map: { k: { deep: 'w' } } }, made)).toBe(false);
    expect(isSameTemplateData({ ...context, extra: 1 }, made)).toBe(false);
    const { s, ...rest } = context;
    expect(isSameTemplateData({ ...rest, s }, made)).toBe(false);
    expect(isSameTemplateData({ ...context, list: [1, 'a'] }, made)).toBe(false);
    expect(isSameTemplateData({ ...context, n: '1.5' }, made)).toBe(false);
  });

  it('is false, without running anything, for what the copy converts or drops: getters, proxies, instances, dates, functions', () => {
    let ran = false;
    const getter = Object.defineProperty({}, 'v', { enumerable: true, get: () => { ran = true; return 1; } });
    expect(isSameTemplateData({ o: getter }, copy({ o: { v: 1 } }))).toBe(false);
    const proxy = new Proxy({ v: 1 }, { ownKeys: () => { ran = true; return ['v']; }, getPrototypeOf: () => { ran = true; return Object.prototype; } });
    expect(isSameTemplateData({ o: proxy }, copy({ o: { v: 1 } }))).toBe(false);
    expect(isSameTemplateData(proxy, copy({ v: 1 }))).toBe(false);
    expect(ran).toBe(false);
    class Thing { v = 1; }
    expect(isSameTemplateData({ o: new Thing() }, copy({ o: { v: 1 } }))).toBe(false);
    const when = new Date('2024-05-06T07:08:09.000Z');
    expect(isSameTemplateData({ when }, copy({ when }))).toBe(false);
    expect(isSameTemplateData({ f: () => 1 }, copy({ f: () => 1 }))).toBe(false);
    expect(isSameTemplateData({ n: Number.NaN }, copy({ n: Number.NaN }))).toBe(false);
  });

  it('is false for a circular context (its copy was refused, so a copy made before is never it)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(isSameTemplateData(cyclic, copy({ a: 1, self: { a: 1, self: {} } }))).toBe(false);
  });
});
