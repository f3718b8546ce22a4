/**
 * Shared pieces of the built-in tools: result helpers, the active skills of the invoking process
 * and the name of its project (services address projects by name).
 */
import type { IdentityService } from '../../identity/identity-service';
import type { Process } from '../../processes/process';
import type { AvailableSkill, SkillResolver } from '../../skills/skill-resolver';
import type { ServerTool, ToolInvocationContext, ToolResult } from '../server-tool';
import type { JsonSchema } from './json-schema';

/** A ServerTool whose `parameters` is the JSON-schema subset the registry validates. */
export interface BuiltinTool extends ServerTool {
  readonly parameters: JsonSchema;
}

export function ok(content: string): ToolResult {
  return { content };
}

/** A refusal the turn goes on from; the message is written for the model. */
export function refuse(content: string): ToolResult {
  return { content, isError: true };
}

export function json(value: unknown): ToolResult {
  return ok(JSON.stringify(value, null, 2));
}

/** Reads an argument the registry has already validated against the schema. */
export function str(args: Readonly<Record<string, unknown>>, name: string): string {
  const value = args[name];
  return typeof value === 'string' ? value : '';
}

export function optionalStr(args: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = args[name];
  return typeof value === 'string' ? value : null;
}

export function quoteList(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.map((item) => `'${item}'`).join(', ');
}

/** The names of the skills active on the process, in activation order, without duplicates. */
export function activeSkillNames(process: Process): string[] {
  return [...new Set(process.activeSkills.map((ref) => ref.name))];
}

/**
 * The process's active skills as the scope resolves them now (engines re-resolve per turn,
 * seed 000 §5d); gone, disabled or broken ones are skipped. `shot` skills never register their
 * manuals or references (seed 000 §2c), so they are left out too.
 */
export async function resolveActiveSkills(skills: SkillResolver, ctx: ToolInvocationContext): Promise<AvailableSkill[]> {
  const resolved = await skills.resolveAll(ctx.scope, activeSkillNames(ctx.process));
  return resolved.filter((s) => s.skill.lifecycle !== 'shot');
}

export type ProjectNames = Pick<IdentityService, 'findProjectById'>;

export async function projectNameOf(identity: ProjectNames, ctx: ToolInvocationContext): Promise<string> {
  return (await identity.findProjectById(ctx.principal, ctx.process.projectId)).name;
}
