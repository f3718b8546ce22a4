import { describe, expect, it } from 'vitest';
import { computeToolPool, type ToolPoolInput } from '../../recipes/tool-pool';
import { ToolPoolCache } from './tool-pool-cache';

const input = (available = [{ name: 'respond', labels: ['read'] }, { name: 'doc_write', labels: ['write'] }]): ToolPoolInput => ({
  available, engineAllowed: ['@read'], add: [], remove: [], skillTools: ['doc_write'],
});

describe('ToolPoolCache', () => {
  it('gives what computeToolPool gives, once per distinct input, also for a catalog merged afresh each turn', () => {
    const cache = new ToolPoolCache();
    const first = cache.poolFor(input());
    expect(first).toEqual(computeToolPool(input()));
    expect(cache.poolFor(input())).toBe(first);
    expect(cache.poolFor({ ...input(), skillTools: [] }).allowed).toEqual(['respond']);
  });

  it('tells catalogs apart by names and labels', () => {
    const cache = new ToolPoolCache();
    const a = cache.poolFor(input());
    const b = cache.poolFor(input([{ name: 'respond', labels: ['read'] }, { name: 'doc_write', labels: ['read'] }]));
    expect(b).not.toBe(a);
    expect(b.allowed).toEqual(['doc_write', 'respond']);
  });
});
