/**
 * `vance.workspace.read/write/list/delete(path)` (seed 000 §13.4): the process's project workspace,
 * through the very built-in workspace tools (same path sanitising — `..`, absolute paths and URLs
 * are refused — and the process owner's rights), whether or not the turn's pool offers them.
 */
import type { JsonValue } from '../scripting/script-runner';
import type { ServerTool, ToolInvocationContext } from '../tools/server-tool';

export interface WorkspaceBinding {
  read(ctx: ToolInvocationContext, path: unknown): Promise<string>;
  write(ctx: ToolInvocationContext, path: unknown, content: unknown): Promise<JsonValue>;
  list(ctx: ToolInvocationContext, prefix: unknown): Promise<JsonValue>;
  delete(ctx: ToolInvocationContext, path: unknown): Promise<JsonValue>;
}

export function workspaceBinding(tools: readonly ServerTool[]): WorkspaceBinding {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const run = async (name: string, args: Record<string, unknown>, ctx: ToolInvocationContext): Promise<string> => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`vance.workspace is not available on this server (${name} missing)`);
    const result = await tool.invoke(args, ctx);
    if (result.isError) throw new Error(result.content);
    return result.content;
  };
  const text = (value: unknown, what: string): string => {
    if (typeof value !== 'string') throw new Error(`vance.workspace: ${what} must be a string`);
    return value;
  };
  return {
    read: (ctx, path) => run('workspace_read', { path: text(path, 'path') }, ctx),
    write: async (ctx, path, content) => JSON.parse(await run('workspace_write', { path: text(path, 'path'), content: text(content, 'content') }, ctx)) as JsonValue,
    list: async (ctx, prefix) => JSON.parse(await run('workspace_list', prefix === undefined || prefix === null ? {} : { prefix: text(prefix, 'prefix') }, ctx)) as JsonValue,
    delete: async (ctx, path) => JSON.parse(await run('workspace_delete', { path: text(path, 'path') }, ctx)) as JsonValue,
  };
}
