import { describe, expect, it } from 'vitest';
import { dataKey } from './data-key';

describe('dataKey', () => {
  it('gives equal keys for equal plain data and different keys for different data or key order', () => {
    const a = { recipe: 'analyze', params: { steps: 6, tags: ['a', 'b'] }, flag: true, none: null };
    expect(dataKey(a)).toBe(dataKey(JSON.parse(JSON.stringify(a))));
    expect(dataKey({ x: 1, y: 2 })).not.toBe(dataKey({ y: 2, x: 1 }));
    expect(dataKey({ x: '1' })).not.toBe(dataKey({ x: 1 }));
    expect(dataKey(['a,b'])).not.toBe(dataKey(['a', 'b']));
    expect(dataKey(Object.assign(Object.create(null), { x: 1 }))).toBe(dataKey({ x: 1 }));
  });

  it('refuses what the template engine would copy differently: getters, Dates, Maps, undefined, NaN, holes, __proto__', () => {
    const getter = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true });
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    const holes = [1, , 3];
    for (const value of [getter, new Date(0), new Map(), { x: undefined }, { x: NaN }, holes, JSON.parse('{"__proto__": 1}'), () => 1, new (class A {})()]) {
      expect(dataKey({ value })).toBeNull();
    }
  });

  it('refuses data nested too deep or too large to be a useful key', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(dataKey(deep)).toBeNull();
    expect(dataKey({ big: 'x'.repeat(70_000) })).toBeNull();
  });
});
