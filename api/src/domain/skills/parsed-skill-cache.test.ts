import { describe, expect, it } from 'vitest';
import type { LayerDocument } from '../cascade/document';
import { ParsedSkillCache } from './parsed-skill-cache';
import { parseSkill } from './parse-skill';

const doc = (path: string, content: string, version = 1): LayerDocument => ({ layer: 'PROJECT', projectId: 'p1', path, content, version, updatedAt: null, updatedBy: null });
const parsed = (d: LayerDocument) => parseSkill({ name: 'x', path: d.path, content: d.content });

describe('ParsedSkillCache', () => {
  it('answers the same document version with the same parse, and misses on other content', () => {
    const cache = new ParsedSkillCache();
    const d = doc('_vance/skills/x/SKILL.md', 'a');
    const p = parsed(d);
    cache.set('t1', d, p);
    expect(cache.get('t1', d)).toBe(p);
    expect(cache.get('t1', { ...d, content: 'b' })).toBeUndefined();
    expect(cache.get('t2', d)).toBeUndefined();
    expect(cache.get('t1', { ...d, version: 2 })).toBeUndefined();
  });

  it('drops the least recently used parse when the SKILL.md characters pass maxChars', () => {
    const cache = new ParsedSkillCache(100, 300);
    const docs = ['a', 'b', 'c'].map((n) => doc(`_vance/skills/${n}/SKILL.md`, n.repeat(80)));
    for (const d of docs.slice(0, 2)) cache.set('t1', d, parsed(d));
    cache.get('t1', docs[0]!);
    cache.set('t1', docs[2]!, parsed(docs[2]!)); // three entries of ~110 characters: evicts b
    expect(cache.size).toBe(2);
    expect(cache.get('t1', docs[1]!)).toBeUndefined();
    expect(cache.get('t1', docs[0]!)).toBeDefined();
  });
});
