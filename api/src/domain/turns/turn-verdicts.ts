import type { Process } from '../processes/process';
import type { TurnComposition } from './turn-composer';

/** At most this many verdicts ride on a SkillVerdicts event (composeTurnPreview has all). */
const MAX_EVENT_VERDICTS = 500;

/** The SkillVerdicts event's payload: the active skills, the composer's verdicts, open skills, warnings. */
export function verdicts(process: Process, composition: TurnComposition): Record<string, unknown> {
  const composed = new Set(composition.composedSkills);
  const all = composition.verdicts;
  return {
    skills: process.activeSkills.map((r) => ({
      skill: r.name, oneShot: r.oneShot, fromRecipe: r.fromRecipe, reason: r.reason, composed: composed.has(r.name),
    })),
    verdicts: all.slice(0, MAX_EVENT_VERDICTS).map((v) => ({ skill: v.skill, on: v.on, reason: v.reason, when: v.when })),
    ...(all.length > MAX_EVENT_VERDICTS ? { verdictsOmitted: all.length - MAX_EVENT_VERDICTS } : {}),
    openSkills: [...composition.openSkills.open],
    warnings: composition.warnings,
  };
}
