/**
 * Deferred tools (seed 004 §6, §6.2: `allowedToolsDefer`, `allowedToolsDropFirst` under `maxTools`):
 * allowed and callable by name, but offered without their schemas. The model reaches them through
 * two meta-tools of the turn — `tool_list` (names, labels and one-line descriptions, optionally of
 * one label) and `tool_describe` (the schema of one) — so a pool of 80 tools does not put 80 schemas
 * into every request. A tool described this turn is offered with its schema from the next model
 * call of the turn on (`DeferredToolShelf.loaded`): providers only accept calls to declared tools.
 */
import type { ServerTool, ToolResult } from './server-tool';
import type { ToolDescriptor } from './tool-descriptor';
import type { ToolSpec } from './tool-registry';

export const TOOL_LIST = 'tool_list';
export const TOOL_DESCRIBE = 'tool_describe';
export const DEFERRED_META_TOOLS: readonly string[] = [TOOL_LIST, TOOL_DESCRIBE];
const META_LABELS: readonly string[] = ['read', 'tools'];
/** What the tool pool lists for the meta-tools when anything is deferred (recipes/tool-pool.ts). */
export const DEFERRED_META_DESCRIPTORS: readonly ToolDescriptor[] = DEFERRED_META_TOOLS.map((name) => ({ name, labels: META_LABELS }));

/** A deferred tool: its spec (what tool_describe shows and loading offers) and labels. */
export interface DeferredTool extends ToolSpec {
  readonly labels: readonly string[];
}

/** The deferred tools of one turn and which of them tool_describe loaded. */
export class DeferredToolShelf {
  private readonly byName: ReadonlyMap<string, DeferredTool>;
  private readonly loadedNames = new Set<string>();

  constructor(readonly tools: readonly DeferredTool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
  }

  get(name: string): DeferredTool | undefined {
    return this.byName.get(name);
  }

  load(name: string): void {
    if (this.byName.has(name)) this.loadedNames.add(name);
  }

  /** The specs tool_describe loaded this turn, in load order. */
  loaded(): ToolSpec[] {
    return [...this.loadedNames].map((n) => this.byName.get(n)!).map(({ name, description, parameters }) => ({ name, description, parameters }));
  }
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

const result = (value: unknown): ToolResult => ({ content: JSON.stringify(value, null, 2) });

/** tool_list and tool_describe over the turn's shelf. */
export function deferredMetaTools(shelf: DeferredToolShelf): ServerTool[] {
  const count = shelf.tools.length;
  const list: ServerTool = {
    name: TOOL_LIST,
    labels: META_LABELS,
    description:
      `${count} more tool${count === 1 ? ' is' : 's are'} available to you without being loaded. List them (names, labels, one line each), ` +
      'optionally only those with one label; then load one with tool_describe(name) and call it by name.',
    parameters: { type: 'object', properties: { label: { type: 'string', description: 'Only tools with this label (without @).' } }, additionalProperties: false },
    async invoke(args) {
      const label = typeof args.label === 'string' ? args.label.trim().replace(/^@/, '').toLowerCase() : '';
      const tools = shelf.tools.filter((t) => label === '' || t.labels.includes(label));
      return result({ tools: tools.map((t) => ({ name: t.name, labels: t.labels, description: firstLine(t.description) })), count: tools.length });
    },
  };
  const describe: ServerTool = {
    name: TOOL_DESCRIBE,
    labels: META_LABELS,
    description: 'The full description and parameter schema of one tool that tool_list lists. After this call the tool is loaded: call it by name.',
    parameters: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false },
    async invoke(args) {
      const name = String(args.name ?? '').trim();
      const tool = shelf.get(name);
      if (!tool) return { content: `No tool '${name}' waits to be loaded; tool_list lists the ones that do.`, isError: true };
      shelf.load(name);
      return result({ name: tool.name, labels: tool.labels, description: tool.description, parameters: tool.parameters, loaded: true });
    },
  };
  return [list, describe];
}
