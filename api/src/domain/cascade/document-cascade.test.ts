import { describe, expect, it } from 'vitest';
import { InMemoryDocumentStore } from '../testing';
import { CachedDocumentReader } from './document-cache';
import { DocumentCascade } from './document-cascade';
import type { ResourceDocument } from './document';
import { InvalidDocumentPathError } from './errors';
import type { StoredLayer } from './layer';
import { ResourceLayer } from './resource-layer';
import type { CascadeScope } from './scope';

const SKILL = '_vance/skills/code-review/SKILL.md';
const scope: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const projectOf: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };

/** A small in-memory cascade: the stored layers in one store, RESOURCE from the given documents. */
function cascadeWith(resources: ResourceDocument[] = []) {
  const store = new InMemoryDocumentStore();
  const cascade = new DocumentCascade(new CachedDocumentReader(store), new ResourceLayer(resources));
  const write = (layer: StoredLayer, path: string, content: string) =>
    store.put({ tenantId: 't1', projectId: projectOf[layer], path, content, author: 'test' });
  return { store, cascade, write };
}

describe('DocumentCascade.lookupCascade', () => {
  it('prefers a USER copy over all others and reports what it shadows, innermost first', async () => {
    const { cascade, write } = cascadeWith([{ path: SKILL, content: 'bundled' }]);
    await write('VANCE', SKILL, 'tenant');
    await write('PROJECT', SKILL, 'project');
    await write('USER', SKILL, 'mine');
    const hit = await cascade.lookupCascade(scope, SKILL);
    expect(hit?.source).toBe('USER');
    expect(hit?.document).toMatchObject({ layer: 'USER', content: 'mine', projectId: 'user-p', version: 1, updatedBy: 'test' });
    expect(hit?.shadowed).toEqual(['PROJECT', 'VANCE', 'RESOURCE']);
  });

  it('prefers a project SKILL.md over the bundled one and reports source PROJECT', async () => {
    const { cascade, write } = cascadeWith([{ path: SKILL, content: 'bundled' }]);
    await write('PROJECT', SKILL, 'project');
    const hit = await cascade.lookupCascade(scope, SKILL);
    expect(hit).toMatchObject({ source: 'PROJECT', shadowed: ['RESOURCE'], document: { content: 'project' } });
  });

  it('prefers the tenant copy over the bundled one and reports source VANCE', async () => {
    const { cascade, write } = cascadeWith([{ path: SKILL, content: 'bundled' }]);
    await write('VANCE', SKILL, 'tenant');
    expect(await cascade.lookupCascade(scope, SKILL)).toMatchObject({ source: 'VANCE', shadowed: ['RESOURCE'] });
  });

  it('falls back to the bundled document with no project and no timestamps', async () => {
    const { cascade } = cascadeWith([{ path: SKILL, content: 'bundled' }]);
    const hit = await cascade.lookupCascade(scope, SKILL);
    expect(hit).toEqual({
      source: 'RESOURCE',
      shadowed: [],
      document: { layer: 'RESOURCE', projectId: null, path: SKILL, content: 'bundled', version: 1, updatedAt: null, updatedBy: null },
    });
  });

  it('returns the whole winning document, never a merge of fields from outer copies', async () => {
    const { cascade, write } = cascadeWith([{ path: SKILL, content: '---\nname: x\ndescription: bundled\ntags: [a]\n---\nbody' }]);
    await write('PROJECT', SKILL, '---\nname: x\n---\n');
    expect((await cascade.lookupCascade(scope, SKILL))?.document.content).toBe('---\nname: x\n---\n');
  });

  it('returns null when no layer holds the path', async () => {
    const { cascade, write } = cascadeWith([{ path: 'other.md', content: 'x' }]);
    await write('USER', 'elsewhere.md', 'x');
    expect(await cascade.lookupCascade(scope, SKILL)).toBeNull();
  });

  it('skips the USER layer when the scope has no user (system spawn)', async () => {
    const { cascade, write } = cascadeWith();
    await write('USER', SKILL, 'mine');
    await write('VANCE', SKILL, 'tenant');
    expect(await cascade.lookupCascade({ ...scope, userProjectId: null }, SKILL)).toMatchObject({ source: 'VANCE', shadowed: [] });
  });

  it.each([
    ['no project', null],
    ['the tenant project as project', 'tenant-p'],
  ])('skips the PROJECT layer for %s, so the tenant project is not searched twice', async (_what, projectId) => {
    const { cascade, write, store } = cascadeWith();
    await write('PROJECT', SKILL, 'project');
    await write('VANCE', SKILL, 'tenant');
    const hit = await cascade.lookupCascade({ ...scope, projectId }, SKILL);
    expect(hit).toMatchObject({ source: 'VANCE', shadowed: [] });
    expect(store.calls.find).toBe(2); // USER and VANCE only
  });

  it('normalises the path before looking it up', async () => {
    const { cascade, write } = cascadeWith();
    await write('PROJECT', SKILL, 'project');
    expect((await cascade.lookupCascade(scope, '_vance\\skills//code-review/./SKILL.md'))?.source).toBe('PROJECT');
  });

  it('rejects an invalid path instead of searching for it', async () => {
    const { cascade, store } = cascadeWith();
    await expect(cascade.lookupCascade(scope, '../secrets')).rejects.toBeInstanceOf(InvalidDocumentPathError);
    expect(store.calls.find).toBe(0);
  });

  it('ignores documents of another tenant that reuse the same project ids', async () => {
    const { cascade, store } = cascadeWith();
    await store.put({ tenantId: 't2', projectId: 'proj-p', path: SKILL, content: 'theirs', author: null });
    expect(await cascade.lookupCascade(scope, SKILL)).toBeNull();
  });
});

describe('DocumentCascade.listByPrefixCascade', () => {
  it('merges the layers by path, inner over outer, sorted, each with source and shadowed', async () => {
    const { cascade, write } = cascadeWith([
      { path: '_vance/skills/a/SKILL.md', content: 'bundled a' },
      { path: '_vance/skills/b/SKILL.md', content: 'bundled b' },
      { path: '_vance/recipes/r.yaml', content: 'not under the prefix' },
    ]);
    await write('VANCE', '_vance/skills/a/SKILL.md', 'tenant a');
    await write('USER', '_vance/skills/a/SKILL.md', 'user a');
    await write('PROJECT', '_vance/skills/c/SKILL.md', 'project c');
    await write('PROJECT', '_vance/skills/b/references/x.md', 'project ref');
    const hits = await cascade.listByPrefixCascade(scope, '_vance/skills/');
    expect(hits.map((h) => [h.document.path, h.source, h.shadowed, h.document.content])).toEqual([
      ['_vance/skills/a/SKILL.md', 'USER', ['VANCE', 'RESOURCE'], 'user a'],
      ['_vance/skills/b/SKILL.md', 'RESOURCE', [], 'bundled b'],
      ['_vance/skills/b/references/x.md', 'PROJECT', [], 'project ref'],
      ['_vance/skills/c/SKILL.md', 'PROJECT', [], 'project c'],
    ]);
  });

  it('lists everything for the empty prefix and nothing when no layer matches', async () => {
    const { cascade, write } = cascadeWith([{ path: 'z.md', content: 'z' }]);
    await write('VANCE', 'a.md', 'a');
    expect((await cascade.listByPrefixCascade(scope, '')).map((h) => h.document.path)).toEqual(['a.md', 'z.md']);
    expect(await cascade.listByPrefixCascade(scope, 'nothing/')).toEqual([]);
  });

  it('leaves out the USER and PROJECT layers when the scope has neither', async () => {
    const { cascade, write } = cascadeWith();
    await write('USER', 'u.md', 'u');
    await write('PROJECT', 'p.md', 'p');
    await write('VANCE', 'v.md', 'v');
    const hits = await cascade.listByPrefixCascade({ ...scope, userProjectId: null, projectId: null }, '');
    expect(hits.map((h) => h.document.path)).toEqual(['v.md']);
  });
});

describe('DocumentCascade per layer', () => {
  it('reads one layer only, null when the layer lacks the path even if another holds it', async () => {
    const { cascade, write } = cascadeWith([{ path: SKILL, content: 'bundled' }]);
    await write('PROJECT', SKILL, 'project');
    expect((await cascade.readLayer(scope, 'PROJECT', SKILL))?.content).toBe('project');
    expect((await cascade.readLayer(scope, 'RESOURCE', SKILL))?.content).toBe('bundled');
    expect(await cascade.readLayer(scope, 'USER', SKILL)).toBeNull();
    expect(await cascade.readLayer(scope, 'VANCE', SKILL)).toBeNull();
    expect(await cascade.readLayer({ ...scope, projectId: null }, 'PROJECT', SKILL)).toBeNull();
  });

  it('lists one layer with its documents tagged by that layer, sorted by path', async () => {
    const { cascade, write } = cascadeWith([{ path: 'b.md', content: 'b' }, { path: 'a.md', content: 'a' }]);
    await write('USER', 'x/2.md', '2');
    await write('USER', 'x/1.md', '1');
    await write('USER', 'y.md', 'y');
    const user = await cascade.listLayer(scope, 'USER', 'x\\');
    expect(user.map((d) => [d.layer, d.path, d.projectId])).toEqual([['USER', 'x/1.md', 'user-p'], ['USER', 'x/2.md', 'user-p']]);
    expect((await cascade.listLayer(scope, 'RESOURCE', '')).map((d) => d.path)).toEqual(['a.md', 'b.md']);
    expect(await cascade.listLayer({ ...scope, userProjectId: null }, 'USER', '')).toEqual([]);
  });
});
