/**
 * The guards of a process as table rows: the recipe's entries snapshotted at spawn, then the
 * runtime guards the `guard` commands installed (seed 004 §6d). Rounds come from guardRounds by the
 * server's guard key (`recipe:<index>`, `runtime:<path>`); an inline runtime guard's key hashes its
 * body on the server, so its counter is listed among the unmatched ones rather than recomputed here.
 */
import type { GuardTrigger, Process } from '../api/types';

export interface GuardRow {
  key: string;
  origin: 'recipe' | 'runtime';
  /** The script path, or `inline`. */
  script: string;
  trigger: GuardTrigger;
  /** null: the server's default cap. */
  maxRounds: number | null;
  /** null: not known here (an inline runtime guard, see the module header). */
  rounds: number | null;
}

export function guardRows(p: Process): { rows: GuardRow[]; otherRounds: [string, number][] } {
  const rounds = p.guardRounds;
  const recipe = p.recipeGuards.map((g, i): GuardRow => ({
    key: `recipe:${i}`, origin: 'recipe', script: g.script.kind === 'PATH' ? g.script.path : 'inline',
    trigger: g.trigger, maxRounds: g.maxRounds, rounds: rounds[`recipe:${i}`] ?? 0,
  }));
  // A runtime guard always runs at stop with the default cap (api domain/guards/active-guard.ts).
  const runtime = p.guards.map((g, i): GuardRow => {
    const key = g.kind === 'SCRIPT' ? `runtime:${g.path ?? ''}` : `runtime:inline#${i}`;
    return { key, origin: 'runtime', script: g.kind === 'SCRIPT' ? g.path ?? '?' : 'inline', trigger: 'stop', maxRounds: null, rounds: g.kind === 'SCRIPT' ? rounds[key] ?? 0 : null };
  });
  const rows = [...recipe, ...runtime];
  const shown = new Set(rows.map((r) => r.key));
  return { rows, otherRounds: Object.entries(rounds).filter(([key]) => !shown.has(key)) };
}
