import type { Layer } from '../cascade/layer';
import { isModelInvocable } from '../skills/invocation-policy';
import type { Skill, WhenMode } from '../skills/skill';
import type { SecondaryMiss, TriggerEvaluation, TriggerMatch } from '../processes/triggers/trigger-match';

/**
 * Every candidate skill's verdict for one turn (issue 8, seed 003 "Each verdict carries one plain
 * sentence of why"): on or off, and why. Pure: the caller gives the candidates (the scope's skills),
 * the process state and the trigger evaluation of this turn (TriggerIndex.evaluate with
 * `{ active: activeSkills' names, allowedSkillsOverride: allowedSkills }` over the scan window), and
 * turns on / closes what the verdicts say. Checked in this order; the first rule that applies decides:
 *
 * | # | when              | situation                                                      | on  | reason                                                            |
 * |---|-------------------|----------------------------------------------------------------|-----|-------------------------------------------------------------------|
 * | 1 | any               | `enabled: false`                                               | off | "Disabled."                                                       |
 * | 2 | any               | active on the process (explicit, recipe, `--once`, trigger)    | on  | the active ref's own reason, e.g. "Explicit: /skill code-review." |
 * | 3 | any               | `allowedSkills` is a list without it ([] = lockdown)           | off | "Not allowed by the recipe."                                      |
 * | 4 | always            | —                                                              | on  | "Always on."                                                      |
 * | 5 | picked            | open, `closeWhenUnmentioned`, triggers that no longer match    | off | "Closed: no longer mentioned." (`closes: true`)                   |
 * | 6 | picked            | open                                                           | on  | "Open (picked by the model)."                                     |
 * | 7 | picked            | `disable-model-invocation: true`                               | off | "Not opened: the model may not pick it (disable-model-invocation)." |
 * | 8 | picked            | not open                                                       | off | "Not opened."                                                     |
 * | 9 | mentioned / none  | no triggers                                                    | off | mentioned: "No triggers."; none: "Not active."                    |
 * |10 | none              | `run.target: spawn`                                            | off | "Not triggered: a spawn skill runs only via /skill."              |
 * |11 | mentioned / none  | `scanDepth: 0`                                                 | off | "Scan depth 0: never matches."                                    |
 * |12 | mentioned / none  | `disable-model-invocation: true`                               | off | "Not triggered: disable-model-invocation leaves only /skill."     |
 * |13 | none              | matched, `lifecycle: shot`                                     | off | "Matched, but a shot skill fires only via /skill."                |
 * |14 | mentioned         | matched                                                        | on  | "Mentioned: sword." (the hit words / matched text)                |
 * |15 | none              | matched                                                        | on  | "Auto-triggered: review, diff."                                   |
 * |16 | mentioned / none  | primary matched, secondary triggers said no                    | off | "Secondary triggers not met (AND ALL: moon)." / "Excluded by secondary triggers (NOT ANY: moon)." |
 * |17 | mentioned         | otherwise                                                      | off | "Not mentioned."                                                  |
 * |18 | none              | otherwise                                                      | off | "Not triggered."                                                  |
 *
 * "While the recipe links it" (seed 003, `always`) is read as: the recipe's whitelist admits it
 * (null = every skill). A `picked` skill with no triggers or scan depth 0 stays open (seed 003).
 */
export interface VerdictCandidate {
  readonly name: string;
  readonly skill: Skill;
  readonly source?: Layer;
}

export interface ActivationState {
  /** process.activeSkills (name and reason are enough). */
  readonly activeSkills: readonly { readonly name: string; readonly reason: string }[];
  /** The `picked` skills open on the reply being written. */
  readonly openSkills: readonly string[];
  /** process.allowedSkillsOverride: null = no restriction, [] = lockdown. */
  readonly allowedSkills: readonly string[] | null;
}

export interface SkillVerdict {
  readonly skill: string;
  readonly on: boolean;
  readonly reason: string;
  readonly when: WhenMode | null;
  readonly source: Layer | null;
  /** An open `picked` skill whose close rule holds this turn: the caller closes it. */
  readonly closes: boolean;
}

export function skillVerdicts(candidates: readonly VerdictCandidate[], state: ActivationState, triggers: TriggerEvaluation): SkillVerdict[] {
  const active = new Map(state.activeSkills.map((ref) => [ref.name, ref.reason]));
  const open = new Set(state.openSkills);
  const allowed = state.allowedSkills === null ? null : new Set(state.allowedSkills);
  const matches = new Map<string, TriggerMatch>(triggers.matches.map((m) => [m.skill, m]));
  const misses = new Map<string, SecondaryMiss>(triggers.misses.map((m) => [m.skill, m]));
  return candidates.map((candidate) => {
    const decided = decide(candidate, { active, open, allowed, matches, misses });
    return { skill: candidate.name, when: candidate.skill.activation.when, source: candidate.source ?? null, closes: false, ...decided };
  });
}

interface Lookup {
  readonly active: ReadonlyMap<string, string>;
  readonly open: ReadonlySet<string>;
  readonly allowed: ReadonlySet<string> | null;
  readonly matches: ReadonlyMap<string, TriggerMatch>;
  readonly misses: ReadonlyMap<string, SecondaryMiss>;
}

type Decision = { readonly on: boolean; readonly reason: string; readonly closes?: boolean };

const off = (reason: string): Decision => ({ on: false, reason });

function decide(candidate: VerdictCandidate, l: Lookup): Decision {
  const { name, skill } = candidate;
  if (!skill.enabled) return off('Disabled.');
  const activeReason = l.active.get(name);
  if (activeReason !== undefined) return { on: true, reason: activeReason };
  if (l.allowed !== null && !l.allowed.has(name)) return off('Not allowed by the recipe.');
  const when = skill.activation.when;
  switch (when) {
    case 'always':
      return { on: true, reason: 'Always on.' };
    case 'picked':
      return picked(candidate, l);
    case 'mentioned':
    case null:
      return triggered(candidate, when, l);
    default: {
      const never: never = when;
      return never;
    }
  }
}

function picked({ name, skill }: VerdictCandidate, l: Lookup): Decision {
  if (l.open.has(name)) {
    const closeRuleApplies = skill.activation.closeWhenUnmentioned && skill.triggers.length > 0 && skill.activation.scanDepth > 0;
    if (closeRuleApplies && !l.matches.has(name)) return { on: false, reason: 'Closed: no longer mentioned.', closes: true };
    return { on: true, reason: 'Open (picked by the model).' };
  }
  if (!isModelInvocable(skill)) return off('Not opened: the model may not pick it (disable-model-invocation).');
  return off('Not opened.');
}

function triggered({ name, skill }: VerdictCandidate, when: 'mentioned' | null, l: Lookup): Decision {
  const mentioned = when === 'mentioned';
  if (skill.triggers.length === 0) return off(mentioned ? 'No triggers.' : 'Not active.');
  if (!mentioned && skill.run.target === 'spawn') return off('Not triggered: a spawn skill runs only via /skill.');
  if (skill.activation.scanDepth === 0) return off('Scan depth 0: never matches.');
  if (!isModelInvocable(skill)) return off('Not triggered: disable-model-invocation leaves only /skill.');
  const match = l.matches.get(name);
  if (match) {
    if (!mentioned && skill.lifecycle === 'shot') return off('Matched, but a shot skill fires only via /skill.');
    return { on: true, reason: `${mentioned ? 'Mentioned' : 'Auto-triggered'}: ${match.evidence.join(', ')}.` };
  }
  const miss = l.misses.get(name);
  if (miss) return off(miss.reason);
  return off(mentioned ? 'Not mentioned.' : 'Not triggered.');
}
