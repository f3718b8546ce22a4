import { describe, expect, it } from 'vitest';
import type { Project, ProjectMembership, ProjectRole, UserRole } from '../identity/identity';
import type { Principal } from '../identity/principal';
import { layerAccess, projectAccess } from './layer-access';

const at = new Date(0);
const tenant = { id: 't1', name: 'default', createdAt: at };
const project = (id: string, over: Partial<Project> = {}): Project =>
  ({ id, tenantId: 't1', name: id, kind: 'NORMAL', ownerUserId: null, createdAt: at, ...over });
const tenantProject = project('tenant-p', { name: '_tenant', kind: 'SYSTEM' });
const alpha = project('alpha');

function principal(login: string, role: UserRole): Principal {
  return {
    user: { id: `u-${login}`, tenantId: 't1', login, role, createdAt: at },
    tenant,
    tenantProjectId: tenantProject.id,
    userProjectId: `user-p-${login}`,
  };
}
const userProjectOf = (p: Principal) =>
  project(p.userProjectId, { name: `_user_${p.user.login}`, kind: 'SYSTEM', ownerUserId: p.user.id });
const member = (p: Principal, of: Project, role: ProjectRole): ProjectMembership => ({ projectId: of.id, userId: p.user.id, role });

const sysAdmin = principal('root', 'SYSTEM_ADMIN');
const tenantAdmin = principal('alice', 'TENANT_ADMIN');
const plain = principal('bob', 'MEMBER');

describe('layerAccess', () => {
  it.each([sysAdmin, tenantAdmin, plain])('lets everyone read RESOURCE and nobody write it ($user.login)', (p) => {
    expect(layerAccess(p, 'RESOURCE', null, null)).toBe('READ');
  });

  it('lets tenant and system admins write VANCE and members only read it', () => {
    expect(layerAccess(sysAdmin, 'VANCE', null, null)).toBe('WRITE');
    expect(layerAccess(tenantAdmin, 'VANCE', null, null)).toBe('WRITE');
    expect(layerAccess(plain, 'VANCE', null, null)).toBe('READ');
  });

  it('lets a user write its own USER layer', () => {
    expect(layerAccess(plain, 'USER', userProjectOf(plain), null)).toBe('WRITE');
  });

  it('delegates PROJECT to the project ACL', () => {
    expect(layerAccess(plain, 'PROJECT', alpha, member(plain, alpha, 'MEMBER'))).toBe('READ');
    expect(layerAccess(plain, 'PROJECT', alpha, null)).toBe('NONE');
    expect(layerAccess(plain, 'PROJECT', null, null)).toBe('NONE');
  });
});

describe('projectAccess', () => {
  it('gives a project member READ', () => {
    expect(projectAccess(plain, alpha, member(plain, alpha, 'MEMBER'))).toBe('READ');
  });

  it('gives a project ADMIN WRITE', () => {
    expect(projectAccess(plain, alpha, member(plain, alpha, 'ADMIN'))).toBe('WRITE');
  });

  it('gives tenant and system admins WRITE without a membership', () => {
    expect(projectAccess(tenantAdmin, alpha, null)).toBe('WRITE');
    expect(projectAccess(sysAdmin, alpha, null)).toBe('WRITE');
  });

  it('gives a non-member NONE', () => {
    expect(projectAccess(plain, alpha, null)).toBe('NONE');
  });

  it("gives NONE on another tenant's project, even to admins with a matching membership", () => {
    const foreign = project('foreign', { tenantId: 't2' });
    expect(projectAccess(plain, foreign, member(plain, foreign, 'ADMIN'))).toBe('NONE');
    expect(projectAccess(tenantAdmin, foreign, null)).toBe('NONE');
    expect(projectAccess(sysAdmin, foreign, null)).toBe('NONE');
  });

  it('gives NONE for no project', () => {
    expect(projectAccess(sysAdmin, null, null)).toBe('NONE');
  });

  it('gives the owner WRITE on its own _user_ project', () => {
    expect(projectAccess(plain, userProjectOf(plain), null)).toBe('WRITE');
  });

  it("gives NONE on another user's _user_ project, even to tenant and system admins", () => {
    const bobs = userProjectOf(plain);
    expect(projectAccess(tenantAdmin, bobs, null)).toBe('NONE');
    expect(projectAccess(sysAdmin, bobs, null)).toBe('NONE');
    expect(projectAccess(tenantAdmin, bobs, member(tenantAdmin, bobs, 'ADMIN'))).toBe('NONE');
  });

  it('treats the _tenant project as the VANCE layer: admins write, members read', () => {
    expect(projectAccess(tenantAdmin, tenantProject, null)).toBe('WRITE');
    expect(projectAccess(plain, tenantProject, null)).toBe('READ');
    expect(projectAccess(plain, tenantProject, member(plain, tenantProject, 'ADMIN'))).toBe('READ');
  });
});
