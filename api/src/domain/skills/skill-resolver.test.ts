import { describe, expect, it } from 'vitest';
import { CachedDocumentReader } from '../cascade/document-cache';
import { DocumentCascade } from '../cascade/document-cascade';
import type { ResourceDocument } from '../cascade/document';
import type { StoredLayer } from '../cascade/layer';
import { ResourceLayer } from '../cascade/resource-layer';
import type { CascadeScope } from '../cascade/scope';
import type { TemplateEngine } from '../templates/template-engine';
import { InMemoryDocumentStore } from '../testing';
import { InvalidSkillNameError } from './errors';
import { SkillResolver } from './skill-resolver';

const scope: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const projectOf: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };
const SKILL = '_vance/skills/code-review/SKILL.md';

function skillMd(title: string, extra: string[] = [], body = 'Body'): string {
  return ['---', `title: ${title}`, 'description: Review changes', 'version: 1.0.0', ...extra, '---', body].join('\n');
}

/** Counts template checks: a parse of a skill with a body checks it exactly once. */
function countingEngine(): TemplateEngine & { checks: number } {
  const engine = {
    checks: 0,
    check: () => {
      engine.checks++;
      return [];
    },
    render: async () => '',
    referencedVariables: () => new Set<string>(),
  };
  return engine;
}

/** A small in-memory cascade: the stored layers in one store, RESOURCE from the given documents. */
function setup(resources: ResourceDocument[] = []) {
  const store = new InMemoryDocumentStore();
  const cache = new CachedDocumentReader(store);
  const cascade = new DocumentCascade(cache, new ResourceLayer(resources));
  const templates = countingEngine();
  const resolver = new SkillResolver(cascade, templates);
  const write = async (layer: StoredLayer, path: string, content: string) => {
    await store.put({ tenantId: 't1', projectId: projectOf[layer], path, content, author: 'test' });
    cache.invalidate(projectOf[layer]);
  };
  return { resolver, write, templates, store };
}

describe('SkillResolver.load', () => {
  it('prefers USER over PROJECT over VANCE over RESOURCE and reports source and shadowed layers', async () => {
    const { resolver, write } = setup([{ path: SKILL, content: skillMd('Bundled') }]);
    expect(await resolver.load(scope, 'code-review')).toMatchObject({ source: 'RESOURCE', shadowed: [], skill: { title: 'Bundled' } });
    await write('VANCE', SKILL, skillMd('Tenant'));
    expect(await resolver.load(scope, 'code-review')).toMatchObject({ source: 'VANCE', shadowed: ['RESOURCE'], skill: { title: 'Tenant' } });
    await write('PROJECT', SKILL, skillMd('Project'));
    expect(await resolver.load(scope, 'code-review')).toMatchObject({ source: 'PROJECT', shadowed: ['VANCE', 'RESOURCE'], skill: { title: 'Project' } });
    await write('USER', SKILL, skillMd('Mine'));
    const user = await resolver.load(scope, 'code-review');
    expect(user).toMatchObject({ name: 'code-review', path: SKILL, status: 'AVAILABLE', source: 'USER', shadowed: ['PROJECT', 'VANCE', 'RESOURCE'], documentVersion: 1 });
    expect(user?.skill.title).toBe('Mine');
  });

  it('skips the USER layer for a system scope without a user', async () => {
    const { resolver, write } = setup();
    await write('USER', SKILL, skillMd('Mine'));
    await write('VANCE', SKILL, skillMd('Tenant'));
    expect(await resolver.load({ ...scope, userProjectId: null }, 'code-review')).toMatchObject({ source: 'VANCE', skill: { title: 'Tenant' } });
  });

  it('returns null for an unknown skill and throws for a name that cannot be a folder', async () => {
    const { resolver } = setup();
    expect(await resolver.load(scope, 'nothing-here')).toBeNull();
    await expect(resolver.load(scope, '../recipes/default')).rejects.toBeInstanceOf(InvalidSkillNameError);
    await expect(resolver.inspect(scope, '')).rejects.toMatchObject({ code: 'INVALID_SKILL_NAME' });
  });

  it('hides the outer copies when the inner copy is enabled: false, and shows it to admin views as DISABLED', async () => {
    const { resolver, write } = setup([{ path: SKILL, content: skillMd('Bundled') }]);
    await write('PROJECT', SKILL, skillMd('Off here', ['enabled: no']));
    expect(await resolver.load(scope, 'code-review')).toBeNull();
    expect(await resolver.listAvailable(scope)).toEqual([]);
    const inspected = await resolver.inspect(scope, 'code-review');
    expect(inspected).toMatchObject({ status: 'DISABLED', source: 'PROJECT', shadowed: ['RESOURCE'], skill: { title: 'Off here', enabled: false } });
    expect(await resolver.listAll(scope)).toMatchObject([{ name: 'code-review', status: 'DISABLED', source: 'PROJECT' }]);
  });

  it('does not fall through to an outer copy when the inner one is broken; admin views see it with diagnostics', async () => {
    const { resolver, write } = setup([{ path: SKILL, content: skillMd('Bundled') }]);
    await write('USER', SKILL, '---\ntitle: [broken\n---\nBody');
    expect(await resolver.load(scope, 'code-review')).toBeNull();
    const inspected = await resolver.inspect(scope, 'code-review');
    expect(inspected).toMatchObject({ status: 'INVALID', skill: null, source: 'USER', shadowed: ['RESOURCE'], references: [] });
    expect(inspected?.diagnostics).toMatchObject([{ severity: 'ERROR', path: SKILL, line: 2, field: 'frontmatter' }]);
  });
});

describe('SkillResolver: reference files come from the layer of the SKILL.md', () => {
  const refs = ['referenceDocs:', '  - file: references/checklist.md', '    title: Checklist'];
  const CHECKLIST = '_vance/skills/code-review/references/checklist.md';

  it('reads the reference next to the SKILL.md, keeping template syntax in it as data', async () => {
    const { resolver, write } = setup();
    await write('VANCE', SKILL, skillMd('Tenant', refs));
    await write('VANCE', CHECKLIST, 'Check {% this %} literally');
    const loaded = await resolver.load(scope, 'code-review');
    expect(loaded?.references).toEqual([{ doc: expect.objectContaining({ title: 'Checklist', file: 'references/checklist.md' }), content: 'Check {% this %} literally' }]);
    expect(loaded?.diagnostics).toEqual([]);
  });

  it('never uses a tenant-layer reference for a user-layer skill; the missing file is a located warning', async () => {
    const { resolver, write } = setup();
    await write('USER', SKILL, skillMd('Mine', refs));
    await write('VANCE', SKILL, skillMd('Tenant', refs));
    await write('VANCE', CHECKLIST, 'tenant checklist');
    const loaded = await resolver.load(scope, 'code-review');
    expect(loaded).toMatchObject({ source: 'USER', status: 'AVAILABLE' });
    expect(loaded?.references).toEqual([{ doc: expect.objectContaining({ file: 'references/checklist.md' }), content: null }]);
    expect(loaded?.diagnostics).toEqual([
      {
        severity: 'WARNING',
        message: "Reference file 'references/checklist.md' does not exist next to this SKILL.md in the USER layer; sibling files are never taken from another layer.",
        path: SKILL,
        line: 6,
        column: 11,
        field: 'referenceDocs[0].file',
      },
    ]);
  });

  it('reads bundled references from the RESOURCE layer and warns about a missing script file', async () => {
    const { resolver } = setup([
      { path: SKILL, content: skillMd('Bundled', [...refs, 'scripts: [{ name: diff, file: scripts/diff.js }]']) },
      { path: CHECKLIST, content: 'bundled checklist' },
    ]);
    const loaded = await resolver.load(scope, 'code-review');
    expect(loaded?.references.map((r) => r.content)).toEqual(['bundled checklist']);
    expect(loaded?.diagnostics).toMatchObject([{ severity: 'WARNING', field: 'scripts[0].file', message: expect.stringMatching(/Script file 'scripts\/diff.js'/) }]);
  });
});

describe('SkillResolver.listAvailable / listAll', () => {
  it('merges all layers by name, inner wins, ignoring sibling files, sorted by name', async () => {
    const { resolver, write } = setup([
      { path: '_vance/skills/zeta/SKILL.md', content: skillMd('Zeta') },
      { path: SKILL, content: skillMd('Bundled review') },
      { path: '_vance/skills/code-review/references/x.md', content: 'x' },
    ]);
    await write('PROJECT', SKILL, skillMd('Project review'));
    await write('USER', '_vance/skills/alpha/SKILL.md', skillMd('Alpha'));
    await write('VANCE', '_vance/skills/alpha-beta/SKILL.md', skillMd('Alpha Beta'));
    await write('VANCE', '_vance/skills/nested/deeper/SKILL.md', skillMd('Not a skill folder'));
    const listed = await resolver.listAvailable(scope);
    expect(listed.map((s) => [s.name, s.source, s.skill.title, s.shadowed])).toEqual([
      ['alpha', 'USER', 'Alpha', []],
      ['alpha-beta', 'VANCE', 'Alpha Beta', []],
      ['code-review', 'PROJECT', 'Project review', ['RESOURCE']],
      ['zeta', 'RESOURCE', 'Zeta', []],
    ]);
  });

  it('omits broken and disabled skills from listAvailable but lists them in listAll with their status', async () => {
    const { resolver, write } = setup();
    await write('VANCE', '_vance/skills/good/SKILL.md', skillMd('Good'));
    await write('VANCE', '_vance/skills/off/SKILL.md', skillMd('Off', ['enabled: false']));
    await write('VANCE', '_vance/skills/broken/SKILL.md', 'no frontmatter');
    await write('VANCE', '_vance/skills/Bad Name/SKILL.md', skillMd('Bad'));
    expect((await resolver.listAvailable(scope)).map((s) => s.name)).toEqual(['good']);
    const all = await resolver.listAll(scope);
    expect(all.map((s) => [s.name, s.status])).toEqual([
      ['Bad Name', 'INVALID'],
      ['broken', 'INVALID'],
      ['good', 'AVAILABLE'],
      ['off', 'DISABLED'],
    ]);
    expect(all[0]?.diagnostics).toMatchObject([{ field: 'name', message: expect.stringMatching(/folder name 'Bad Name'/) }]);
  });

  it('resolveAll returns the available skills among the names, in the given order', async () => {
    const { resolver, write } = setup();
    await write('VANCE', '_vance/skills/a/SKILL.md', skillMd('A'));
    await write('VANCE', '_vance/skills/b/SKILL.md', skillMd('B'));
    expect((await resolver.resolveAll(scope, ['b', 'missing', 'a', '../x'])).map((s) => s.name)).toEqual(['b', 'a']);
  });
});

describe('SkillResolver: parse cache', () => {
  it('does not re-parse an unchanged SKILL.md on the hot path, and re-parses after an edit', async () => {
    const { resolver, write, templates } = setup([{ path: '_vance/skills/bundled/SKILL.md', content: skillMd('Bundled') }]);
    await write('PROJECT', SKILL, skillMd('v1'));
    const first = await resolver.load(scope, 'code-review');
    await resolver.listAvailable(scope);
    const checksAfterFirstRound = templates.checks;
    expect(checksAfterFirstRound).toBe(2);
    const again = await resolver.load(scope, 'code-review');
    await resolver.listAvailable(scope);
    expect(templates.checks).toBe(checksAfterFirstRound);
    expect(again?.skill).toBe(first?.skill);

    await write('PROJECT', SKILL, skillMd('v2'));
    const edited = await resolver.load(scope, 'code-review');
    expect(edited).toMatchObject({ documentVersion: 2, skill: { title: 'v2' } });
    expect(templates.checks).toBe(checksAfterFirstRound + 1);
  });

  it('shares one parse of a bundled skill across tenants', async () => {
    const { resolver, templates } = setup([{ path: SKILL, content: skillMd('Bundled') }]);
    await resolver.load(scope, 'code-review');
    await resolver.load({ tenantId: 't2', userProjectId: null, projectId: null, tenantProjectId: 'other-tenant-p' }, 'code-review');
    expect(templates.checks).toBe(1);
  });

  it('keeps tenants apart for stored layers even at equal project ids and versions', async () => {
    const { resolver, store } = setup();
    await store.put({ tenantId: 't1', projectId: 'tenant-p', path: SKILL, content: skillMd('One'), author: 'x' });
    await store.put({ tenantId: 't2', projectId: 'tenant-p', path: SKILL, content: skillMd('Two'), author: 'x' });
    expect((await resolver.load(scope, 'code-review'))?.skill.title).toBe('One');
    expect((await resolver.load({ ...scope, tenantId: 't2' }, 'code-review'))?.skill.title).toBe('Two');
  });
});

describe('SkillResolver parses uncached skills one event-loop turn each (issue 13: a scope parse was one long task)', () => {
  it('lets a timer run between the parses of a cold listing', async () => {
    const resources = Array.from({ length: 40 }, (_, i) => ({ path: `_vance/skills/s${i}/SKILL.md`, content: skillMd(`S${i}`) }));
    const { resolver, templates } = setup(resources);
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const listed = await resolver.listAll(scope);
    ticking = false;
    expect(listed).toHaveLength(40);
    expect(templates.checks).toBe(40);
    // One turn per parse at least (before: all 40 in the task that listed them, and the ticker ran once or twice).
    expect(turns).toBeGreaterThanOrEqual(40);
    // Cached now: a warm listing parses nothing.
    await resolver.listAll(scope);
    expect(templates.checks).toBe(40);
  });
});
