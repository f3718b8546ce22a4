import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture } from './builtin-fixture';
import { workspaceDocumentPath, workspacePrefix } from './workspace-tools';

async function setup() {
  const fx = await createBuiltinFixture();
  const registry = new ToolRegistry(fx.tools);
  return { fx, call: (name: string, args: unknown, ctx: Parameters<ToolRegistry['dispatch']>[3]) => registry.dispatch(name, args, 'ALL', ctx) };
}

describe('workspace paths', () => {
  it('maps a relative path under workspace/ and normalises harmless forms', () => {
    expect(workspaceDocumentPath('notes/a.md')).toBe('workspace/notes/a.md');
    expect(workspaceDocumentPath('./notes//a.md')).toBe('workspace/notes/a.md');
    expect(workspaceDocumentPath('notes\\a.md')).toBe('workspace/notes/a.md');
    expect(workspacePrefix(null)).toBe('workspace/');
    expect(workspacePrefix('notes/')).toBe('workspace/notes/');
  });

  it.each(['../secret.md', 'notes/../../_vance/recipes/x.yaml', '/etc/passwd', '\\x', 'C:/x', '~/x', 'a/..', 'http://x/y', 'a\u0000b', '.', ''])(
    'refuses %j', (raw) => {
      expect(() => workspaceDocumentPath(raw)).toThrow();
    },
  );
});

describe('workspace_* tools', () => {
  it('writes, lists, reads and deletes a file under workspace/ of the process\'s project', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    expect(JSON.parse((await call('workspace_write', { path: 'notes/a.md', content: 'hello' }, ctx)).content)).toEqual({ written: 'notes/a.md', version: 1 });
    await call('workspace_write', { path: 'top.txt', content: 'x' }, ctx);
    expect(await fx.docs.documents.get(fx.docs.users.alice, 'PROJECT', 'alpha', 'workspace/notes/a.md')).toMatchObject({ content: 'hello' });
    const all = JSON.parse((await call('workspace_list', {}, ctx)).content) as { files: { path: string; version: number }[]; count: number };
    expect(all.files.map((f) => f.path).sort()).toEqual(['notes/a.md', 'top.txt']);
    const notes = JSON.parse((await call('workspace_list', { prefix: 'notes/' }, ctx)).content) as { files: { path: string; chars: number }[] };
    expect(notes.files).toEqual([expect.objectContaining({ path: 'notes/a.md', chars: 5 })]);
    expect(await call('workspace_read', { path: 'notes/a.md' }, ctx)).toEqual({ content: 'hello' });
    expect(JSON.parse((await call('workspace_delete', { path: 'notes/a.md' }, ctx)).content)).toEqual({ deleted: 'notes/a.md' });
    expect(await call('workspace_read', { path: 'notes/a.md' }, ctx)).toEqual({ content: "No workspace file 'notes/a.md'. Use workspace_list to see the files.", isError: true });
    expect((await call('workspace_delete', { path: 'notes/a.md' }, ctx)).isError).toBe(true);
  });

  it('does not list or read project documents outside workspace/', async () => {
    const { fx, call } = await setup();
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/recipes/local.yaml', 'engine: ford\n');
    await fx.docs.documents.put(fx.docs.users.alice, 'PROJECT', 'alpha', 'workspaces/other.md', 'not mine');
    const ctx = await fx.ctx();
    expect(JSON.parse((await call('workspace_list', {}, ctx)).content)).toEqual({ files: [], count: 0 });
    const escape = await call('workspace_read', { path: '../_vance/recipes/local.yaml' }, ctx);
    expect(escape.isError).toBe(true);
    expect(escape.content).toContain("'..' is not allowed");
    expect((await call('workspace_write', { path: '/_vance/recipes/evil.yaml', content: 'x' }, ctx)).content).toContain('absolute paths are not allowed');
    expect((await call('workspace_list', { prefix: '../' }, ctx)).isError).toBe(true);
    expect(await fx.docs.documents.get(fx.docs.users.alice, 'PROJECT', 'alpha', '_vance/recipes/evil.yaml')).toBeNull();
  });

  it('keeps the owner\'s rights: a project member can read the workspace but not write it', async () => {
    const { fx, call } = await setup();
    await fx.docs.documents.put(fx.docs.users.dana, 'PROJECT', 'alpha', 'workspace/shared.md', 'from dana');
    const bob = await fx.ctx({}, fx.docs.users.bob);
    expect(await call('workspace_read', { path: 'shared.md' }, bob)).toEqual({ content: 'from dana' });
    const write = await call('workspace_write', { path: 'shared.md', content: 'bob was here' }, bob);
    expect(write.isError).toBe(true);
    expect(write.content).toContain('read-only');
  });

  it('works in the process\'s own project only', async () => {
    const { fx, call } = await setup();
    await call('workspace_write', { path: 'a.md', content: 'alpha' }, await fx.ctx());
    expect((await call('workspace_read', { path: 'a.md' }, await fx.ctx({}, fx.docs.users.alice, 'beta'))).isError).toBe(true);
  });
});
