/**
 * The guards of a process as one list (seed 004 §6d, seed 000 §2a): the recipe's `guard:` entries
 * snapshotted at spawn, then the runtime guards the `guard` commands installed. A runtime guard has
 * no params and runs at `stop` with the default round cap and the supervisor surface.
 */
import type { Process, RuntimeGuard } from '../processes/process';
import { DEFAULT_GUARD_MAX_ROUNDS, type GuardScript, type GuardTrigger, type RecipeGuard } from '../recipes/recipe';

/** Where a guard can run: the turn's start, after engine commands, the turn's end, a worker's end. */
export type GuardPoint = 'start' | 'command' | 'stop' | 'terminate';

/** Round cap when a guard sets none (a recipe's entry gets it at parse; runtime guards and old snapshots here). */
export const DEFAULT_MAX_ROUNDS = DEFAULT_GUARD_MAX_ROUNDS;

export interface ActiveGuard {
  /** Stable identity for the round counters: `recipe:<index>` or `runtime:<path|inline:hash>`. */
  readonly key: string;
  /** For events and logs: the path, or `inline guard (recipe)` etc. */
  readonly label: string;
  readonly script: GuardScript;
  readonly params: Readonly<Record<string, unknown>>;
  readonly trigger: GuardTrigger;
  readonly maxRounds: number;
  readonly allowTools: boolean;
  /** A recipe `guard:` entry (snapshotted at spawn), or a runtime guard a `guard` command installed. */
  readonly origin: 'recipe' | 'runtime';
  /** Runtime guards: who installed it (a login, `skill:<name>`); null for recipe guards. */
  readonly installedBy: string | null;
}

export function activeGuards(process: Pick<Process, 'recipeGuards' | 'guards'>): ActiveGuard[] {
  const recipe = process.recipeGuards.map((guard, index) => fromRecipe(guard, index));
  return [...recipe, ...process.guards.map(fromRuntime)];
}

/** Whether a guard with `trigger` runs at `point` (`both` = stop and terminate). */
export function runsAt(trigger: GuardTrigger, point: GuardPoint): boolean {
  return trigger === point || (trigger === 'both' && (point === 'stop' || point === 'terminate'));
}

/** Only yield points count rounds: a guard there can keep the engine going, so it must be capped. */
export function countsRounds(point: GuardPoint): boolean {
  return point === 'stop' || point === 'terminate';
}

function fromRecipe(guard: RecipeGuard, index: number): ActiveGuard {
  return {
    key: `recipe:${index}`,
    label: guard.script.kind === 'PATH' ? guard.script.path : `inline guard #${index + 1} of the recipe`,
    script: guard.script, params: guard.params, trigger: guard.trigger,
    maxRounds: guard.maxRounds ?? DEFAULT_MAX_ROUNDS, allowTools: guard.allowTools, origin: 'recipe', installedBy: null,
  };
}

function fromRuntime(guard: RuntimeGuard): ActiveGuard {
  const script: GuardScript = guard.kind === 'SCRIPT' ? { kind: 'PATH', path: guard.path } : { kind: 'INLINE', body: guard.body };
  return {
    key: guard.kind === 'SCRIPT' ? `runtime:${guard.path}` : `runtime:inline:${hash(guard.body)}`,
    label: guard.kind === 'SCRIPT' ? guard.path : 'inline runtime guard',
    script, params: {}, trigger: 'stop', maxRounds: DEFAULT_MAX_ROUNDS, allowTools: false, origin: 'runtime', installedBy: guard.installedBy,
  };
}

/** FNV-1a, hex: a short stable key for an inline body (not a security hash). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
