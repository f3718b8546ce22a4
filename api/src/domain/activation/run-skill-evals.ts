import type { TriggerIndex } from '../processes/triggers/trigger-index';
import { secondaryLabel, type TriggerMatch } from '../processes/triggers/trigger-match';
import type { AvailableSkill } from '../skills/skill-resolver';
import { conversationVerdicts, type RecipeStart } from './conversation-verdicts';
import type { FiresCase, PickedCase, SkillEvals } from './parse-skill-evals';
import type { SkillVerdict } from './skill-verdicts';

/**
 * Runs one skill's evals (issue 20) against a scope's skills: each `fires:` case through
 * conversationVerdicts — the turn's matcher and verdict sentences, so a passing case is a turn that
 * fires — and each `picked:` case through a model judge `runs` times against the threshold (skipped,
 * with a note, without one). Reports passed/failed, precision and recall of the skill's triggers,
 * and confusions: other skills of the scope that fire on this skill's positive messages.
 */
export interface SkillEvalEnvironment {
  /** The scope's available skills (the cascade's effective set, or the files of `vance eval`). */
  readonly skills: readonly AvailableSkill[];
  readonly index: TriggerIndex;
  /** A recipe's whitelist and default skills; throws when the recipe does not resolve. */
  recipe(name: string): Promise<RecipeStart>;
  /** null: no model provider is configured; `picked:` cases are skipped. */
  readonly judge: SkillPickJudge | null;
}

/** Asks a model, once, whether it opens `skill` (open_skill) for the conversation. */
export interface SkillPickJudge {
  opens(skill: AvailableSkill, skills: readonly AvailableSkill[], messages: readonly string[]): Promise<boolean>;
}

export interface EvalCaseResult {
  readonly index: number;
  readonly line: number;
  readonly kind: 'fires' | 'picked';
  readonly messages: readonly string[];
  readonly expected: boolean;
  readonly passed: boolean;
  readonly skipped: boolean;
  /** The skill's verdict sentence for the conversation (the turn's), or the picked rate / skip note. */
  readonly verdict: string;
  /** What did not hold, one sentence each; empty when passed. */
  readonly problems: readonly string[];
  /** Other skills of the scope that fire on this case (fires: true cases). */
  readonly confusions: readonly string[];
  /** picked: cases: the share of runs that met the expectation. */
  readonly rate: number | null;
}

export interface EvalConfusion {
  readonly skill: string;
  /** Case indexes (0-based) on which it fired too. */
  readonly cases: readonly number[];
}

export interface SkillEvalReport {
  readonly skill: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Of the `fires:` cases: fired and expected / fired; null when it never fired. */
  readonly precision: number | null;
  /** Of the `fires:` cases: fired and expected / expected; null with no positive case. */
  readonly recall: number | null;
  readonly confusions: readonly EvalConfusion[];
  readonly cases: readonly EvalCaseResult[];
  /** Why cases were skipped or could not run (no provider, skill not available). */
  readonly notes: readonly string[];
}

export async function runSkillEvals(skill: string, evals: SkillEvals, env: SkillEvalEnvironment): Promise<SkillEvalReport> {
  const self = env.skills.find((s) => s.name === skill) ?? null;
  const notes: string[] = [];
  if (!self) notes.push(`'${skill}' is not an available skill in this scope (disabled, invalid or hidden): every case sees it off.`);
  const cases: EvalCaseResult[] = [];
  const counts = { tp: 0, fp: 0, fn: 0 };
  for (const c of evals.cases) {
    if (c.kind === 'fires') {
      const result = await runFiresCase(skill, self, c, env);
      if (result.fired && c.fires) counts.tp++;
      else if (result.fired) counts.fp++;
      else if (c.fires) counts.fn++;
      cases.push(result.result);
    } else {
      cases.push(await runPickedCase(self, c, evals.picked, env));
    }
  }
  if (env.judge === null && cases.some((c) => c.kind === 'picked')) notes.push('picked: cases skipped: no model provider is configured.');
  return {
    skill,
    passed: cases.filter((c) => c.passed && !c.skipped).length,
    failed: cases.filter((c) => !c.passed).length,
    skipped: cases.filter((c) => c.skipped).length,
    precision: counts.tp + counts.fp === 0 ? null : counts.tp / (counts.tp + counts.fp),
    recall: counts.tp + counts.fn === 0 ? null : counts.tp / (counts.tp + counts.fn),
    confusions: confusionsOf(cases),
    cases,
    notes,
  };
}

async function runFiresCase(skill: string, self: AvailableSkill | null, c: FiresCase, env: SkillEvalEnvironment): Promise<{ fired: boolean; result: EvalCaseResult }> {
  const base = { index: c.index, line: c.line, kind: 'fires' as const, messages: c.messages, expected: c.fires, skipped: false, rate: null };
  let recipe: RecipeStart | null = null;
  if (c.recipe !== null) {
    try {
      recipe = await env.recipe(c.recipe);
    } catch (error) {
      const problem = `Recipe '${c.recipe}' does not resolve: ${error instanceof Error ? error.message : String(error)}`;
      return { fired: false, result: { ...base, passed: false, verdict: problem, problems: [problem], confusions: [] } };
    }
  }
  const { verdicts, evaluation, triggered } = conversationVerdicts(env.skills, env.index, c.messages, recipe, self);
  const verdict: Pick<SkillVerdict, 'on' | 'reason'> = verdicts.find((v) => v.skill === skill) ?? { on: false, reason: 'Not available in this scope.' };
  // Fired by a trigger: activated one-shot by the pre-turn hook, or on for the turn (`mentioned`).
  const matches = new Map<string, TriggerMatch>([...evaluation.matches, ...triggered].map((m) => [m.skill, m]));
  // Confusions: other skills turned on by their triggers (not by the recipe or `always`).
  const confusions = c.fires ? verdicts.filter((v) => v.on && v.skill !== skill && matches.has(v.skill)).map((v) => v.skill) : [];
  const problems: string[] = [];
  if (verdict.on !== c.fires) problems.push(c.fires ? 'Expected to fire; it did not.' : 'Expected not to fire; it did.');
  if (verdict.on && c.fires) {
    const match = matches.get(skill) ?? null;
    if (c.trigger !== null) problems.push(...triggerProblems(c.trigger, match));
    if (c.oneShot !== null) {
      const oneShot = triggered.some((m) => m.skill === skill);
      if (oneShot !== c.oneShot) problems.push(c.oneShot ? 'Expected a one-shot trigger activation; it is on for another reason (mentioned, always or the recipe).' : 'Expected it on for the turn, not activated one-shot.');
    }
    if (c.only && confusions.length > 0) problems.push(`Expected only this skill to fire; also: ${confusions.join(', ')}.`);
  }
  return { fired: verdict.on, result: { ...base, passed: problems.length === 0, verdict: verdict.reason, problems, confusions } };
}

function triggerProblems(expected: number | string, match: TriggerMatch | null): string[] {
  if (!match) return ['Expected a trigger to match; it is on without one.'];
  const label = secondaryLabel(match.trigger);
  const ok = typeof expected === 'number' ? match.triggerIndex === expected - 1 : label === expected || `/${expected}/` === label;
  return ok ? [] : [`Expected trigger ${typeof expected === 'number' ? `#${expected}` : `'${expected}'`}; trigger #${match.triggerIndex + 1} (${label}) matched.`];
}

async function runPickedCase(self: AvailableSkill | null, c: PickedCase, settings: SkillEvals['picked'], env: SkillEvalEnvironment): Promise<EvalCaseResult> {
  const base = { index: c.index, line: c.line, kind: 'picked' as const, messages: c.messages, expected: c.picked, confusions: [] };
  if (env.judge === null) return { ...base, passed: true, skipped: true, verdict: 'Skipped: no model provider is configured.', problems: [], rate: null };
  if (self === null) return { ...base, passed: false, skipped: false, verdict: 'Not available in this scope.', problems: ['The skill is not available, so the model cannot pick it.'], rate: null };
  let met = 0;
  for (let run = 0; run < settings.runs; run++) {
    try {
      if ((await env.judge.opens(self, env.skills, c.messages)) === c.picked) met++;
    } catch (error) {
      // A provider failure fails this case, not the run: the other cases still say what they know.
      const problem = `The model call failed: ${error instanceof Error ? error.message : String(error)}`;
      return { ...base, passed: false, skipped: false, verdict: problem, problems: [problem], rate: null };
    }
  }
  const rate = met / settings.runs;
  const passed = rate >= settings.threshold;
  const verdict = `${c.picked ? 'Opened' : 'Left closed'} in ${met} of ${settings.runs} runs (${percent(rate)}; threshold ${percent(settings.threshold)}).`;
  return { ...base, passed, skipped: false, verdict, problems: passed ? [] : [`The model ${c.picked ? 'opened it' : 'left it closed'} in only ${met} of ${settings.runs} runs.`], rate };
}

function confusionsOf(cases: readonly EvalCaseResult[]): EvalConfusion[] {
  const bySkill = new Map<string, number[]>();
  for (const c of cases) for (const other of c.confusions) bySkill.set(other, [...(bySkill.get(other) ?? []), c.index]);
  return [...bySkill].map(([skill, list]) => ({ skill, cases: list })).sort((a, b) => b.cases.length - a.cases.length || a.skill.localeCompare(b.skill));
}

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
