import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATE_LIMITS } from './limits';
import { toTemplateData } from './template-data';

const copy = (context: Record<string, unknown>, caps = DEFAULT_TEMPLATE_LIMITS) => toTemplateData(context, caps);

describe('toTemplateData: the render context as detached data (DESIGN §6)', () => {
  it('keeps JSON-like values as they are', () => {
    expect(copy({ s: 'x', n: 1.5, b: false, z: null, list: [1, 'a', [true]], map: { k: { deep: 'v' } } }))
      .toEqual({ s: 'x', n: 1.5, b: false, z: null, list: [1, 'a', [true]], map: { k: { deep: 'v' } } });
  });

  it('converts dates, bigints, maps and sets, and drops what is not data', () => {
    const out = copy({
      when: new Date('2024-05-06T07:08:09.000Z'), big: 12n, m: new Map<unknown, unknown>([['a', 1], [2, 'skipped']]), set: new Set(['x']),
      f: () => 1, sym: Symbol('s'), u: undefined, nan: Number.NaN, bytes: new Uint8Array(3), list: [undefined, () => 1],
    });
    expect(out).toEqual({ when: '2024-05-06T07:08:09.000Z', big: '12', m: { a: 1 }, set: ['x'], list: [null, null] });
  });

  it('copies own data properties only: no getter runs, nothing inherited, no __proto__ key', () => {
    let ran = false;
    class Thing { own = 'o'; get computed() { ran = true; return 'c'; } }
    const withGetter = Object.defineProperty({ plain: 1 }, 'lazy', { enumerable: true, get: () => { ran = true; return 2; } });
    const out = copy({ thing: new Thing(), withGetter, inherited: Object.create({ parent: 1 }), tricky: JSON.parse('{"__proto__": {"x": 1}, "ok": 1}') });
    expect(out).toEqual({ thing: { own: 'o' }, withGetter: { plain: 1 }, inherited: {}, tricky: { ok: 1 } });
    expect(ran).toBe(false);
  });

  it('never touches a proxy', () => {
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('trap ran'); } });
    expect(copy({ proxy, ok: 1 })).toEqual({ ok: 1 });
  });

  it('copies shared (non-circular) references, and refuses cycles', () => {
    const shared = { v: 1 };
    expect(copy({ a: shared, b: [shared, shared] })).toEqual({ a: { v: 1 }, b: [{ v: 1 }, { v: 1 }] });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = [cyclic];
    expect(() => copy({ cyclic })).toThrow(expect.objectContaining({ reason: 'RUNTIME', message: 'the render context is circular' }));
  });

  it('refuses more depth, values or characters than the caps allow', () => {
    const caps = { ...DEFAULT_TEMPLATE_LIMITS, maxContextDepth: 3, maxContextNodes: 10, maxContextChars: 5 };
    expect(copy({ a: { b: { c: { d: 1 } } } }, caps)).toEqual({ a: { b: { c: { d: 1 } } } });
    expect(() => copy({ a: { b: { c: { d: { e: 1 } } } } }, caps)).toThrow(/nested deeper than 3/);
    expect(() => copy({ list: Array.from({ length: 20 }, () => 1) }, caps)).toThrow(/more than 10 values/);
    expect(() => copy({ s: 'abcdef' }, caps)).toThrow(/more than 5 characters/);
  });
});
