import { describe, expect, it } from 'vitest';
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { SourcedTool, ToolSet, ToolSource } from './tool-source';
import { ToolUniverse } from './tool-universe';

const scope = (projectId: string, tenantId = 't1'): CascadeScope => ({ tenantId, userProjectId: `u-${tenantId}`, projectId, tenantProjectId: `tp-${tenantId}` });
const me = async () => ({}) as Principal;
const tool = (name: string, path = `_vance/tools/${name}.yaml`): SourcedTool => ({
  name, labels: ['x'], description: name, parameters: { type: 'object' }, origin: { kind: 'DOCUMENT', layer: 'PROJECT', path },
  invoke: async () => ({ content: name }),
});

class CountingSource implements ToolSource {
  calls = 0;
  onToolsChanged?: (listener: (tenantId: string) => void) => () => void;
  constructor(private readonly answer: (scope: CascadeScope) => ToolSet) {}
  async toolsFor(_p: Principal, s: CascadeScope): Promise<ToolSet> {
    this.calls++;
    return this.answer(s);
  }
}

describe('the per-scope tool universe', () => {
  it('drops one tenant\'s scopes when a source says its tools changed without a write (an MCP list_changed)', async () => {
    const source = new CountingSource((s) => ({ tools: [tool(`t-${s.tenantId}`)], problems: [] }));
    let changed: (tenantId: string) => void = () => undefined;
    source.onToolsChanged = (listener: (tenantId: string) => void) => { changed = listener; return () => undefined; };
    const universe = new ToolUniverse([source]);
    await universe.toolsFor(scope('p1', 't1'), me);
    await universe.toolsFor(scope('p1', 't2'), me);
    expect(source.calls).toBe(2);
    changed('t1');
    await universe.toolsFor(scope('p1', 't1'), me);
    await universe.toolsFor(scope('p1', 't2'), me);
    expect(source.calls).toBe(3);
  });

  it('asks the sources once per scope until a tool document of one of its projects changes', async () => {
    const source = new CountingSource((s) => ({ tools: [tool(`t-${s.projectId}`)], problems: [] }));
    const universe = new ToolUniverse([source]);
    const first = await universe.toolsFor(scope('p1'), me);
    expect(await universe.toolsFor(scope('p1'), me)).toBe(first);
    await universe.toolsFor(scope('p2'), me);
    expect(source.calls).toBe(2);
    universe.onDocumentChanged({ projectId: 'p1', path: '_vance/skills/x/SKILL.md' });
    await universe.toolsFor(scope('p1'), me);
    expect(source.calls).toBe(2);
    universe.onDocumentChanged({ projectId: 'p1', path: '_vance/tools/x.yaml' });
    await universe.toolsFor(scope('p1'), me);
    await universe.toolsFor(scope('p2'), me);
    expect(source.calls).toBe(3);
    // A tenant-layer change drops every scope of that tenant.
    universe.onDocumentChanged({ projectId: 'tp-t1', path: '_vance/tools/x.yaml' });
    await universe.toolsFor(scope('p2'), me);
    expect(source.calls).toBe(4);
  });

  it('keeps scopes of different tenants apart, first source wins a name, a failing source is a problem', async () => {
    const documents = new CountingSource((s) => ({ tools: s.tenantId === 't1' ? [tool('shared'), tool('mine')] : [], problems: [] }));
    const packs = new CountingSource(() => ({ tools: [tool('shared', '_vance/tools/p.mcp.yaml')], problems: [] }));
    const broken: ToolSource = { toolsFor: async () => { throw new Error('pack down'); } };
    const universe = new ToolUniverse([documents, packs, broken]);
    const one = await universe.toolsFor(scope('p', 't1'), me);
    expect(one.tools.map((t) => [t.name, t.origin.path])).toEqual([['shared', '_vance/tools/shared.yaml'], ['mine', '_vance/tools/mine.yaml']]);
    expect(one.problems.map((p) => p.message)).toEqual([expect.stringContaining("'shared' is defined by an earlier source"), expect.stringContaining('pack down')]);
    const two = await universe.toolsFor(scope('p', 't2'), me);
    expect(two.tools.map((t) => t.name)).toEqual(['shared']);
  });

  it('never lets a source take a built-in\'s name or offer a schema that is not an object, and says so', async () => {
    const odd: SourcedTool = { ...tool('odd'), parameters: { type: 'string' } };
    const source = new CountingSource(() => ({ tools: [tool('doc_read'), odd, tool('weather')], problems: [] }));
    const universe = new ToolUniverse([source], { builtins: { list: () => [{ name: 'doc_read', labels: [] }] } });
    const set = await universe.toolsFor(scope('p1'), me);
    expect(set.tools.map((t) => t.name)).toEqual(['weather']);
    expect(set.problems).toEqual([
      { path: '_vance/tools/doc_read.yaml', message: "tool 'doc_read' is a built-in tool's name; the built-in is used" },
      { path: '_vance/tools/odd.yaml', message: "tool 'odd': its parameters are not a JSON schema of type object; it is not offered" },
    ]);
  });
});
