/**
 * The server tools a turn can call, behind one dispatch point (issue 5 "Engines"): the registry lists
 * their descriptors (the ToolCatalog port the tool-pool resolver expands selectors against), hands the
 * model the specs of the turn's allowed pool, and dispatches a call — refusing a tool outside the pool
 * even when the model calls it, validating the arguments against the tool's schema, turning failures
 * into error results the turn goes on from, and capping what a result may put into the context.
 * Client tools (seed 004 §6.2) are known per turn and will be dispatched beside these.
 */
import { DomainError } from '../errors';
import { validateJson, type JsonSchema } from './builtin/json-schema';
import type { ServerTool, ToolInvocationContext, ToolResult } from './server-tool';
import type { ToolCatalog, ToolDescriptor } from './tool-descriptor';

export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/**
 * What the model is offered for a tool: structurally the ModelProvider port's ToolSpec
 * (llm/model-provider.ts), restated because the lint rule against the outer `llm/` adapter folder
 * also matches the domain's own `llm/` folder.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Lower-cased, as list() gives them; shown in previews, not sent to the provider. */
  readonly labels?: readonly string[];
}

export interface ToolRegistryOptions {
  /** Longest result content handed back to the model; longer content is cut with a note. */
  readonly maxResultChars?: number;
  /** Told about a tool failure that is not a DomainError (the model only sees a generic message). */
  readonly onUnexpectedError?: (tool: string, error: unknown) => void;
}

/** `ALL`: no restriction (an engine with an empty base and no recipe filter, seed 004 §6.1). */
export type AllowedTools = ReadonlySet<string> | 'ALL';

export function notAvailable(name: string): ToolResult {
  return { content: `Tool '${name}' is not available in this turn`, isError: true };
}

export class ToolRegistry implements ToolCatalog {
  private readonly tools = new Map<string, ServerTool>();
  private listed: readonly ToolDescriptor[] | null = null;
  private readonly maxResultChars: number;

  constructor(tools: Iterable<ServerTool> = [], private readonly options: ToolRegistryOptions = {}) {
    this.maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool; a second tool with the same name is a wiring error. */
  register(tool: ServerTool): void {
    if (this.tools.has(tool.name)) throw new Error(`Tool '${tool.name}' is registered twice`);
    if (tool.parameters['type'] !== 'object') throw new Error(`Tool '${tool.name}': parameters must be a JSON schema of type object`);
    this.tools.set(tool.name, tool);
    this.listed = null;
  }

  get(name: string): ServerTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Registration order; labels lower-cased. */
  list(): readonly ToolDescriptor[] {
    this.listed ??= Object.freeze([...this.tools.values()].map((t) =>
      Object.freeze({ name: t.name, labels: Object.freeze(t.labels.map((l) => l.toLowerCase())), description: t.description })));
    return this.listed;
  }

  /** The turn toolbox's name for list(). */
  descriptors(): readonly ToolDescriptor[] {
    return this.list();
  }

  /** The specs for the model of the allowed tools this registry holds, in the order given (registration order for ALL); unknown names are skipped (client tools). */
  specs(names: Iterable<string> | 'ALL'): ToolSpec[] {
    const selected = names === 'ALL' ? [...this.tools.values()] : [...new Set(names)].map((n) => this.tools.get(n)).filter((t): t is ServerTool => t !== undefined);
    return selected.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, labels: t.labels.map((l) => l.toLowerCase()) }));
  }

  /**
   * Runs one tool call. Never throws for anything the model did: a tool outside `allowed`, an unknown
   * tool, arguments that are not JSON or do not fit the schema, and a failing tool all become error results.
   */
  async dispatch(name: string, rawArgs: unknown, allowed: AllowedTools, ctx: ToolInvocationContext): Promise<ToolResult> {
    if (allowed !== 'ALL' && !allowed.has(name)) return notAvailable(name);
    const tool = this.tools.get(name);
    if (!tool) return notAvailable(name);
    const parsed = parseArgs(rawArgs);
    if ('problem' in parsed) return { content: `Invalid arguments for '${name}': ${parsed.problem}`, isError: true };
    const problems = validateJson(tool.parameters as JsonSchema, parsed.args);
    if (problems.length > 0) return { content: `Invalid arguments for '${name}': ${problems.join('; ')}`, isError: true };
    if (ctx.signal?.aborted) return { content: `Tool '${name}' was not run: the turn was cancelled`, isError: true };
    let result: ToolResult;
    try {
      result = await tool.invoke(parsed.args, ctx);
    } catch (error) {
      if (error instanceof DomainError) return { content: `Tool '${name}' failed: ${error.message}`, isError: true };
      this.options.onUnexpectedError?.(name, error);
      return { content: `Tool '${name}' failed with an internal error; try again later or continue without it`, isError: true };
    }
    return this.cap(result);
  }

  private cap(result: ToolResult): ToolResult {
    const content = typeof result.content === 'string' ? result.content : String(result.content);
    if (content.length <= this.maxResultChars) return result.isError ? { content, isError: true } : { content };
    const cut = content.slice(0, this.maxResultChars);
    const note = `\n\n[Result truncated: showing the first ${this.maxResultChars} of ${content.length} characters.]`;
    return result.isError ? { content: cut + note, isError: true } : { content: cut + note };
  }
}

function parseArgs(raw: unknown): { args: Record<string, unknown> } | { problem: string } {
  if (raw === undefined || raw === null) return { args: {} };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { args: {} };
    try {
      value = JSON.parse(raw);
    } catch {
      return { problem: 'the arguments are not valid JSON; send a JSON object' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'the arguments must be a JSON object' };
  return { args: value as Record<string, unknown> };
}
