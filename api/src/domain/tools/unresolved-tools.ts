/**
 * Which tool-list entries resolve to nothing, and why (seed 004 §6, §6.2; seed 000 §5b): a name no
 * tool carries, a `@label` no tool has, a `prefix*` no tool starts with. Such an entry changes
 * nothing — it is not offered, not callable, not removed — until a tool that matches it exists; for
 * a server deployment that happens only when a connected client registers one for its session
 * (client tools resolve per turn). The tool pool (recipes/tool-pool.ts) reports these in its
 * preview, and save-time validation can report them with their lines through `unresolvedReason`.
 */
import { matchesSelector, parseToolSelector, type ToolSelector } from './select';
import type { ToolCatalog, ToolDescriptor } from './tool-descriptor';

export interface UnresolvedTool {
  /** The entry as written (trimmed). */
  readonly entry: string;
  /** The list it came from: `allowedToolsAdd`, …, `allowedToolsDefer`, `engine`, or `tools` (a skill's). */
  readonly field: string;
  readonly reason: string;
}

/** The fields of a recipe (and its profile blocks) and of a skill whose entries name tools. */
export type ToolListField =
  | 'engine' | 'allowedToolsAdd' | 'allowedToolsRemove' | 'allowedToolsKeep' | 'allowedToolsDropFirst' | 'allowedToolsDefer' | 'tools';

type Tools = ToolCatalog | readonly ToolDescriptor[];

const listOf = (tools: Tools): readonly ToolDescriptor[] => (Array.isArray(tools) ? tools : (tools as ToolCatalog).list());

/**
 * Why `entry` resolves to no tool of `tools`, or null when it matches one (or is not a selector at
 * all — the recipe and skill parsers report malformed entries themselves).
 */
export function unresolvedReason(entry: string, tools: Tools): string | null {
  const selector = parseToolSelector(entry);
  if (!selector) return null;
  const list = listOf(tools);
  return list.some((t) => matchesSelector(t, selector)) ? null : reasonFor(selector);
}

/** Every entry of the given lists that resolves to nothing, with its field and reason; duplicates once. */
export function findUnresolvedTools(lists: Partial<Readonly<Record<ToolListField, readonly string[]>>>, tools: Tools): UnresolvedTool[] {
  const list = listOf(tools);
  const out: UnresolvedTool[] = [];
  const seen = new Set<string>();
  for (const [field, entries] of Object.entries(lists) as [ToolListField, readonly string[] | undefined][]) {
    for (const raw of entries ?? []) {
      const entry = raw.trim();
      const key = `${field}\u0000${entry}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const reason = unresolvedReason(entry, list);
      if (reason !== null) out.push({ entry, field, reason });
    }
  }
  return out;
}

/**
 * The client-tool namespace (seed 004 §6a, §6b: `client_file_*`, `client_exec_*` are the FOOT
 * client's): recipes add and remove these per profile by design, so naming one is no sign of a
 * missing server tool. Measured: without this, every bundled recipe warned at its `web` and
 * `default` profile's `allowedToolsRemove: [client_*]`.
 */
const CLIENT_TOOL_PREFIX = 'client_';

/**
 * Save-time advice on a tool entry (a recipe's tool lists, a skill's `tools:`): the reason the run
 * will find no tool for it, said with its line when the document is saved instead of as a tool
 * missing from a turn. A warning, never an error: client tools are known only per session, and a
 * document is checked without a scope, so only against the built-ins — the tool documents and MCP
 * packs (issue 19) of the scope a process runs in may still provide the tool, and the message says
 * so. Names in the client namespace are not checked.
 */
export function unresolvedToolProblem(entry: string, tools: Tools): string | null {
  const selector = parseToolSelector(entry);
  if (!selector) return null;
  const name = selector.kind === 'NAME' ? selector.name : selector.kind === 'PREFIX' ? selector.prefix : '';
  if (name.startsWith(CLIENT_TOOL_PREFIX)) return null;
  return listOf(tools).some((t) => matchesSelector(t, selector)) ? null : savedReasonFor(selector);
}

const ELSEWHERE = 'a tool document or MCP pack of the scope the process runs in, or a connected client';

/** The save-time reason: what the built-ins lack, and who else may provide it at run time. */
function savedReasonFor(selector: ToolSelector): string {
  switch (selector.kind) {
    case 'NAME':
      return `no built-in tool is called '${selector.name}'; it resolves only where ${ELSEWHERE}, provides it`;
    case 'LABEL':
      return `label @${selector.label} matches no built-in tool; it resolves only where ${ELSEWHERE}, provides a tool with that label`;
    case 'PREFIX':
      return selector.prefix === ''
        ? 'the pattern * matches no built-in tool'
        : `no built-in tool name starts with '${selector.prefix}'; the pattern resolves only where ${ELSEWHERE}, provides such a tool`;
    default: {
      const never: never = selector;
      return never;
    }
  }
}

function reasonFor(selector: ToolSelector): string {
  switch (selector.kind) {
    case 'NAME':
      return `no tool of this deployment is called '${selector.name}'; it resolves only when a connected client registers it`;
    case 'LABEL':
      return `label @${selector.label} matches no tool; it resolves only when a connected client registers a tool with that label`;
    case 'PREFIX':
      return selector.prefix === ''
        ? 'the pattern * matches no tool: there are none'
        : `no tool name starts with '${selector.prefix}'; the pattern resolves only when a connected client registers such a tool`;
    default: {
      const never: never = selector;
      return never;
    }
  }
}
