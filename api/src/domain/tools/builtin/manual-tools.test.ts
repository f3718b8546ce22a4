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
    expect(unknown.content).toBe("No manual named 'nope'. Available manuals: 'getting-started', 'shared'.");
    expect((await call('manual_read', { name: '../recipes/analyze' }, ctx)).isError).toBe(true);
    expect((await call('manual_read', {}, ctx)).content).toContain("missing required argument 'name'");
  });
});
