/**
 * Skill scripts as tools (seed 000 §13.2–§13.5, issue 6): while a skill is composed into a turn, each
 * of its scripts is the tool `skill_<skill>__<script>` with the §13.7 schema. A BRAIN script runs in
 * the sandbox with the `vance.*` bindings; a FOOT script is sent to the session's client. The file is
 * read from the SKILL.md's own layer (no cross-layer lookup, §13.1) at call time.
 */
import type { CascadeScope } from '../cascade/scope';
import type { Layer } from '../cascade/layer';
import type { ClientCallOutcome, NewClientToolCall } from '../client-tools';
import { externalWait, ScriptError, type BindingTree, type JsonValue, type ScriptRunner } from '../scripting/script-runner';
import type { AvailableSkill } from '../skills/skill-resolver';
import { skillSiblingPath } from '../skills/skill-paths';
import type { SkillScript } from '../skills/skill';
import type { ServerTool, ToolInvocationContext, ToolResult } from '../tools/server-tool';
import { LogLimiter } from './log-limiter';
import { scriptContext } from './script-context';
import { scriptParamsSchema } from './script-params-schema';
import { scriptToolName } from './script-tool-name';
import type { WorkspaceBinding } from './workspace-binding';

/** Nested `vance.tool` calls a script may make (a script calling a script calling …). */
export const DEFAULT_MAX_TOOL_DEPTH = 3;

export interface ScriptToolDeps {
  readonly runner: ScriptRunner;
  readonly files: { readLayer(scope: CascadeScope, layer: Layer, path: string): Promise<{ readonly content: string } | null> };
  readonly clientTools: { call(request: Omit<NewClientToolCall, 'deadline'>, timeoutMs?: number): Promise<ClientCallOutcome> };
  readonly workspace: WorkspaceBinding;
  readonly maxToolDepth?: number;
  /** Wall-clock limit of one BRAIN script run (ms), waiting for `vance.tool` included. Default 120 s. */
  readonly timeoutMs?: number;
  /** Limit on the script's own running time (ms). Default: the sandbox's. */
  readonly cpuTimeoutMs?: number;
}

/** The script tools of the composed skills, in skill then declaration order. */
export function scriptToolsFor(skills: readonly AvailableSkill[], deps: ScriptToolDeps): ServerTool[] {
  return skills.flatMap((available) => available.skill.lifecycle === 'shot' ? [] : available.skill.scripts.map((script) => scriptTool(available, script, deps)));
}

function scriptTool(available: AvailableSkill, script: SkillScript, deps: ScriptToolDeps): ServerTool {
  const skill = available.skill;
  const name = scriptToolName(skill.name, script.name);
  const where = script.target === 'FOOT' ? 'runs on the user\'s machine (client)' : 'runs on the server';
  return {
    name,
    labels: ['skill-script', `skill:${skill.name}`, script.target === 'FOOT' ? 'client' : 'script'],
    description: `${script.description ?? `Script '${script.name}' of skill '${skill.name}'.`} (Skill script; ${where}.)`,
    parameters: scriptParamsSchema(script.params),
    async invoke(args, ctx) {
      const file = skillSiblingPath(skill.name, script.file);
      const doc = await deps.files.readLayer(ctx.scope, available.source, file);
      if (!doc) return { content: `The script file '${script.file}' of skill '${skill.name}' is missing in its ${available.source} layer.`, isError: true };
      if (script.target === 'FOOT') {
        return deps.clientTools.call({
          tenantId: ctx.process.tenantId, sessionId: ctx.process.sessionId, userId: ctx.process.userId, processId: ctx.process.id,
          turnId: ctx.turn?.turnId ?? null, kind: 'SCRIPT', tool: name, arguments: { ...args },
          script: { skill: skill.name, name: script.name, source: doc.content },
        });
      }
      return runBrain(name, file, doc.content, args, ctx, available, deps);
    },
  };
}

async function runBrain(
  name: string, file: string, source: string, args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext,
  available: AvailableSkill, deps: ScriptToolDeps,
): Promise<ToolResult> {
  try {
    const { value } = await deps.runner.run({
      source, filename: file, mode: 'EXPRESSION', args: args as JsonValue, timeoutMs: deps.timeoutMs ?? 120_000, cpuTimeoutMs: deps.cpuTimeoutMs,
      bindings: brainBindings(name, ctx, available, deps),
    });
    return { content: typeof value === 'string' ? value : JSON.stringify(value) };
  } catch (error) {
    if (error instanceof ScriptError) {
      return { content: `Script '${name}' failed (${error.kind}${error.line !== null ? `, line ${error.line}` : ''}): ${error.message}`, isError: true };
    }
    throw error;
  }
}

/** The BRAIN surface of seed 000 §13.4: tool, workspace, context, log. */
export function brainBindings(source: string, ctx: ToolInvocationContext, available: AvailableSkill | null, deps: Pick<ScriptToolDeps, 'workspace' | 'maxToolDepth'>): BindingTree {
  const logs = new LogLimiter();
  const maxDepth = deps.maxToolDepth ?? DEFAULT_MAX_TOOL_DEPTH;
  const skill = available ? { name: available.skill.name, title: available.skill.title, version: available.skill.version, source: available.source } : null;
  return {
    // A wait for the tool, not the script's compute (its own limits apply to the tool).
    tool: externalWait(async (toolName, params) => {
      if (typeof toolName !== 'string') throw new Error('vance.tool(name, params): name must be a string');
      const turn = ctx.turn;
      if (!turn) throw new Error('vance.tool is only available during a turn');
      const depth = turn.depth + 1;
      if (depth > maxDepth) throw new Error(`vance.tool('${toolName}'): nested tool calls are limited to depth ${maxDepth}`);
      const args = params === undefined || params === null ? {} : params;
      if (typeof args !== 'object' || Array.isArray(args)) throw new Error('vance.tool(name, params): params must be an object');
      const result = await turn.callTool(toolName, args as Record<string, unknown>, depth);
      if (result.isError) throw new Error(result.content);
      return result.content;
    }),
    workspace: {
      read: (path) => deps.workspace.read(ctx, path),
      write: (path, content) => deps.workspace.write(ctx, path, content),
      list: (prefix) => deps.workspace.list(ctx, prefix),
      delete: (path) => deps.workspace.delete(ctx, path),
    },
    context: () => scriptContext(ctx.process, { skill, turnId: ctx.turn?.turnId ?? null }),
    log: async (level, message) => {
      const line = logs.admit(level, message);
      if (line && ctx.turn) await ctx.turn.log(source, line.level, line.message);
      return null;
    },
  };
}
