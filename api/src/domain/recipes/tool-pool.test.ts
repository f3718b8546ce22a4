import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { applyToolBudget } from './tool-budget';
import { computeToolPool, type ToolPoolInput } from './tool-pool';

const CATALOG: ToolDescriptor[] = [
  { name: 'respond', labels: ['read'] },
  { name: 'doc_read', labels: ['read'] },
  { name: 'doc_write', labels: ['write'] },
  { name: 'doc_purge', labels: ['write', 'destructive'] },
  { name: 'exec_run', labels: ['executive', 'side-effect'] },
  { name: 'web_fetch', labels: ['read', 'side-effect'] },
];
const pool = (input: Partial<ToolPoolInput>) => computeToolPool({ available: CATALOG, engineAllowed: [], add: [], remove: [], ...input });

describe('computeToolPool (seed 004 §6, §6a, §6.2; seed 000 §5b)', () => {
  it('adds to and removes from a restricted engine base', () => {
    const result = pool({ engineAllowed: ['respond', 'doc_read'], add: ['doc_write', 'web_fetch'], remove: ['web_fetch'] });
    expect(result).toMatchObject({ unrestricted: false, allowed: ['doc_read', 'doc_write', 'respond'], removed: ['web_fetch'] });
  });

  it('treats an empty engine base as unrestricted, where add changes nothing', () => {
    const result = pool({ add: ['doc_write'] });
    expect(result.unrestricted).toBe(true);
    expect(result.allowed).toEqual(CATALOG.map((t) => t.name).sort());
  });

  it('turns removal from an empty base into "all minus removed"', () => {
    const result = pool({ remove: ['exec_run'] });
    expect(result.unrestricted).toBe(false);
    expect(result.allowed).toEqual(['doc_purge', 'doc_read', 'doc_write', 'respond', 'web_fetch']);
  });

  it('resolves @label selectors and prefix patterns on both sides', () => {
    const result = pool({ engineAllowed: ['@read'], add: ['doc_*'], remove: ['@destructive'] });
    expect(result.allowed).toEqual(['doc_read', 'doc_write', 'respond', 'web_fetch']);
    expect(result.removed).toEqual(['doc_purge']);
  });

  it('applies the profile lists together with the recipe lists (the resolver concatenates them)', () => {
    const result = pool({ engineAllowed: ['respond'], add: ['doc_read', 'client_file_read'], remove: ['client_*'] });
    expect(result.allowed).toEqual(['doc_read', 'respond']);
  });

  it('keeps an added name outside the catalog (a client tool) and reports unresolved selectors', () => {
    const result = pool({ engineAllowed: ['respond'], add: ['chrome__navigate', '@browser'] });
    expect(result.allowed).toEqual(['chrome__navigate', 'respond']);
    expect(result.unresolved).toEqual(['chrome__navigate', '@browser']);
  });

  it('lets a skill bring back a tool the recipe removed — skills only ever add', () => {
    const result = pool({ remove: ['@side-effect'], skillTools: ['exec_run', 'lint_run'] });
    expect(result.allowed).toEqual(['doc_purge', 'doc_read', 'doc_write', 'exec_run', 'lint_run', 'respond']);
    expect(result.removed).toEqual(['web_fetch']);
  });

  it('defers allowedToolsDefer matches unless an add names them exactly', () => {
    const result = pool({ add: ['exec_run'], defer: ['@side-effect', '@write'] });
    expect(result.deferred).toEqual(['doc_purge', 'doc_write', 'web_fetch']);
    expect(result.primary).toEqual(['doc_read', 'exec_run', 'respond']);
  });
});

describe('tool budget (allowedToolsKeep / allowedToolsDropFirst under maxTools)', () => {
  it('defers dropFirst matches first, then the unranked from the end of the alphabet, and keeps keep matches', () => {
    const result = pool({ keep: ['web_*'], dropFirst: ['doc_*'], maxTools: 3 });
    expect(result.primary).toEqual(['exec_run', 'respond', 'web_fetch']);
    expect(result.deferredByBudget).toEqual(['doc_write', 'doc_read', 'doc_purge']);
    expect(result.deferred).toEqual(['doc_purge', 'doc_read', 'doc_write']);
    expect(result.allowed).toHaveLength(6);
  });

  it('lets keep win where an entry matches both lists', () => {
    const result = pool({ keep: ['doc_read'], dropFirst: ['doc_*'], maxTools: 4 });
    expect(result.primary).toContain('doc_read');
    expect(result.deferredByBudget).toEqual(['doc_write', 'doc_purge']);
  });

  it('does nothing without maxTools or within budget', () => {
    expect(pool({ dropFirst: ['doc_*'] }).deferred).toEqual([]);
    expect(pool({ dropFirst: ['doc_*'], maxTools: 6 }).deferred).toEqual([]);
  });

  it('reports keep matches that do not fit either', () => {
    const result = applyToolBudget({ tools: CATALOG, keep: ['@read'], dropFirst: [], maxTools: 2 });
    expect(result.primary).toEqual(['doc_read', 'respond']);
    expect(result.keepOverflow).toEqual(['web_fetch']);
  });
});
