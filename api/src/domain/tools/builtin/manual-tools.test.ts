import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture, skillRef } from './builtin-fixture';

async function setup() {
  const fx = await createBuiltinFixture();
  const registry = new ToolRegistry(fx.tools);
  return { fx, call: (name: string, args: unknown, ctx: Parameters<ToolRegistry['dispatch']>[3]) => registry.dispatch(name, args, 'ALL', ctx) };
}

describe('manual_list / manual_read', () => {
  it('lists the default _vance/manuals/ folder when neither the recipe nor a skill names paths', async () => {
    const { fx, call } = await setup();
    const result = await call('manual_list', {}, await fx.ctx());
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content)).toEqual({
      manuals: [
        { name: 'getting-started', folder: '_vance/manuals/', source: 'RESOURCE' },
        { name: 'shared', folder: '_vance/manuals/', source: 'RESOURCE' },
      ],
      count: 2,
    });
  });

  it('unions recipe paths first, then the active skills\' paths, first hit per name', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ engineParams: { manualPaths: ['_vance/manuals/'] }, activeSkills: [skillRef('code-review')] });
    const listed = JSON.parse((await call('manual_list', {}, ctx)).content) as { manuals: { name: string; folder: string }[] };
    expect(listed.manuals.map((m) => `${m.folder}${m.name}`)).toEqual(['_vance/manuals/getting-started', '_vance/manuals/shared', 'review/manuals/review-howto']);
    expect((await call('manual_read', { name: 'shared' }, ctx)).content).toContain('general shared');
    expect((await call('manual_read', { name: 'review-howto.md' }, ctx)).content).toContain('How to review');
  });

  it('uses only the skill paths when the recipe has none, so a skill-specific manual wins', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ activeSkills: [skillRef('code-review')] });
    const read = await call('manual_read', { name: 'shared' }, ctx);
    expect(read).toEqual({ content: expect.stringContaining('review-specific shared') });
  });

  it('prefers a project copy of a manual over the bundled one', async () => {
    const { fx, call } = await setup();
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/manuals/shared.md', 'project shared');
    expect((await call('manual_read', { name: 'shared' }, await fx.ctx())).content).toContain('project shared');
  });

  it('refuses an unknown manual and lists the available ones; refuses traversal names', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    const unknown = await call('manual_read', { name: 'nope' }, ctx);
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toBe(
      "No manual named 'nope' in '_vance/manuals/'. 2 available: 'getting-started', 'shared'. " +
      'Call manual_list for the full list with folders and layers, then manual_read one of those names.',
    );
    expect((await call('manual_read', { name: '../recipes/analyze' }, ctx)).isError).toBe(true);
    expect((await call('manual_read', {}, ctx)).content).toContain("missing required argument 'name'");
  });
});

describe('manual_read: the forms of a name, refusals, layer and size (issue 16)', () => {
  async function withEssay() {
    const { fx, call } = await setup();
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/manuals/essay/STYLE.md', 'Write short essays.');
    return { fx, call };
  }

  it('accepts the name, NAME.md, the path below a manual folder and the full document path, with / or \\', async () => {
    const { fx, call } = await withEssay();
    const ctx = await fx.ctx();
    for (const name of ['shared', 'shared.md', '_vance/manuals/shared.md', '_vance\\manuals\\shared.md', ' shared ']) {
      const read = await call('manual_read', { name }, ctx);
      expect(read.isError, name).toBeUndefined();
      expect(read.content, name).toContain('general shared');
    }
    for (const name of ['essay/STYLE.md', 'essay\\STYLE.md', 'essay/STYLE', '_vance/manuals/essay/STYLE.md', '_vance\\manuals\\essay\\STYLE.md', './essay/STYLE.md']) {
      const read = await call('manual_read', { name }, ctx);
      expect(read.isError, name).toBeUndefined();
      expect(read.content, name).toContain('Write short essays.');
    }
  });

  it('reads `essay/STYLE.md` when the folder itself is the essay folder', async () => {
    const { fx, call } = await withEssay();
    const ctx = await fx.ctx({ engineParams: { manualPaths: ['_vance/manuals/essay/'] } });
    for (const name of ['STYLE', 'essay/STYLE.md', 'manuals/essay/STYLE.md', '_vance/manuals/essay/STYLE.md']) {
      expect((await call('manual_read', { name }, ctx)).content, name).toContain('Write short essays.');
    }
  });

  it('never reads outside the manual folders, whatever the form', async () => {
    const { fx, call } = await setup();
    const read = await call('manual_read', { name: '_vance/recipes/analyze.yaml' }, await fx.ctx());
    expect(read.isError).toBe(true);
    expect(read.content).toMatch(/^No manual named '_vance\/recipes\/analyze\.yaml'/);
  });

  it('refuses .. segments, absolute paths and blank names as invalid arguments, saying why', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    const cases: [string, RegExp][] = [
      ['../recipes/analyze', /'\.\.' segments are not allowed/],
      ['..\\recipes\\analyze', /'\.\.' segments are not allowed/],
      ['_vance/manuals/../recipes/analyze.yaml', /'\.\.' segments are not allowed/],
      ['/_vance/manuals/shared.md', /absolute paths are not allowed/],
      ['\\_vance\\manuals\\shared.md', /absolute paths are not allowed/],
      ['C:\\manuals\\shared.md', /drive letters are not allowed/],
      ['   ', /the name is blank/],
      ['./', /the name is blank/],
    ];
    for (const [name, why] of cases) {
      const read = await call('manual_read', { name }, ctx);
      expect(read.isError, name).toBe(true);
      expect(read.content, name).toMatch(/^Invalid arguments for 'manual_read': /);
      expect(read.content, name).toMatch(why);
      expect(read.content, name).not.toMatch(/No manual named/);
    }
  });

  it('answers an unknown name with the available names, bounded, and points to manual_list', async () => {
    const { fx, call } = await setup();
    for (let i = 0; i < 25; i += 1) {
      await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', `_vance/manuals/m${String(i).padStart(2, '0')}.md`, `manual ${i}`);
    }
    const read = await call('manual_read', { name: 'nope' }, await fx.ctx());
    expect(read.isError).toBe(true);
    expect(read.content).toContain("No manual named 'nope'");
    expect(read.content).toContain('27 available');
    expect(read.content).toContain("'getting-started'");
    expect(read.content).toContain("'m00'");
    expect(read.content).not.toContain("'shared'");
    expect(read.content).toContain('and 7 more');
    expect(read.content).toContain('manual_list');
  });

  it('says which layer the manual came from and its size', async () => {
    const { fx, call } = await setup();
    const bundled = await call('manual_read', { name: 'shared' }, await fx.ctx());
    expect(bundled.content).toMatch(/^# Manual: shared\n/);
    expect(bundled.content).toContain('Path: _vance/manuals/shared.md');
    expect(bundled.content).toContain('Layer: RESOURCE');
    expect(bundled.content).toContain('Size: 14 bytes');
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/manuals/shared.md', 'projekt – geteilt');
    const project = await call('manual_read', { name: 'shared' }, await fx.ctx());
    expect(project.content).toContain('Layer: PROJECT');
    expect(project.content).toContain('Size: 19 bytes');
  });

  it('manualPaths: [] means no manuals, not the default folder; a skill\'s own paths still apply', async () => {
    const { fx, call } = await setup();
    const none = await fx.ctx({ engineParams: { manualPaths: [] } });
    expect(JSON.parse((await call('manual_list', {}, none)).content)).toEqual({ manuals: [], count: 0 });
    const read = await call('manual_read', { name: 'shared' }, none);
    expect(read.isError).toBe(true);
    expect(read.content).toMatch(/no manual folders/);
    const withSkill = await fx.ctx({ engineParams: { manualPaths: [] }, activeSkills: [skillRef('code-review')] });
    const listed = JSON.parse((await call('manual_list', {}, withSkill)).content) as { manuals: { name: string }[] };
    expect(listed.manuals.map((m) => m.name)).toEqual(['review-howto', 'shared']);
  });
});
