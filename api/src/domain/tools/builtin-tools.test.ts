import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, builtinToolCatalog } from './builtin-tools';
import { expandSelectors } from './select';

describe('built-in tool catalog', () => {
  it('has unique names and lower-case labels', () => {
    const names = BUILTIN_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of BUILTIN_TOOLS) for (const label of tool.labels) expect(label).toBe(label.toLowerCase());
  });

  it('names the tools the seeds rely on', () => {
    const names = builtinToolCatalog().list().map((t) => t.name);
    for (const name of ['manual_list', 'manual_read', 'recipe_list', 'recipe_describe', 'process_spawn', 'skill_reference_doc',
      'workspace_read', 'workspace_write', 'workspace_list', 'workspace_delete', 'doc_write']) {
      expect(names).toContain(name);
    }
  });

  it('labels every destructive tool @write as well, so removing @write never leaves a wipe behind', () => {
    const destructive = expandSelectors(['@destructive'], BUILTIN_TOOLS).names;
    expect(destructive).toEqual(expect.arrayContaining(['doc_purge', 'workspace_delete']));
    expect(destructive.every((n) => expandSelectors(['@write'], BUILTIN_TOOLS).names.includes(n))).toBe(true);
  });

  // Issue 15: descriptions said "(seed 004 §6b)"; the model and the dashboard read them.
  it('describes its tools without citing the specification', () => {
    expect(BUILTIN_TOOLS.filter((t) => /seed \d|§/.test(t.description ?? '')).map((t) => t.name)).toEqual([]);
  });
});
