/**
 * Tool-surface budget (seed 004 §2 allowedToolsKeep / allowedToolsDropFirst): pure ranking, never
 * visibility. When more tools are offered than `maxTools` allows, the cut moves tools to the deferred
 * discovery block (still callable by name): first the dropFirst matches, then the unranked, keep
 * matches last — keep wins where an entry matches both. Within a group the cut goes from the end of
 * the alphabet, so it is deterministic. Without maxTools nothing happens.
 */
import { anySelects } from '../tools/select';
import type { ToolDescriptor } from '../tools/tool-descriptor';

export interface ToolBudgetInput {
  /** The tools that would be offered with their schema, in any order. */
  readonly tools: readonly ToolDescriptor[];
  readonly keep: readonly string[];
  readonly dropFirst: readonly string[];
  readonly maxTools: number | null | undefined;
}

export interface ToolBudgetResult {
  readonly primary: readonly string[];
  /** Moved to the deferred block by the budget, in the order they were cut. */
  readonly deferred: readonly string[];
  /** Keep matches that did not fit either (the budget is smaller than the keep list). */
  readonly keepOverflow: readonly string[];
}

export function applyToolBudget(input: ToolBudgetInput): ToolBudgetResult {
  const sorted = [...input.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const max = input.maxTools;
  if (max === null || max === undefined || sorted.length <= max) {
    return { primary: sorted.map((t) => t.name), deferred: [], keepOverflow: [] };
  }
  const rank = (tool: ToolDescriptor): number => {
    if (anySelects(input.keep, tool)) return 0;
    return anySelects(input.dropFirst, tool) ? 2 : 1;
  };
  // Highest rank (least important) and, within a rank, latest name is cut first.
  const ordered = sorted.map((tool) => ({ tool, rank: rank(tool) })).sort((a, b) => a.rank - b.rank);
  const kept = ordered.slice(0, Math.max(0, max));
  const cut = ordered.slice(Math.max(0, max)).reverse();
  return {
    primary: kept.map((e) => e.tool.name).sort(),
    deferred: cut.map((e) => e.tool.name),
    keepOverflow: cut.filter((e) => e.rank === 0).map((e) => e.tool.name),
  };
}
