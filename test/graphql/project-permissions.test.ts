/**
 * Issue 17 §1: Project.myPermissions says what the caller may do in a project, and each claim is
 * checked against the operation itself: every permission listed lets its mutation through, every
 * permission missing makes it refuse (FORBIDDEN, or BAD_USER_INPUT for a system project addressed
 * as PROJECT). A MEMBER, a project ADMIN and a tenant admin see different lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type GraphQLResult, type TestVance } from './harness';

const PERMISSIONS = ['READ', 'WRITE_USER_LAYER', 'WRITE_PROJECT_LAYER', 'WRITE_TENANT_LAYER', 'FORCE_SAVE', 'MANAGE_MEMBERS', 'ADMINISTER_TENANT'] as const;
type Permission = (typeof PERMISSIONS)[number];
const PUT_DOC = 'mutation($l: Layer!, $p: String, $path: String!, $c: String!, $f: Boolean) { putDocument(layer: $l, project: $p, path: $path, content: $c, force: $f) { version } }';
const PUT_SETTING = 'mutation($p: String) { putSetting(key: "perm.test", value: "x", project: $p) { key } }';
const BROKEN_SKILL = '---\ntitle: Broken\ndescription: Not valid\nlifecycle: forever\n---\nBody.\n';

describe.each(testDatabases())('Project.myPermissions over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  const tokens: Record<string, string> = {};
  let serial = 0;

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    expect((await t.gql('mutation { createProject(name: "perm") { name } }')).errors).toBeUndefined();
    for (const [login, role] of [['mia', 'MEMBER'], ['pat', 'MEMBER'], ['tess', 'TENANT_ADMIN'], ['zoe', 'MEMBER']] as const) {
      const r = await t.gql('mutation($l: String!, $r: UserRole!) { createUser(login: $l, role: $r) { token } }', { l: login, r: role });
      tokens[login] = r.data!.createUser.token;
    }
    await t.gql('mutation { addProjectMember(project: "perm", login: "mia", role: MEMBER) { role } }');
    await t.gql('mutation { addProjectMember(project: "perm", login: "pat", role: ADMIN) { role } }');
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const permissionsOf = async (login: string, project: string): Promise<Permission[]> => {
    const r = await t.gql('{ projects { name myPermissions } }', {}, tokens[login]);
    expect(r.errors).toBeUndefined();
    return r.data!.projects.find((p: { name: string }) => p.name === project).myPermissions;
  };

  /** The operations each permission stands for, tried for real; true when all of them went through. */
  const attempt = async (permission: Permission, login: string, project: string): Promise<boolean> => {
    const token = tokens[login];
    const n = ++serial;
    const skill = (layer: string, content = 'Notes.\n', force = false) =>
      t.gql(PUT_DOC, { l: layer, p: project, path: `notes/${login}-${n}-${layer}.md`, c: content, f: force }, token);
    const outcomes: GraphQLResult[] = [];
    switch (permission) {
      case 'READ':
        outcomes.push(await t.gql('query($p: String) { skills(project: $p) { name } }', { p: project }, token));
        break;
      case 'WRITE_USER_LAYER':
        outcomes.push(await skill('USER'));
        break;
      case 'WRITE_PROJECT_LAYER':
        outcomes.push(await skill('PROJECT'), await t.gql(PUT_SETTING, { p: project }, token));
        break;
      case 'WRITE_TENANT_LAYER':
        outcomes.push(await skill('VANCE'), await t.gql(PUT_SETTING, { p: null }, token));
        break;
      case 'FORCE_SAVE':
        outcomes.push(await t.gql(PUT_DOC, { l: 'USER', p: project, path: `_vance/skills/broken-${login}-${n}/SKILL.md`, c: BROKEN_SKILL, f: true }, token));
        break;
      case 'MANAGE_MEMBERS':
        outcomes.push(await t.gql('mutation($p: String!) { addProjectMember(project: $p, login: "zoe", role: MEMBER) { role } }', { p: project }, token));
        break;
      case 'ADMINISTER_TENANT':
        outcomes.push(await t.gql('mutation($n: String!) { createProject(name: $n) { name } }', { n: `p-${login}-${n}` }, token));
        break;
    }
    const allowed = outcomes.every((o) => o.errors === undefined);
    // A refusal is a typed refusal, never an internal error; it is all-or-nothing for one permission.
    if (!allowed) {
      for (const o of outcomes) expect(['FORBIDDEN', 'BAD_USER_INPUT']).toContain(codeOf(o));
    }
    return allowed;
  };

  it('gives a project MEMBER, a project ADMIN and a tenant admin different permissions', async () => {
    expect(await permissionsOf('mia', 'perm')).toEqual(['READ', 'WRITE_USER_LAYER', 'FORCE_SAVE']);
    expect(await permissionsOf('pat', 'perm')).toEqual(['READ', 'WRITE_USER_LAYER', 'WRITE_PROJECT_LAYER', 'FORCE_SAVE', 'MANAGE_MEMBERS']);
    expect(await permissionsOf('tess', 'perm')).toEqual(['READ', 'WRITE_USER_LAYER', 'WRITE_PROJECT_LAYER', 'WRITE_TENANT_LAYER', 'FORCE_SAVE', 'MANAGE_MEMBERS', 'ADMINISTER_TENANT']);
    // A system project is never a PROJECT layer, and has no members of its own.
    expect(await permissionsOf('tess', '_tenant')).toEqual(['READ', 'WRITE_USER_LAYER', 'WRITE_TENANT_LAYER', 'FORCE_SAVE', 'ADMINISTER_TENANT']);
    expect(await permissionsOf('mia', '_user_mia')).toEqual(['READ', 'WRITE_USER_LAYER', 'FORCE_SAVE']);
  });

  it('creates a project with the creator\'s permissions in it', async () => {
    const r = await t.gql('mutation { createProject(name: "fresh") { myRole myPermissions } }', {}, tokens.tess);
    expect(r.data!.createProject).toEqual({ myRole: 'ADMIN', myPermissions: ['READ', 'WRITE_USER_LAYER', 'WRITE_PROJECT_LAYER', 'WRITE_TENANT_LAYER', 'FORCE_SAVE', 'MANAGE_MEMBERS', 'ADMINISTER_TENANT'] });
  });

  it.each([
    ['mia', 'perm'], ['pat', 'perm'], ['tess', 'perm'], ['tess', '_tenant'], ['mia', '_tenant'], ['mia', '_user_mia'], ['admin', 'perm'],
  ])('claims for %s in %s exactly what the mutations allow', async (login, project) => {
    tokens.admin ??= 'test-admin-token-0123456789';
    const claimed = await permissionsOf(login, project);
    const actual: Permission[] = [];
    for (const permission of PERMISSIONS) if (await attempt(permission, login, project)) actual.push(permission);
    expect(actual).toEqual(claimed);
  });
});
