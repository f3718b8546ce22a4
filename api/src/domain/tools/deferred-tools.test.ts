import { describe, expect, it } from 'vitest';
import { deferredMetaTools, DeferredToolShelf } from './deferred-tools';
import { ToolRegistry } from './tool-registry';
import type { ToolInvocationContext } from './server-tool';

const CTX = {} as ToolInvocationContext;
const shelf = () => new DeferredToolShelf([
  { name: 'doc_purge', labels: ['write', 'destructive'], description: 'Wipe deleted documents.\nSecond line.', parameters: { type: 'object', properties: { days: { type: 'integer' } } } },
  { name: 'web_fetch', labels: ['read', 'web'], description: 'Fetch a page', parameters: { type: 'object' } },
]);

describe('tool_list and tool_describe (seed 004 §6)', () => {
  it('tool_list lists the deferred tools with one line each, optionally of one label; its description counts them', async () => {
    const tools = new ToolRegistry(deferredMetaTools(shelf()));
    expect(tools.get('tool_list')!.description).toMatch(/^2 more tools are available/);
    const all = JSON.parse((await tools.dispatch('tool_list', {}, 'ALL', CTX)).content);
    expect(all).toEqual({ count: 2, tools: [
      { name: 'doc_purge', labels: ['write', 'destructive'], description: 'Wipe deleted documents.' },
      { name: 'web_fetch', labels: ['read', 'web'], description: 'Fetch a page' },
    ] });
    const web = JSON.parse((await tools.dispatch('tool_list', { label: '@Web' }, 'ALL', CTX)).content);
    expect(web.tools.map((t: { name: string }) => t.name)).toEqual(['web_fetch']);
  });

  it('tool_describe gives the schema of one and loads it; an unknown name is refused and loads nothing', async () => {
    const s = shelf();
    const tools = new ToolRegistry(deferredMetaTools(s));
    expect(s.loaded()).toEqual([]);
    const refused = await tools.dispatch('tool_describe', { name: 'shell_exec' }, 'ALL', CTX);
    expect(refused).toEqual({ content: "No tool 'shell_exec' waits to be loaded; tool_list lists the ones that do.", isError: true });
    const described = JSON.parse((await tools.dispatch('tool_describe', { name: 'doc_purge' }, 'ALL', CTX)).content);
    expect(described).toMatchObject({ name: 'doc_purge', parameters: { properties: { days: { type: 'integer' } } }, loaded: true });
    expect(s.loaded()).toEqual([{ name: 'doc_purge', description: 'Wipe deleted documents.\nSecond line.', parameters: { type: 'object', properties: { days: { type: 'integer' } } } }]);
  });
});
