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
    const client = { name: 'client_file_read', labels: ['client'] };
    const result = computeToolPool({ available: [...CATALOG, client], engineAllowed: ['respond'], add: ['doc_read', 'client_file_read'], remove: ['client_*'] });
    expect(result.allowed).toEqual(['doc_read', 'respond']);
  });

  // Issue 15: an unknown plain name was kept in allowed/primary (previews listed tools the model never got) and not reported.
  it('offers no tool for a name no tool carries and reports it unresolved with the reason', () => {
    const result = pool({ engineAllowed: ['respond'], add: ['shell_exec', '@browser'], skillTools: ['web_search'] });
    expect(result.allowed).toEqual(['respond']);
    expect(result.primary).toEqual(['respond']);
    expect(result.unresolved).toEqual(['shell_exec', '@browser', 'web_search']);
    expect(result.unresolvedTools).toEqual([
      { entry: 'shell_exec', field: 'allowedToolsAdd', reason: "no tool of this deployment is called 'shell_exec'; it resolves only when a connected client registers it" },
      { entry: '@browser', field: 'allowedToolsAdd', reason: 'label @browser matches no tool; it resolves only when a connected client registers a tool with that label' },
      { entry: 'web_search', field: 'tools', reason: "no tool of this deployment is called 'web_search'; it resolves only when a connected client registers it" },
    ]);
  });

  it('resolves such a name once a client tool of that name is available (seed 004 §6.2, per turn)', () => {
    const client = { name: 'shell_exec', labels: ['client', 'browser'] };
    const result = computeToolPool({ available: [...CATALOG, client], engineAllowed: ['respond'], add: ['shell_exec', '@browser'], remove: [] });
    expect(result.primary).toEqual(['respond', 'shell_exec']);
    expect(result.unresolvedTools).toEqual([]);
  });

  it('reports unmatched entries of the remove, defer, keep and dropFirst lists with their list', () => {
    const result = pool({ remove: ['client_*'], defer: ['@mcp'], keep: ['process_list'], dropFirst: ['web_fetch'] });
    expect(result.unresolvedTools.map((u) => [u.field, u.entry])).toEqual([
      ['allowedToolsRemove', 'client_*'], ['allowedToolsDefer', '@mcp'], ['allowedToolsKeep', 'process_list'],
    ]);
    expect(result.unresolvedTools[0]!.reason).toBe("no tool name starts with 'client_'; the pattern resolves only when a connected client registers such a tool");
  });

  it('keeps a tool registered deferred (a client pack) deferred unless an add names it (seed 004 §6.2)', () => {
    const pack = [{ name: 'chrome__open', labels: ['browser'], deferred: true }, { name: 'chrome__snap', labels: ['browser'], deferred: true }];
    const result = computeToolPool({ available: [...CATALOG, ...pack], engineAllowed: ['respond'], add: ['@browser', 'chrome__snap'], remove: [] });
    expect(result.allowed).toEqual(['chrome__open', 'chrome__snap', 'respond', 'tool_describe', 'tool_list']);
    expect(result.deferred).toEqual(['chrome__open']);
    expect(result.primary).toEqual(['chrome__snap', 'respond', 'tool_describe', 'tool_list']);
  });

  it('lists every allowed tool with its labels and placement', () => {
    const result = pool({ remove: ['@destructive'], defer: ['@side-effect'] });
    expect(result.details).toEqual([
      { name: 'doc_read', labels: ['read'], placement: 'PRIMARY' },
      { name: 'doc_write', labels: ['write'], placement: 'PRIMARY' },
      { name: 'exec_run', labels: ['executive', 'side-effect'], placement: 'DEFERRED' },
      { name: 'respond', labels: ['read'], placement: 'PRIMARY' },
      { name: 'tool_describe', labels: ['read', 'tools'], placement: 'PRIMARY' },
      { name: 'tool_list', labels: ['read', 'tools'], placement: 'PRIMARY' },
      { name: 'web_fetch', labels: ['read', 'side-effect'], placement: 'DEFERRED' },
    ]);
  });

  it('lets a skill bring back a tool the recipe removed — skills only ever add', () => {
    const result = pool({ remove: ['@side-effect'], skillTools: ['exec_run', 'lint_run'] });
    expect(result.allowed).toEqual(['doc_purge', 'doc_read', 'doc_write', 'exec_run', 'respond']);
    expect(result.removed).toEqual(['web_fetch']);
  });

  it('defers allowedToolsDefer matches unless an add names them exactly', () => {
    const result = pool({ add: ['exec_run'], defer: ['@side-effect', '@write'] });
    expect(result.deferred).toEqual(['doc_purge', 'doc_write', 'web_fetch']);
    // The deferred tools are reached through tool_list and tool_describe, which join the primary tools.
    expect(result.primary).toEqual(['doc_read', 'exec_run', 'respond', 'tool_describe', 'tool_list']);
  });
});

describe('tool budget (allowedToolsKeep / allowedToolsDropFirst under maxTools)', () => {
  it('defers dropFirst matches first, then the unranked from the end of the alphabet, and keeps keep matches', () => {
    // 5 places: tool_list and tool_describe take two of them once anything is deferred.
    const result = pool({ keep: ['web_*'], dropFirst: ['doc_*'], maxTools: 5 });
    expect(result.primary).toEqual(['exec_run', 'respond', 'tool_describe', 'tool_list', 'web_fetch']);
    expect(result.deferredByBudget).toEqual(['doc_write', 'doc_read', 'doc_purge']);
    expect(result.deferred).toEqual(['doc_purge', 'doc_read', 'doc_write']);
    expect(result.allowed).toHaveLength(8);
  });

  it('lets keep win where an entry matches both lists', () => {
    const result = pool({ keep: ['doc_read'], dropFirst: ['doc_*'], maxTools: 5 });
    expect(result.primary).toContain('doc_read');
    expect(result.deferredByBudget).toEqual(['doc_write', 'doc_purge', 'web_fetch']);
  });

  it('keeps two places of maxTools for tool_list and tool_describe once anything is deferred', () => {
    expect(pool({ maxTools: 6 }).primary).toHaveLength(6);
    expect(pool({ maxTools: 5 }).primary).toHaveLength(5);
    expect(pool({ maxTools: 5 }).primary).toEqual(expect.arrayContaining(['tool_list', 'tool_describe']));
    expect(pool({ defer: ['web_fetch'], maxTools: 5 }).primary).toHaveLength(5);
    expect(pool({}).primary).not.toContain('tool_list');
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
