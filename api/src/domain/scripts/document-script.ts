/**
 * The script implementation of tool documents (issue 19): the document's `script.source` runs in the
 * sandbox exactly as a BRAIN skill script does (seed 000 §13.4) — the arguments as the global `args`,
 * the `vance.*` bindings (tool, workspace, context, log), the result of the last expression as the
 * tool's answer, the sandbox's time and memory limits. A sandbox failure is a tool error.
 */
import { ScriptError, type JsonValue, type ScriptRunner } from '../scripting/script-runner';
import type { ToolInvocationContext, ToolResult } from '../tools/server-tool';
import type { ScriptImplementation, ToolDocument } from '../tools/tool-document';
import { brainBindings, type ScriptToolDeps } from './script-tools';

export interface DocumentScriptDeps extends Pick<ScriptToolDeps, 'workspace' | 'maxToolDepth' | 'cpuTimeoutMs'> {
  readonly runner: ScriptRunner;
}

export function documentScriptRunner(deps: DocumentScriptDeps) {
  return async (tool: ToolDocument, script: ScriptImplementation, args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext): Promise<ToolResult> => {
    const filename = `_vance/tools/${tool.name}.yaml#script`;
    try {
      const { value } = await deps.runner.run({
        source: script.source, filename, mode: 'EXPRESSION', args: args as JsonValue,
        timeoutMs: script.timeoutMs, cpuTimeoutMs: deps.cpuTimeoutMs, bindings: brainBindings(tool.name, ctx, null, deps),
      });
      return { content: typeof value === 'string' ? value : JSON.stringify(value) };
    } catch (error) {
      if (error instanceof ScriptError) {
        return { content: `Tool '${tool.name}' failed (${error.kind}${error.line !== null ? `, line ${error.line}` : ''}): ${error.message}`, isError: true };
      }
      throw error;
    }
  };
}
