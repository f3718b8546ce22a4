import { describe, expect, it } from 'vitest';
import { createDocumentFixture } from '../testing';

const SKILL = '_vance/skills/review/SKILL.md';
const BUNDLED = { path: SKILL, content: 'bundled review' };

describe('DocumentService reads and writes', () => {
  it('puts a document into a layer and gets it back from that layer only', async () => {
    const { documents, users: { alice, dana } } = await createDocumentFixture();
    const written = await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'project review');
    expect(written).toMatchObject({ layer: 'PROJECT', path: SKILL, content: 'project review', version: 1, updatedBy: 'dana' });
    expect(await documents.get(dana, 'PROJECT', 'alpha', SKILL)).toMatchObject({ layer: 'PROJECT', content: 'project review', version: 1 });
    expect(await documents.get(dana, 'VANCE', null, SKILL)).toBeNull();
    expect(await documents.get(alice, 'PROJECT', 'beta', SKILL)).toBeNull();
  });

  it('stores the normalised path and finds it under any spelling', async () => {
    const { documents, users: { dana } } = await createDocumentFixture();
    const written = await documents.put(dana, 'USER', null, '_vance\\skills//review/./SKILL.md', 'x');
    expect(written.path).toBe(SKILL);
    expect((await documents.get(dana, 'USER', null, SKILL))?.content).toBe('x');
  });

  it('lists one layer under a prefix, sorted by path', async () => {
    const { documents, users: { alice } } = await createDocumentFixture();
    await documents.put(alice, 'VANCE', null, '_vance/recipes/b.yaml', 'b');
    await documents.put(alice, 'VANCE', null, '_vance/recipes/a.yaml', 'a');
    await documents.put(alice, 'VANCE', null, '_vance/skills/s/SKILL.md', 's');
    const listed = await documents.list(alice, 'VANCE', null, '_vance/recipes/');
    expect(listed.map((d) => [d.layer, d.path])).toEqual([['VANCE', '_vance/recipes/a.yaml'], ['VANCE', '_vance/recipes/b.yaml']]);
    expect(await documents.list(alice, 'VANCE', null)).toHaveLength(3);
  });

  it('resolves the effective document through the cascade, with source and shadowed', async () => {
    const { documents, users: { alice, dana } } = await createDocumentFixture({ resources: [BUNDLED] });
    expect(await documents.effective(dana, 'alpha', SKILL)).toMatchObject({ source: 'RESOURCE', shadowed: [] });
    await documents.put(alice, 'VANCE', null, SKILL, 'tenant review');
    await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'project review');
    const hit = await documents.effective(dana, 'alpha', SKILL);
    expect(hit).toMatchObject({ source: 'PROJECT', shadowed: ['VANCE', 'RESOURCE'], document: { content: 'project review' } });
    expect(await documents.effective(dana, null, SKILL)).toMatchObject({ source: 'VANCE', shadowed: ['RESOURCE'] });
  });

  it('merges the effective listing inner over outer', async () => {
    const { documents, users: { alice } } = await createDocumentFixture({
      resources: [BUNDLED, { path: '_vance/skills/plan/SKILL.md', content: 'bundled plan' }],
    });
    await documents.put(alice, 'USER', null, SKILL, 'my review');
    await documents.put(alice, 'PROJECT', 'beta', '_vance/skills/beta-only/SKILL.md', 'beta');
    const hits = await documents.effectiveList(alice, 'beta', '_vance/skills/');
    expect(hits.map((h) => [h.document.path, h.source, h.shadowed])).toEqual([
      ['_vance/skills/beta-only/SKILL.md', 'PROJECT', []],
      ['_vance/skills/plan/SKILL.md', 'RESOURCE', []],
      [SKILL, 'USER', ['RESOURCE']],
    ]);
  });

  it('treats the _tenant project as no project, so VANCE is not reported twice', async () => {
    const { documents, users: { alice } } = await createDocumentFixture();
    await documents.put(alice, 'VANCE', null, SKILL, 'tenant');
    expect(await documents.effective(alice, '_tenant', SKILL)).toMatchObject({ source: 'VANCE', shadowed: [] });
  });

  it("keeps a user's USER layer to that user", async () => {
    const { documents, users: { bob, carol } } = await createDocumentFixture();
    await documents.put(bob, 'USER', null, SKILL, 'bob only');
    expect(await documents.get(carol, 'USER', null, SKILL)).toBeNull();
    expect(await documents.effective(carol, null, SKILL)).toBeNull();
    expect((await documents.effective(bob, 'alpha', SKILL))?.source).toBe('USER');
  });

  it('writes USER to the caller’s own project whatever project is named', async () => {
    const { documents, users: { bob } } = await createDocumentFixture();
    const written = await documents.put(bob, 'USER', 'alpha', SKILL, 'mine');
    expect(written.projectId).toBe(bob.userProjectId);
  });

  it('keeps history newest first across updates, delete and re-create', async () => {
    const { documents, users: { dana } } = await createDocumentFixture();
    await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'one');
    await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'two', { expectedVersion: 1 });
    expect(await documents.delete(dana, 'PROJECT', 'alpha', SKILL, 2)).toBe(true);
    expect((await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'three', { expectedVersion: 0 })).version).toBe(4);
    const history = await documents.history(dana, 'PROJECT', 'alpha', SKILL);
    expect(history.map((r) => [r.version, r.content, r.deleted, r.author])).toEqual([
      [4, 'three', false, 'dana'], [3, null, true, 'dana'], [2, 'two', false, 'dana'], [1, 'one', false, 'dana'],
    ]);
    expect(await documents.history(dana, 'RESOURCE', null, SKILL)).toEqual([]);
  });

  it('makes the outer copy effective again when the inner copy is deleted', async () => {
    const { documents, users: { alice } } = await createDocumentFixture({ resources: [BUNDLED] });
    await documents.put(alice, 'VANCE', null, SKILL, 'tenant');
    await documents.put(alice, 'USER', null, SKILL, 'mine');
    expect((await documents.effective(alice, null, SKILL))?.source).toBe('USER');
    await documents.delete(alice, 'USER', null, SKILL);
    expect((await documents.effective(alice, null, SKILL))?.source).toBe('VANCE');
    await documents.delete(alice, 'VANCE', null, SKILL);
    expect(await documents.effective(alice, null, SKILL)).toMatchObject({ source: 'RESOURCE', document: { content: 'bundled review' } });
  });

  it('answers false and announces nothing when deleting what is not there', async () => {
    const { documents, events, users: { alice } } = await createDocumentFixture();
    expect(await documents.delete(alice, 'VANCE', null, 'none.md')).toBe(false);
    expect(events).toEqual([]);
  });
});

describe('DocumentService announcements', () => {
  it('publishes DocumentChanged with layer, normalised path, version and change', async () => {
    const { documents, events, users: { dana }, projects: { alpha } } = await createDocumentFixture();
    await documents.put(dana, 'PROJECT', 'alpha', '_vance//skills/review/SKILL.md', 'one');
    await documents.put(dana, 'USER', null, SKILL, 'mine');
    await documents.delete(dana, 'PROJECT', 'alpha', SKILL);
    expect(events.map(({ at: _at, ...rest }) => rest)).toEqual([
      { tenantId: dana.tenant.id, projectId: alpha.id, layer: 'PROJECT', path: SKILL, version: 1, change: 'PUT', author: 'dana' },
      { tenantId: dana.tenant.id, projectId: dana.userProjectId, layer: 'USER', path: SKILL, version: 1, change: 'PUT', author: 'dana' },
      { tenantId: dana.tenant.id, projectId: alpha.id, layer: 'PROJECT', path: SKILL, version: 2, change: 'DELETE', author: 'dana' },
    ]);
    for (const event of events) expect(Number.isNaN(Date.parse(event.at))).toBe(false);
  });

  it('publishes the VANCE layer with the tenant project for a tenant write', async () => {
    const { documents, events, users: { alice } } = await createDocumentFixture();
    await documents.put(alice, 'VANCE', null, SKILL, 'tenant');
    expect(events[0]).toMatchObject({ layer: 'VANCE', projectId: alice.tenantProjectId, version: 1, change: 'PUT' });
  });
});
