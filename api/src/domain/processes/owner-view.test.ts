import { describe, expect, it } from 'vitest';
import type { Principal } from '../identity/principal';
import { isOwner, patchWithinView, processView, viewerScope } from './owner-view';
import type { ActiveSkillRef, Process } from './process';

const at = new Date(0);
const principal = (id: string): Principal => ({
  user: { id, tenantId: 't1', login: id, role: 'TENANT_ADMIN', createdAt: at },
  tenant: { id: 't1', name: 'default', createdAt: at }, tenantProjectId: 'tenant-p', userProjectId: `user-p-${id}`,
});
const ref = (name: string, resolvedFromScope: ActiveSkillRef['resolvedFromScope'], fromRecipe = false): ActiveSkillRef =>
  ({ name, resolvedFromScope, oneShot: false, fromRecipe, activatedAt: '', args: null, reason: '' });
const process = (over: Partial<Process>): Process => ({
  id: 'p', tenantId: 't1', projectId: 'lab', sessionId: 's', userId: 'owen', name: 'w', parentProcessId: null, status: 'IDLE', engine: 'ford',
  recipeName: 'worker', recipeSource: 'VANCE', connectionProfile: null, activeSkills: [], allowedSkillsOverride: null, locked: false, engineParams: {},
  promptOverride: 'prompt', profileAppend: null, promptMode: 'APPEND', dataRelayCorrectionOverride: null,
  toolAdjustments: { add: [], remove: [], keep: [], dropFirst: [], defer: [] }, guards: [], recipeGuards: [], guardRounds: {}, guardScratch: {}, openSkills: [], skillUses: {},
  turnRequestedAt: null, createdAt: at, updatedAt: at, ...over,
} as Process);

const owen = principal('owen');
const admin = principal('alice');

describe('the owner view (seed 000 §14)', () => {
  it('skips the USER layer for anyone but the owner', () => {
    const scope = { tenantId: 't1', userProjectId: 'user-p-owen', projectId: 'lab', tenantProjectId: 'tenant-p' };
    expect(viewerScope(owen, process({}), scope)).toBe(scope);
    expect(viewerScope(admin, process({}), scope)).toEqual({ ...scope, userProjectId: null });
    expect(isOwner(admin, process({}))).toBe(false);
  });

  it("hides private active skills and a USER recipe's texts from others", () => {
    const p = process({ recipeSource: 'USER', activeSkills: [ref('mine', 'USER'), ref('shared', 'PROJECT'), ref('seeded', 'PROJECT', true)] });
    expect(processView(owen, p)).toBe(p);
    const seen = processView(admin, p);
    expect(seen.activeSkills.map((r) => r.name)).toEqual(['shared']);
    expect(seen.promptOverride).toBeNull();
  });

  it('applies a patch planned on the view to the current row, keeping the hidden skills in place', () => {
    const current = process({ activeSkills: [ref('a', 'PROJECT'), ref('mine', 'USER'), ref('b', 'VANCE')] });
    // A non-owner's "clear all" cleared what it saw.
    const clear = patchWithinView(admin, (c) => ({ activeSkills: c.activeSkills.filter(() => false) }));
    expect(clear(current)?.activeSkills?.map((r) => r.name)).toEqual(['mine']);
    // A non-owner activated the project's copy of a name the owner has from USER: the visible one replaces it.
    const activate = patchWithinView(admin, (c) => ({ activeSkills: [...c.activeSkills, ref('mine', 'PROJECT')] }));
    expect(activate(current)?.activeSkills?.map((r) => `${r.name}:${r.resolvedFromScope}`)).toEqual(['a:PROJECT', 'b:VANCE', 'mine:PROJECT']);
    const same = patchWithinView(owen, () => null);
    expect(same(current)).toBeNull();
  });
});
