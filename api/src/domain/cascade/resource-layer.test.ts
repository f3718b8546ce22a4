import { describe, expect, it } from 'vitest';
import { isLayer, LAYERS } from './layer';
import { ResourceLayer } from './resource-layer';
import { projectIdOfLayer } from './scope';

describe('ResourceLayer', () => {
  const docs = [
    { path: '_vance/skills/b/SKILL.md', content: 'b' },
    { path: '_vance/recipes/r.yaml', content: 'r' },
    { path: '_vance/skills/a/SKILL.md', content: 'a' },
  ];

  it('finds a bundled document by its exact path', () => {
    const layer = new ResourceLayer(docs);
    expect(layer.get('_vance/skills/a/SKILL.md')?.content).toBe('a');
    expect(layer.get('_vance/skills/a')).toBeUndefined();
    expect(layer.size).toBe(3);
  });

  it('lists by prefix in path order', () => {
    const layer = new ResourceLayer(docs);
    expect(layer.list('_vance/skills/').map((d) => d.path)).toEqual(['_vance/skills/a/SKILL.md', '_vance/skills/b/SKILL.md']);
    expect(layer.list('').map((d) => d.path)).toEqual(['_vance/recipes/r.yaml', '_vance/skills/a/SKILL.md', '_vance/skills/b/SKILL.md']);
  });

  it('is immune to later changes of the documents it was built from', () => {
    const source = [{ path: 'a.md', content: 'original' }];
    const layer = new ResourceLayer(source);
    source[0]!.content = 'changed';
    expect(layer.get('a.md')?.content).toBe('original');
    expect(Object.isFrozen(layer.get('a.md'))).toBe(true);
  });
});

describe('layers and scope', () => {
  it('orders the layers innermost first', () => {
    expect(LAYERS).toEqual(['USER', 'PROJECT', 'VANCE', 'RESOURCE']);
    expect(isLayer('VANCE')).toBe(true);
    expect(isLayer('vance')).toBe(false);
  });

  it('maps each layer to the project backing it, RESOURCE to none', () => {
    const scope = { tenantId: 't', userProjectId: 'u', projectId: 'p', tenantProjectId: 'v' };
    expect(LAYERS.map((layer) => projectIdOfLayer(scope, layer))).toEqual(['u', 'p', 'v', null]);
    expect(projectIdOfLayer({ ...scope, projectId: 'v' }, 'PROJECT')).toBeNull();
  });
});
