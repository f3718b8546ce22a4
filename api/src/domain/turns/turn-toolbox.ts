import type { ToolSpec } from '../llm/model-provider';
import type { ServerTool, ToolInvocationContext, ToolResult } from '../tools/server-tool';
import type { ToolDescriptor } from '../tools/tool-descriptor';

/**
 * What a turn needs from the tools (the shape of the tool registry: `specs(names)` and
 * `dispatch(name, args, allowed, ctx)`), plus the descriptors the pool is computed over. Dispatch
 * refuses a tool outside `allowed` even if the model calls it (issue 5).
 */
export interface TurnToolbox {
  descriptors(): readonly ToolDescriptor[];
  specs(names: readonly string[]): ToolSpec[];
  dispatch(name: string, args: Readonly<Record<string, unknown>>, allowed: ReadonlySet<string>, ctx: ToolInvocationContext): Promise<ToolResult>;
}

/** A toolbox over a fixed list of server tools (tests; and until a registry is wired). */
export class ServerToolbox implements TurnToolbox {
  private readonly byName: ReadonlyMap<string, ServerTool>;

  constructor(tools: readonly ServerTool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
  }

  descriptors(): readonly ToolDescriptor[] {
    return [...this.byName.values()].map((t) => ({ name: t.name, labels: t.labels }));
  }

  specs(names: readonly string[]): ToolSpec[] {
    return names.flatMap((n) => {
      const tool = this.byName.get(n);
      return tool ? [{ name: tool.name, description: tool.description, parameters: tool.parameters, labels: tool.labels }] : [];
    });
  }

  async dispatch(name: string, args: Readonly<Record<string, unknown>>, allowed: ReadonlySet<string>, ctx: ToolInvocationContext): Promise<ToolResult> {
    if (!allowed.has(name)) return { content: `Tool '${name}' is not allowed in this turn.`, isError: true };
    const tool = this.byName.get(name);
    if (!tool) return { content: `Unknown tool '${name}'.`, isError: true };
    try {
      return await tool.invoke(args, ctx);
    } catch (err) {
      return { content: `Tool '${name}' failed: ${err instanceof Error ? err.message : String(err)}`, isError: true };
    }
  }
}
