import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { parseRecipe } from './parse-recipe';

const TOOLS: ToolDescriptor[] = [
  { name: 'doc_read', labels: ['read', 'docs'] },
  { name: 'doc_purge', labels: ['write', 'destructive', 'docs'] },
  { name: 'manual_read', labels: ['read'] },
];
const parse = (content: string, tools: readonly ToolDescriptor[] | null = TOOLS) =>
  parseRecipe({ name: 'r', path: '_vance/recipes/r.yaml', content }, undefined, tools ?? undefined);

// Issue 15: a selector that matched no tool (a label @web, a name no server tool has) saved without
// a word; the tool was simply not there when the recipe ran.
describe('recipe tool entries that select no tool of the catalog', () => {
  it('warns at each entry of every tool list, profile blocks included, saying a plain name may still be a client tool', () => {
    const result = parse([
      'description: d', 'engine: ford',
      'allowedToolsAdd: [doc_read, "@web", web_search]',
      'allowedToolsRemove: ["@destructive", shell_*]',
      'allowedToolsKeep: manual_read',
      'allowedToolsDropFirst: [nothing_here]',
      'allowedToolsDefer: ["@docs", "@rag"]',
      'profiles:', '  web:', '    allowedToolsRemove: [file_write]', '    allowedToolsAdd: ["@read"]',
    ].join('\n'));
    expect(result.recipe).not.toBeNull();
    expect(result.diagnostics.map((d) => [d.severity, d.line, d.column, d.field])).toEqual([
      ['WARNING', 3, 29, 'allowedToolsAdd[1]'],
      ['WARNING', 3, 37, 'allowedToolsAdd[2]'],
      ['WARNING', 4, 38, 'allowedToolsRemove[1]'],
      ['WARNING', 6, 25, 'allowedToolsDropFirst[0]'],
      ['WARNING', 7, 30, 'allowedToolsDefer[1]'],
      ['WARNING', 10, 26, 'profiles.web.allowedToolsRemove[0]'],
    ]);
    const messages = result.diagnostics.map((d) => d.message);
    expect(messages[0]).toMatch(/label @web matches no built-in tool/);
    expect(messages[1]).toMatch(/no built-in tool is called 'web_search'.*tool document or MCP pack.*connected client, provides it/);
    expect(messages[2]).toMatch(/no built-in tool name starts with 'shell_'/);
  });

  it('leaves the client-tool namespace alone: client_* entries are the connected client\'s by convention', () => {
    expect(parse('description: d\nengine: ford\nprofiles:\n  web:\n    allowedToolsRemove: [client_*, client_file_read]\n  foot:\n    allowedToolsAdd: [client_exec_run]\n').diagnostics).toEqual([]);
  });

  it('says nothing without a catalog (loading for a turn) or when every entry selects a tool', () => {
    expect(parse('description: d\nengine: ford\nallowedToolsAdd: [web_search]\n', null).diagnostics).toEqual([]);
    expect(parse('description: d\nengine: ford\nallowedToolsAdd: [doc_read, "@READ", doc_*]\n').diagnostics).toEqual([]);
  });
});
