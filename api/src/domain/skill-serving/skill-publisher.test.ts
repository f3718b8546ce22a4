import { describe, expect, it } from 'vitest';
import { CachedDocumentReader } from '../cascade/document-cache';
import { DocumentCascade } from '../cascade/document-cascade';
import type { StoredLayer } from '../cascade/layer';
import { ResourceLayer } from '../cascade/resource-layer';
import type { CascadeScope } from '../cascade/scope';
import type { LayerTargetResolver } from '../documents/layer-target';
import { SkillResolver } from '../skills/skill-resolver';
import { InMemoryDocumentStore } from '../testing';
import { MAX_FILES_PER_SKILL, SkillPublisher } from './skill-publisher';

const scope: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const projectOf: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };
const skillMd = (description: string, extra: string[] = []) => ['---', 'title: T', `description: ${description}`, 'version: 1.0.0', ...extra, '---', 'Body', ''].join('\n');

function setup() {
  const store = new InMemoryDocumentStore();
  const cache = new CachedDocumentReader(store);
  const cascade = new DocumentCascade(cache, new ResourceLayer([{ path: '_vance/skills/bundled/SKILL.md', content: skillMd('Bundled') }]));
  // list/get take a scope; the target resolver only answers scope(), which these tests do not ask.
  const publisher = new SkillPublisher(new SkillResolver(cascade), cascade, {} as LayerTargetResolver);
  const write = async (layer: StoredLayer, path: string, content: string) => {
    await store.put({ tenantId: 't1', projectId: projectOf[layer], path, content, author: 'test' });
    cache.invalidate(projectOf[layer]);
  };
  return { publisher, write };
}

describe('SkillPublisher', () => {
  it("serves the files of the winning SKILL.md's layer only, SKILL.md first", async () => {
    const { publisher, write } = setup();
    await write('VANCE', '_vance/skills/s/SKILL.md', skillMd('Tenant'));
    await write('VANCE', '_vance/skills/s/references/tenant-only.md', 'tenant');
    await write('PROJECT', '_vance/skills/s/SKILL.md', skillMd('Project'));
    await write('PROJECT', '_vance/skills/s/scripts/b.js', 'b');
    await write('PROJECT', '_vance/skills/s/references/a.md', 'a');
    const served = await publisher.get(scope, 's');
    expect(served).toMatchObject({ name: 's', source: 'PROJECT', shadowed: ['VANCE'], frontmatter: { description: 'Project' } });
    expect(served!.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/a.md', 'scripts/b.js']);
    expect((await publisher.list(scope)).map((s) => s.name)).toEqual(['bundled', 's']);
  });

  it('publishes neither a skill hidden from the model nor a disabled one', async () => {
    const { publisher, write } = setup();
    await write('VANCE', '_vance/skills/people/SKILL.md', skillMd('P', ['disable-model-invocation: true']));
    await write('VANCE', '_vance/skills/off/SKILL.md', skillMd('O', ['enabled: false']));
    expect((await publisher.list(scope)).map((s) => s.name)).toEqual(['bundled']);
    expect(await publisher.get(scope, 'people')).toBeNull();
    expect(await publisher.get(scope, 'off')).toBeNull();
    expect(await publisher.get(scope, '../etc')).toBeNull();
  });

  it('keeps a served skill until a file of its folder changes, and then changes its digest', async () => {
    const { publisher, write } = setup();
    await write('VANCE', '_vance/skills/s/SKILL.md', skillMd('S'));
    await write('VANCE', '_vance/skills/s/references/r.md', 'one');
    const first = await publisher.get(scope, 's');
    expect(await publisher.get(scope, 's')).toBe(first);
    await write('VANCE', '_vance/skills/s/references/r.md', 'two');
    const second = await publisher.get(scope, 's');
    expect(second!.digest).not.toBe(first!.digest);
    expect(second!.files[0]!.digest).toBe(first!.files[0]!.digest);
  });

  it('does not publish a skill over the SEP limit of 512 files', async () => {
    const { publisher, write } = setup();
    await write('VANCE', '_vance/skills/big/SKILL.md', skillMd('Big'));
    for (let i = 0; i < MAX_FILES_PER_SKILL; i++) await write('VANCE', `_vance/skills/big/references/${i}.md`, `${i}`);
    expect(await publisher.get(scope, 'big')).toBeNull();
    expect((await publisher.list(scope)).map((s) => s.name)).toEqual(['bundled']);
  });
});
