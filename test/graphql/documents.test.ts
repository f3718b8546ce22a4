import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!, $v: Int) {
  putDocument(layer: $layer, project: $project, path: $path, content: $content, expectedVersion: $v) { layer project path version size }
}`;
const EFFECTIVE = `query E($project: String, $path: String!) {
  effectiveDocument(project: $project, path: $path) { source shadowed document { layer project content version } }
}`;
const BUNDLED = '_vance/manuals/documents-and-layers.md';

describe.each(testDatabases())('documents and the cascade over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let member: string;
  let projectAdmin: string;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_MAX_DOCUMENT_BYTES: '2048' });
    await t.gql(`mutation { createProject(name: "atlas") { id } }`);
    member = (await t.gql(`mutation { createUser(login: "mia") { token } }`)).data!.createUser.token;
    projectAdmin = (await t.gql(`mutation { createUser(login: "pat") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "atlas", login: "mia", role: MEMBER) { role } }`);
    await t.gql(`mutation { addProjectMember(project: "atlas", login: "pat", role: ADMIN) { role } }`);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('serves the bundled RESOURCE layer read from vance-defaults/', async () => {
    const r = await t.gql(EFFECTIVE, { path: BUNDLED }, member);
    expect(r.data?.effectiveDocument).toMatchObject({ source: 'RESOURCE', shadowed: [], document: { layer: 'RESOURCE', project: null } });
    const list = await t.gql(`{ documents(layer: RESOURCE, prefix: "_vance/manuals/") { path } }`, {}, member);
    expect(list.data?.documents).toContainEqual({ path: BUNDLED });
  });

  it('resolves USER over PROJECT over VANCE over RESOURCE and reports what each hit shadows', async () => {
    const path = 'notes/cascade.md';
    await t.gql(PUT, { layer: 'VANCE', path, content: 'v: vance' });
    expect((await t.gql(EFFECTIVE, { project: 'atlas', path }, member)).data?.effectiveDocument)
      .toMatchObject({ source: 'VANCE', shadowed: [], document: { project: '_tenant', content: 'v: vance' } });
    await t.gql(PUT, { layer: 'PROJECT', project: 'atlas', path, content: 'v: project' }, projectAdmin);
    await t.gql(PUT, { layer: 'USER', path, content: 'v: mine' }, member);
    expect((await t.gql(EFFECTIVE, { project: 'atlas', path }, member)).data?.effectiveDocument)
      .toMatchObject({ source: 'USER', shadowed: ['PROJECT', 'VANCE'], document: { project: '_user_mia', content: 'v: mine' } });
    // Another user does not see mia's USER layer.
    expect((await t.gql(EFFECTIVE, { project: 'atlas', path }, projectAdmin)).data?.effectiveDocument)
      .toMatchObject({ source: 'PROJECT', shadowed: ['VANCE'], document: { project: 'atlas', content: 'v: project' } });
    // Overriding a bundled document in VANCE shadows RESOURCE.
    await t.gql(PUT, { layer: 'VANCE', path: BUNDLED, content: '# ours' });
    expect((await t.gql(EFFECTIVE, { path: BUNDLED }, member)).data?.effectiveDocument).toMatchObject({ source: 'VANCE', shadowed: ['RESOURCE'] });
    // Deleting the inner copy lets the outer one show again (rollback to default).
    const del = await t.gql(`mutation { deleteDocument(layer: USER, path: "${path}") }`, {}, member);
    expect(del.data?.deleteDocument).toBe(true);
    expect((await t.gql(EFFECTIVE, { project: 'atlas', path }, member)).data?.effectiveDocument).toMatchObject({ source: 'PROJECT' });
  });

  it('lists effective documents merged inner over outer by path', async () => {
    await t.gql(PUT, { layer: 'VANCE', path: 'merge/a.md', content: 'vance a' });
    await t.gql(PUT, { layer: 'VANCE', path: 'merge/b.md', content: 'vance b' });
    await t.gql(PUT, { layer: 'PROJECT', project: 'atlas', path: 'merge/b.md', content: 'project b' }, projectAdmin);
    const r = await t.gql(`{ effectiveDocuments(project: "atlas", prefix: "merge/") { source shadowed document { path content } } }`, {}, member);
    expect(r.data?.effectiveDocuments).toEqual([
      { source: 'VANCE', shadowed: [], document: { path: 'merge/a.md', content: 'vance a' } },
      { source: 'PROJECT', shadowed: ['VANCE'], document: { path: 'merge/b.md', content: 'project b' } },
    ]);
  });

  it('keeps versions and history, and refuses a stale expectedVersion with CONFLICT, writing nothing', async () => {
    const path = 'notes/v.md';
    const v1 = await t.gql(PUT, { layer: 'USER', path, content: 'one', v: 0 }, member);
    expect(v1.data?.putDocument).toMatchObject({ version: 1, size: 3, project: '_user_mia' });
    await t.gql(PUT, { layer: 'USER', path, content: 'two', v: 1 }, member);
    const stale = await t.gql(PUT, { layer: 'USER', path, content: 'lost update', v: 1 }, member);
    expect(codeOf(stale)).toBe('CONFLICT');
    const again = await t.gql(PUT, { layer: 'USER', path, content: 'dup create', v: 0 }, member);
    expect(codeOf(again)).toBe('CONFLICT');
    const doc = await t.gql(`{ document(layer: USER, path: "${path}") { content version } }`, {}, member);
    expect(doc.data?.document).toEqual({ content: 'two', version: 2 });
    await t.gql(`mutation { deleteDocument(layer: USER, path: "${path}") }`, {}, member);
    const history = await t.gql(`{ documentHistory(layer: USER, path: "${path}") { version content deleted author } }`, {}, member);
    expect(history.data?.documentHistory).toEqual([
      { version: 3, content: null, deleted: true, author: 'mia' },
      { version: 2, content: 'two', deleted: false, author: 'mia' },
      { version: 1, content: 'one', deleted: false, author: 'mia' },
    ]);
  });

  it('rejects path traversal and oversized documents with BAD_USER_INPUT and writes nothing', async () => {
    for (const path of ['../etc/passwd', '/abs/path.md', 'a/../../b', 'C:\\x.md', 'nul\u0000.md']) {
      const r = await t.gql(PUT, { layer: 'USER', path, content: 'x' }, member);
      expect(codeOf(r), path).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.extensions?.diagnostics?.[0]).toMatchObject({ field: 'path' });
    }
    const big = await t.gql(PUT, { layer: 'USER', path: 'big.md', content: 'x'.repeat(2049) }, member);
    expect(codeOf(big)).toBe('BAD_USER_INPUT');
    expect(big.errors?.[0]?.extensions?.domainCode).toBe('DOCUMENT_TOO_LARGE');
    const all = await t.gql(`{ documents(layer: USER) { path } }`, {}, member);
    expect(all.data?.documents.map((d: { path: string }) => d.path)).not.toContain('big.md');
    expect(all.data?.documents.some((d: { path: string }) => d.path.includes('passwd') || d.path.includes('x.md'))).toBe(false);
  });

  it('normalises backslashes and redundant segments into one canonical path', async () => {
    const r = await t.gql(PUT, { layer: 'USER', path: 'dir\\sub//./file.md', content: 'n' }, member);
    expect(r.data?.putDocument.path).toBe('dir/sub/file.md');
  });

  it('enforces the layer ACL: RESOURCE read-only, VANCE for tenant admins, PROJECT for project admins', async () => {
    expect(codeOf(await t.gql(PUT, { layer: 'RESOURCE', path: BUNDLED, content: 'x' }))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PUT, { layer: 'VANCE', path: 'x.md', content: 'x' }, member))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PUT, { layer: 'PROJECT', project: 'atlas', path: 'x.md', content: 'x' }, member))).toBe('FORBIDDEN');
    expect((await t.gql(`{ document(layer: VANCE, path: "x.md") { path } }`, {}, member)).data?.document).toBeNull();
    const outsider = (await t.gql(`mutation { createUser(login: "olga") { token } }`)).data!.createUser.token;
    expect(codeOf(await t.gql(`{ documents(layer: PROJECT, project: "atlas") { path } }`, {}, outsider))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(EFFECTIVE, { project: 'atlas', path: 'x' }, outsider))).toBe('NOT_FOUND');
    // The USER layer is always the caller's own, whatever `project` says.
    const r = await t.gql(`{ documents(layer: USER, project: "_user_mia") { path } }`, {}, outsider);
    expect(r.data?.documents).toEqual([]);
    expect(codeOf(await t.gql(`{ documents(layer: PROJECT, project: "_user_mia") { path } }`, {}, outsider))).toBe('NOT_FOUND');
  });

  it('serves a write to the next read even though reads are cached', async () => {
    const path = 'cache/probe.md';
    await t.gql(EFFECTIVE, { project: 'atlas', path }, member);
    await t.gql(PUT, { layer: 'PROJECT', project: 'atlas', path, content: 'fresh' }, projectAdmin);
    const r = await t.gql(EFFECTIVE, { project: 'atlas', path }, member);
    expect(r.data?.effectiveDocument?.document.content).toBe('fresh');
  });
});
