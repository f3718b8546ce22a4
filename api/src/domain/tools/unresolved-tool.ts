/**
 * Save-time advice on a tool entry (a recipe's allowedTools* lists, a skill's `tools:`) that selects
 * no tool of this deployment's catalog (issue 15): the run expands it to nothing, or to a client
 * tool only if the connected client happens to offer one (seed 004 §6.2), so the author hears it at
 * save, with the line, instead of finding a tool missing from a turn. A WARNING, never an error:
 * client tools are known only per session.
 */
import { matchesSelector, parseToolSelector } from './select';
import type { ToolDescriptor } from './tool-descriptor';

/**
 * The client-tool namespace (seed 004 §6a, §6b: `client_file_*`, `client_exec_*` are the FOOT
 * client's): recipes add and remove these per profile by design, so naming one is not a sign of a
 * missing server tool. Measured: without this, every bundled recipe warned at its `web` and
 * `default` profile's `allowedToolsRemove: [client_*]`.
 */
const CLIENT_TOOL_PREFIX = 'client_';

/** Why `entry` selects no tool of `tools`, or null when it selects one (or is not a selector at all: the parser reports that). */
export function unresolvedToolProblem(entry: string, tools: readonly ToolDescriptor[]): string | null {
  const selector = parseToolSelector(entry);
  if (selector === null || tools.some((tool) => matchesSelector(tool, selector))) return null;
  if ((selector.kind === 'NAME' ? selector.name : selector.kind === 'PREFIX' ? selector.prefix : '').startsWith(CLIENT_TOOL_PREFIX)) return null;
  switch (selector.kind) {
    case 'NAME':
      return `no server tool is named '${selector.name}'; it takes effect only if the connected client offers a tool of that name`;
    case 'LABEL':
      return `no server tool carries the label @${selector.label}; it takes effect only for client tools with that label`;
    case 'PREFIX':
      return `no server tool name starts with '${selector.prefix}'; it takes effect only for client tools whose names do`;
    default: {
      const never: never = selector;
      return never;
    }
  }
}
