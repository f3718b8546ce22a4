/** The dashboard's recipe whitelist model (admin/src/recipes/whitelist.ts): seed 004 §6c, written back with comments intact. */
import { describe, expect, it } from 'vitest';
import { normalize, readWhitelist, setMode, toggleAllowed, writeWhitelist } from '../../admin/src/recipes/whitelist';

const RECIPE = ['# analyze — keep this comment', 'engine: ford', '# who may be active', 'allowedSkills:', '  - code-guard', '  - typescript-style', 'defaultActiveSkills:', '  - code-guard', ''].join('\n');

describe('recipe whitelist editing', () => {
  it('reads the three modes: absent, a list, and lockdown []', () => {
    expect(readWhitelist('engine: ford\n')).toEqual({ mode: 'none', allowed: [], defaults: [] });
    expect(readWhitelist(RECIPE)).toEqual({ mode: 'list', allowed: ['code-guard', 'typescript-style'], defaults: ['code-guard'] });
    expect(readWhitelist('engine: ford\nallowedSkills: []\n').mode).toBe('lockdown');
  });

  it('keeps defaultActiveSkills ⊆ allowedSkills while editing, and empty under lockdown', () => {
    const w = readWhitelist(RECIPE);
    expect(toggleAllowed(w, 'code-guard', false)).toEqual({ mode: 'list', allowed: ['typescript-style'], defaults: [] });
    expect(setMode(w, 'lockdown')).toEqual({ mode: 'lockdown', allowed: [], defaults: [] });
    expect(normalize({ mode: 'list', allowed: ['a'], defaults: ['a', 'b'] }).defaults).toEqual(['a']);
  });

  it('writes lockdown, a list and no restriction back with the comments intact', () => {
    const locked = writeWhitelist(RECIPE, { mode: 'lockdown', allowed: [], defaults: [] });
    expect(locked).toContain('allowedSkills: []');
    expect(locked).not.toContain('defaultActiveSkills');
    expect(locked).toContain('# analyze — keep this comment');
    expect(locked).toContain('# who may be active');
    const open = writeWhitelist(locked, { mode: 'none', allowed: [], defaults: [] });
    expect(open).not.toContain('allowedSkills');
    expect(open).toContain('# analyze — keep this comment');
    const listed = writeWhitelist(open, { mode: 'list', allowed: ['code-guard'], defaults: ['code-guard'] });
    expect(readWhitelist(listed)).toEqual({ mode: 'list', allowed: ['code-guard'], defaults: ['code-guard'] });
  });
});
