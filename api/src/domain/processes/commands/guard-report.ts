import { activeGuards, runsAt, type ActiveGuard } from '../../guards/active-guard';
import type { GuardTrigger } from '../../recipes/recipe';
import type { CommandContext, CommandEffect } from './command-dispatcher';

/**
 * `guard list` and `guard status` (seed 000 §2a, issue 16): what a process's guards are and where
 * they stand, as text for the COMMAND_RAN event and the engineCommand answer. Both read the context
 * only and change nothing (an empty patch). The guards are the recipe's (as the caller may see them)
 * and the runtime ones, in the order they run, each named by its label and its guard key — the key
 * `Process.guardRounds` and `Process.guardScratch` use.
 */

/** At most this many scratch keys are named per map; the rest are counted. */
export const MAX_LISTED_SCRATCH_KEYS = 20;

export function guardList(ctx: CommandContext): CommandEffect {
  const guards = guardsOf(ctx);
  if (guards.length === 0) return { patch: {}, detail: 'No guards: the recipe has none and no runtime guard is installed.' };
  const fromRecipe = guards.filter((g) => g.origin === 'recipe').length;
  const lines = guards.map((g) => {
    const parts = [`${g.origin} guard`, `trigger ${g.trigger}`, rounds(g.trigger, `maxRounds ${g.maxRounds}`)];
    if (g.origin === 'runtime') parts.push(`installed by ${g.installedBy ?? '(unknown)'}`);
    return `- ${name(g)}: ${parts.join(', ')}`;
  });
  const head = `${plural(guards.length, 'guard')} (${fromRecipe} from the recipe, ${guards.length - fromRecipe} runtime):`;
  return effect(ctx, fromRecipe, [head, ...lines].join('\n'));
}

export function guardStatus(ctx: CommandContext): CommandEffect {
  const guards = guardsOf(ctx);
  if (guards.length === 0) return { patch: {}, detail: 'No guards: the recipe has none and no runtime guard is installed.' };
  const lines = guards.map((g) => {
    const used = ctx.guardRounds?.[g.key] ?? 0;
    const round = rounds(g.trigger, `round ${used} of ${g.maxRounds}${used >= g.maxRounds ? ' (at the cap)' : ''}`);
    const scratch = ctx.guardScratch?.[g.key];
    return `- ${name(g)}: ${round}; loop scratch: ${keys(scratch?.loop)}; session scratch: ${keys(scratch?.session)}`;
  });
  return effect(ctx, guards.filter((g) => g.origin === 'recipe').length, ['Guard status (rounds since the last user message):', ...lines].join('\n'));
}

function guardsOf(ctx: CommandContext): ActiveGuard[] {
  return activeGuards({ recipeGuards: ctx.recipeGuards ?? [], guards: ctx.guards });
}

/** A listing that names recipe guards of the owner's USER layer is the owner's only (owner-view.ts). */
function effect(ctx: CommandContext, recipeGuardsShown: number, detail: string): CommandEffect {
  return { patch: {}, detail, ...(ctx.recipeGuardsPrivate && recipeGuardsShown > 0 ? { private: true } : {}) };
}

function name(guard: ActiveGuard): string {
  return `${guard.label} [${guard.key}]`;
}

/** Rounds are counted at the yield points only (stop, terminate, both); start and command guards have none. */
function rounds(trigger: GuardTrigger, text: string): string {
  return runsAt(trigger, 'stop') || runsAt(trigger, 'terminate') ? text : 'no rounds';
}

function keys(map: Readonly<Record<string, unknown>> | undefined): string {
  const all = Object.keys(map ?? {}).sort();
  if (all.length === 0) return '(empty)';
  const shown = all.slice(0, MAX_LISTED_SCRATCH_KEYS).join(', ');
  return all.length > MAX_LISTED_SCRATCH_KEYS ? `${shown} … and ${all.length - MAX_LISTED_SCRATCH_KEYS} more` : shown;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
