import { describe, expect, it } from 'vitest';
import type { CascadeScope } from '../../cascade/scope';
import type { AvailableSkill } from '../../skills/skill-resolver';
import { deferred } from '../../testing/deferred';
import { SkillSetCache, type AvailableSkillLister } from './skill-set-cache';
import { available, keywords, triggers } from './testing';
import { createTriggerHook } from './trigger-hook';
import { TriggerIndexCache } from './trigger-index-cache';

const scope: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const other: CascadeScope = { ...scope, projectId: 'proj-q' };

/** A lister that counts calls and answers with whatever `skills` holds at call time. */
function lister(initial: AvailableSkill[]) {
  const state = { skills: initial, calls: 0, gate: null as Promise<void> | null };
  const port: AvailableSkillLister = {
    async listAvailable() {
      state.calls++;
      const answer = [...state.skills];
      if (state.gate) await state.gate;
      return answer;
    },
  };
  return { state, port };
}

describe('SkillSetCache (DESIGN §4)', () => {
  it('lists a scope once and hands out the same array until a skill document of the scope changes', async () => {
    const { state, port } = lister([available('a')]);
    const cache = new SkillSetCache(port);
    const first = await cache.list(scope);
    expect(await cache.list(scope)).toBe(first);
    expect(state.calls).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);

    cache.onDocumentChanged({ projectId: 'proj-p', path: '_vance/recipes/x.yaml' });
    expect(await cache.list(scope)).toBe(first);
    cache.onDocumentChanged({ projectId: 'elsewhere', path: '_vance/skills/a/SKILL.md' });
    expect(await cache.list(scope)).toBe(first);

    state.skills = [available('a'), available('b')];
    cache.onDocumentChanged({ projectId: 'tenant-p', path: '_vance/skills/b/SKILL.md' });
    expect((await cache.list(scope)).map((s) => s.name)).toEqual(['a', 'b']);
    expect(state.calls).toBe(2);
  });

  it('drops only the scopes that read the changed project; reference files count as skill documents', async () => {
    const { state, port } = lister([available('a')]);
    const cache = new SkillSetCache(port);
    await cache.list(scope);
    await cache.list(other);
    cache.onDocumentChanged({ projectId: 'proj-q', path: '_vance/skills/a/references/checklist.md' });
    await cache.list(scope);
    await cache.list(other);
    expect(state.calls).toBe(3);
    cache.clear();
    await cache.list(scope);
    expect(state.calls).toBe(4);
  });

  it('shares one listing between concurrent callers', async () => {
    const { state, port } = lister([available('a')]);
    const cache = new SkillSetCache(port);
    const [x, y] = await Promise.all([cache.list(scope), cache.list(scope)]);
    expect(x).toBe(y);
    expect(state.calls).toBe(1);
  });

  it('does not keep a listing that raced with a write, and does not hand it to callers after the write', async () => {
    const { state, port } = lister([available('old')]);
    const cache = new SkillSetCache(port);
    const gate = deferred();
    state.gate = gate.promise;
    const stale = cache.list(scope);
    cache.invalidateProject('tenant-p');
    state.skills = [available('new')];
    const fresh = cache.list(scope);
    state.gate = null;
    gate.resolve();
    expect((await stale).map((s) => s.name)).toEqual(['old']);
    expect((await fresh).map((s) => s.name)).toEqual(['new']);
    expect((await cache.list(scope)).map((s) => s.name)).toEqual(['new']);
    expect(state.calls).toBe(2);
  });
});

describe('createTriggerHook (seed 000 §4a)', () => {
  it('matches against the cached skill set with the process filter, building the index once', async () => {
    const skills = [available('a', { frontmatter: triggers(keywords(['deploy'])) }), available('b', { frontmatter: triggers(keywords(['deploy'])) })];
    const { state, port } = lister(skills);
    const indexes = new TriggerIndexCache();
    const hook = createTriggerHook({ skillSets: new SkillSetCache(port), indexes });
    const process = { activeSkills: [{ name: 'a' }] as never, allowedSkillsOverride: null };
    for (let i = 0; i < 3; i++) {
      expect((await hook(process, scope, 'deploy now')).map((m) => [m.skill, m.reason])).toEqual([['b', 'Mentioned: deploy.']]);
    }
    expect(await hook({ ...process, allowedSkillsOverride: [] }, scope, 'deploy now')).toEqual([]);
    expect(state.calls).toBe(1);
    expect(indexes.builds).toBe(1);
  });
});
