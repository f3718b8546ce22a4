/**
 * The dashboard's recipe whitelist model (admin/src/recipes/whitelist.ts): seed 004 §6c read exactly
 * as the server parses it (parseRecipe is the reference here) and written back in place, comments intact.
 */
import { describe, expect, it } from 'vitest';
import { parseRecipe } from '../../api/src/domain/recipes/parse-recipe';
import { normalize, readWhitelist, setMode, toggleAllowed, writeWhitelist, type Whitelist } from '../../admin/src/recipes/whitelist';

const RECIPE = ['# analyze — keep this comment', 'description: d', 'engine: ford', '# who may be active', 'allowedSkills:', '  - code-guard # the guard', '  - typescript-style', 'defaultActiveSkills:', '  - code-guard', ''].join('\n');
const server = (content: string) => {
  const { recipe, diagnostics } = parseRecipe({ name: 'analyze', path: '_vance/recipes/analyze.yaml', content });
  return { allowed: recipe?.allowedSkills ?? null, defaults: recipe?.defaultActiveSkills ?? [], errors: diagnostics.filter((d) => d.severity === 'ERROR').length };
};
/** What the editor's reading means, in the server's terms. */
const meaning = (w: Whitelist) => ({ allowed: w.mode === 'none' ? null : w.allowed, defaults: w.defaults });
const head = 'description: d\nengine: ford\n';

describe('recipe whitelist editing', () => {
  it.each([
    ['absent', head],
    ['null', `${head}allowedSkills:\n`],
    ['~', `${head}allowedSkills: ~ # open\n`],
    ['a scalar: one allowed skill', `${head}allowedSkills: code-review\ndefaultActiveSkills: code-review\n`],
    ['a list', RECIPE],
    ['a flow list with blanks and a duplicate', `${head}allowedSkills: [ a ,b, a]\n`],
    ['a number as a name', `${head}allowedSkills: [123, b]\n`],
    ['lockdown', `${head}allowedSkills: []\n`],
    ['a merge key', `${head}_base: &base\n  allowedSkills: [a]\n<<: *base\n`],
  ])('reads %s as the server does', (_, content) => {
    const reading = readWhitelist(content);
    expect(meaning(reading.whitelist)).toEqual({ allowed: server(content).allowed, defaults: server(content).defaults });
  });

  it('reads a scalar as one allowed skill, not as lockdown, and leaves it as written when nothing changes', () => {
    const content = `${head}allowedSkills: code-review # only this one\n`;
    const { whitelist, readOnly } = readWhitelist(content);
    expect(whitelist).toEqual({ mode: 'list', allowed: ['code-review'], defaults: [] });
    expect(readOnly).toBeNull();
    expect(writeWhitelist(content, whitelist)).toBe(content);
    const added = writeWhitelist(content, toggleAllowed(whitelist, 'code-guard', true));
    expect(server(added).allowed).toEqual(['code-review', 'code-guard']);
    expect(added).toContain('# only this one');
  });

  it('restricts an explicit null in place, keeping its comment; reads a scalar defaultActiveSkills as one default', () => {
    const content = `${head}allowedSkills: ~ # open for now\ndefaultActiveSkills: code-guard\n`;
    const { whitelist } = readWhitelist(content);
    expect(whitelist).toEqual({ mode: 'none', allowed: [], defaults: ['code-guard'] });
    const restricted = writeWhitelist(content, setMode(whitelist, 'list'));
    expect(server(restricted)).toEqual({ allowed: ['code-guard'], defaults: ['code-guard'], errors: 0 });
    expect(restricted).toContain('# open for now');
    expect(restricted).toContain('defaultActiveSkills: code-guard\n');
  });

  it('is read-only where a write could not keep the meaning: alias, anchor, merge key, refused entries, broken YAML', () => {
    const cases = [
      `${head}_s: &s [a]\nallowedSkills: *s\n`,
      `${head}allowedSkills: &s [a]\ntags: *s\n`,
      `${head}_base: &base\n  allowedSkills: [a]\n<<: *base\n`,
      `${head}allowedSkills: [a, {b: 1}]\n`,
      `${head}allowedSkills: ""\n`,
      `${head}allowedSkills: [a\n`,
    ];
    for (const content of cases) {
      const reading = readWhitelist(content);
      expect(reading.readOnly, content).toMatch(/alias|anchor|merge key|refuses|does not parse/);
      expect(() => writeWhitelist(content, setMode(reading.whitelist, 'lockdown')), content).toThrow();
    }
  });

  it('keeps defaultActiveSkills ⊆ allowedSkills while editing, and empty under lockdown', () => {
    const w = readWhitelist(RECIPE).whitelist;
    expect(toggleAllowed(w, 'code-guard', false)).toEqual({ mode: 'list', allowed: ['typescript-style'], defaults: [] });
    expect(setMode(w, 'lockdown')).toEqual({ mode: 'lockdown', allowed: [], defaults: [] });
    expect(normalize({ mode: 'list', allowed: ['a'], defaults: ['a', 'b'] }).defaults).toEqual(['a']);
  });

  it('says so when a save would drop defaults the server refuses', () => {
    const content = `${head}allowedSkills: [a]\ndefaultActiveSkills: [a, b]\n`;
    expect(server(content).errors).toBe(1);
    const reading = readWhitelist(content);
    expect(reading.notes).toEqual([expect.stringContaining('drops it')]);
    const saved = writeWhitelist(content, reading.whitelist);
    expect(server(saved)).toEqual({ allowed: ['a'], defaults: ['a'], errors: 0 });
  });

  it('writes lockdown, a list and no restriction back in place with every comment intact', () => {
    const locked = writeWhitelist(RECIPE, { mode: 'lockdown', allowed: [], defaults: [] });
    expect(server(locked)).toEqual({ allowed: [], defaults: [], errors: 0 });
    expect(locked).toContain('allowedSkills: []');
    expect(locked).not.toContain('defaultActiveSkills');
    expect(locked).toContain('# analyze — keep this comment');
    expect(locked).toContain('# who may be active');

    const trimmed = writeWhitelist(RECIPE, toggleAllowed(readWhitelist(RECIPE).whitelist, 'typescript-style', false));
    expect(server(trimmed)).toEqual({ allowed: ['code-guard'], defaults: ['code-guard'], errors: 0 });
    expect(trimmed).toContain('  - code-guard # the guard');

    const open = writeWhitelist(locked, { mode: 'none', allowed: [], defaults: [] });
    expect(server(open)).toEqual({ allowed: null, defaults: [], errors: 0 });
    expect(open).not.toContain('allowedSkills');
    expect(open).toContain('# analyze — keep this comment');
    expect(open).toContain('# who may be active');
    const listed = writeWhitelist(open, { mode: 'list', allowed: ['code-guard'], defaults: ['code-guard'] });
    expect(server(listed)).toEqual({ allowed: ['code-guard'], defaults: ['code-guard'], errors: 0 });
    expect(readWhitelist(listed).whitelist).toEqual({ mode: 'list', allowed: ['code-guard'], defaults: ['code-guard'] });
  });
});
