/**
 * The tool pool of a turn (seed 004 §6, §6a, §6.1, §6.2; seed 000 §5b):
 *   allowed = (engine.allowed ∪ recipe.add ∪ profile.add) ∖ (recipe.remove ∪ profile.remove) ∪ ⋃ skill.tools
 * Entries are names, `@label` selectors or `prefix*` patterns, expanded against the available tools:
 * the deployment's tools plus, per turn, the session's client tools. An entry that matches none of
 * them adds nothing — a name included, so a preview never lists a tool the model does not get — and
 * is reported in `unresolvedTools` with the reason (issue 15). An empty engine base means unrestricted: add changes nothing and remove
 * yields "all minus removed". Skills only ever add — a tool a recipe removed comes back when an
 * active skill needs it. `allowedToolsDefer` moves matches to the deferred discovery block unless a
 * recipe or profile `add` names them exactly ("promote to primary"); then the maxTools budget ranks.
 */
import { expandSelectors, parseToolSelector } from '../tools/select';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { findUnresolvedTools, type UnresolvedTool } from '../tools/unresolved-tools';
import { DEFERRED_META_DESCRIPTORS, DEFERRED_META_TOOLS } from '../tools/deferred-tools';
import type { ToolOrigin } from '../tools/tool-source';
import { applyToolBudget } from './tool-budget';

export interface ToolPoolInput {
  /** Server tools (and, per turn, client tools) the pool is computed over. */
  readonly available: readonly ToolDescriptor[];
  /** The engine's default whitelist; empty = unrestricted (seed 004 §6.1). */
  readonly engineAllowed: readonly string[];
  readonly add: readonly string[];
  readonly remove: readonly string[];
  /** Tools of the active skills (seed 000 §5b): only ever added. */
  readonly skillTools?: readonly string[];
  readonly defer?: readonly string[];
  readonly keep?: readonly string[];
  readonly dropFirst?: readonly string[];
  readonly maxTools?: number | null;
}

export interface ToolPool {
  /** Engine base empty and nothing removed: every tool, also ones added later. */
  readonly unrestricted: boolean;
  /** Every tool the turn may call, sorted. */
  readonly allowed: readonly string[];
  /** Offered with their schema, sorted. */
  readonly primary: readonly string[];
  /** Offered by name in the discovery block (callable), sorted. */
  readonly deferred: readonly string[];
  /** Which of `deferred` the maxTools budget moved there, in cut order. */
  readonly deferredByBudget: readonly string[];
  /** Tools removed by the recipe or profile (and not brought back by a skill), sorted. */
  readonly removed: readonly string[];
  /** Entries that matched no available tool, as written (not offered, not callable). */
  readonly unresolved: readonly string[];
  /** The same entries with the list each came from and why it resolved to nothing. */
  readonly unresolvedTools: readonly UnresolvedTool[];
  /** Every allowed tool with its labels (what `@label` selectors match) and how the model gets it, sorted by name. */
  readonly details: readonly PoolTool[];
  /** Keep matches the budget could not hold either. */
  readonly keepOverflow: readonly string[];
}

/** PRIMARY: offered with its schema; DEFERRED: listed by tool_list, loaded by tool_describe, callable by name. */
export type ToolPlacement = 'PRIMARY' | 'DEFERRED';

export interface PoolTool {
  readonly name: string;
  readonly labels: readonly string[];
  readonly placement: ToolPlacement;
  /** Where the tool comes from (issue 19); set by the turn composer, absent in a pool computed without a turn. */
  readonly origin?: ToolOrigin;
}

export function computeToolPool(input: ToolPoolInput): ToolPool {
  const skillTools = input.skillTools ?? [];
  const universe = input.available;
  const expand = (entries: readonly string[]) => expandSelectors(entries, universe);
  const base = input.engineAllowed.length === 0 ? universe.map((t) => t.name) : expand(input.engineAllowed).names;
  const added = expand(input.add);
  const removed = expand(input.remove);
  const skills = expand(skillTools);
  const removedSet = new Set(removed.names);
  const allowed = new Set([...base, ...added.names].filter((n) => !removedSet.has(n)));
  for (const name of skills.names) allowed.add(name);

  const promoted = new Set(input.add.map(parseToolSelector).flatMap((s) => (s?.kind === 'NAME' ? [s.name] : [])));
  const byName = new Map(universe.map((t) => [t.name, t]));
  // A tool registered deferred stays deferred unless an add names it (seed 004 §6.2: "retain their own deferred() flag").
  const flagged = [...allowed].filter((n) => byName.get(n)?.deferred === true);
  const deferSet = new Set([...expand(input.defer ?? []).names, ...flagged].filter((n) => allowed.has(n) && !promoted.has(n)));
  const candidates = [...allowed].filter((n) => !deferSet.has(n)).map((n) => byName.get(n)!);
  const budget = applyToolBudget({ tools: candidates, keep: input.keep ?? [], dropFirst: input.dropFirst ?? [], maxTools: surface(input.maxTools, deferSet.size > 0, candidates.length) });

  const deferred = [...deferSet, ...budget.deferred].sort();
  const deferredSet = new Set(deferred);
  // Deferred tools are reached through tool_list/tool_describe (tools/deferred-tools.ts): part of the pool, so every preview shows them.
  const meta = deferred.length === 0 ? [] : DEFERRED_META_DESCRIPTORS.filter((t) => !byName.has(t.name));
  for (const t of meta) {
    allowed.add(t.name);
    byName.set(t.name, t);
  }
  const unresolvedTools = findUnresolvedTools({
    engine: input.engineAllowed, allowedToolsAdd: input.add, allowedToolsRemove: input.remove, tools: skillTools,
    allowedToolsDefer: input.defer ?? [], allowedToolsKeep: input.keep ?? [], allowedToolsDropFirst: input.dropFirst ?? [],
  }, universe);
  return {
    unrestricted: input.engineAllowed.length === 0 && input.remove.length === 0,
    allowed: [...allowed].sort(),
    primary: [...budget.primary, ...meta.map((t) => t.name)].sort(),
    deferred,
    deferredByBudget: budget.deferred,
    removed: removed.names.filter((n) => !allowed.has(n)).sort(),
    unresolved: [...new Set(unresolvedTools.map((u) => u.entry))],
    unresolvedTools,
    keepOverflow: budget.keepOverflow,
    details: [...allowed].sort().map((name) => ({
      name, labels: byName.get(name)!.labels, placement: deferredSet.has(name) ? 'DEFERRED' as const : 'PRIMARY' as const,
    })),
  };
}

/**
 * The budget for the pool's own tools: when anything is deferred, tool_list and tool_describe join
 * the offered tools (tools/deferred-tools.ts), so they take two of the maxTools places.
 */
function surface(maxTools: number | null | undefined, deferring: boolean, candidates: number): number | null {
  if (maxTools === null || maxTools === undefined) return null;
  return deferring || candidates > maxTools ? Math.max(0, maxTools - DEFERRED_META_TOOLS.length) : maxTools;
}

const BUILTIN_ORIGIN: ToolOrigin = Object.freeze({ kind: 'BUILTIN' });

/**
 * Each pool entry with where its tool comes from (issue 19: previews show it); a name not in
 * `origins` is a built-in. Added per request, after the pool cache: a cached pool is shared by
 * scopes whose catalogs look alike, their origins are not.
 */
export function withToolOrigins(pool: ToolPool, origins: ReadonlyMap<string, ToolOrigin>): ToolPool {
  return { ...pool, details: pool.details.map((d) => ({ ...d, origin: origins.get(d.name) ?? BUILTIN_ORIGIN })) };
}
