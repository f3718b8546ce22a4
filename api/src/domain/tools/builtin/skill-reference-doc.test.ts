import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture, skillRef } from './builtin-fixture';

async function setup() {
  const fx = await createBuiltinFixture();
  const registry = new ToolRegistry(fx.tools);
  return { fx, call: (name: string, args: unknown, ctx: Parameters<ToolRegistry['dispatch']>[3]) => registry.dispatch(name, args, 'ALL', ctx) };
}

describe('skill_reference_doc', () => {
  it('loads an ON_DEMAND reference of an active skill by title (also an INLINE one, case-insensitively)', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ activeSkills: [skillRef('code-review')] });
    expect(await call('skill_reference_doc', { skill: 'code-review', title: 'Checklist' }, ctx)).toEqual({ content: '# Checklist (skill code-review)\n\n1. Tests\n2. Names' });
    expect((await call('skill_reference_doc', { skill: 'code-review', title: 'style guide' }, ctx)).content).toContain('Short lines.');
  });

  it('reads the reference from the layer of the SKILL.md, never from another layer', async () => {
    const { fx, call } = await setup();
    // A project copy of the reference file next to a bundled SKILL.md is not picked up.
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/skills/code-review/references/checklist.md', 'hijacked');
    const ctx = await fx.ctx({ activeSkills: [skillRef('code-review')] });
    expect((await call('skill_reference_doc', { skill: 'code-review', title: 'Checklist' }, ctx)).content).toContain('1. Tests');
  });

  it('refuses a skill that is not active on the process, even if it exists', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ activeSkills: [skillRef('other')] });
    expect(await call('skill_reference_doc', { skill: 'code-review', title: 'Checklist' }, ctx)).toEqual({
      content: "Skill 'code-review' is not active on this process. Active skills: 'other'.", isError: true,
    });
  });

  it('refuses an unknown title listing the declared titles, and a declared reference whose file is missing', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ activeSkills: [skillRef('code-review')] });
    expect(await call('skill_reference_doc', { skill: 'code-review', title: 'Nope' }, ctx)).toEqual({
      content: "Skill 'code-review' has no reference document titled 'Nope'. Its reference documents: 'Checklist', 'Style guide', 'Ghost'.", isError: true,
    });
    const ghost = await call('skill_reference_doc', { skill: 'code-review', title: 'Ghost' }, ctx);
    expect(ghost.isError).toBe(true);
    expect(ghost.content).toContain("missing its file 'references/missing.md'");
  });

  it('refuses an active skill that is gone from the scope', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx({ activeSkills: [skillRef('vanished')] });
    expect((await call('skill_reference_doc', { skill: 'vanished', title: 'x' }, ctx)).content).toContain('not available');
  });
});
