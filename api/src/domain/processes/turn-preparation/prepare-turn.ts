import type { ToolPool, ToolPoolInput } from '../../recipes/tool-pool';
import type { AvailableSkill } from '../../skills/skill-resolver';
import type { TemplateEngine } from '../../templates/template-engine';
import type { ActiveSkillRef } from '../process';
import { TriggerIndexCache } from '../triggers/trigger-index-cache';
import type { TriggerMatch } from '../triggers/trigger-match';
import { resolveActiveSkills, type ResolvedActiveSkill } from './active-skills';
import { RenderedBodyCache } from './rendered-body-cache';
import { composeSkillsSection, type SectionSkill } from './skills-section';
import { ToolPoolCache } from './tool-pool-cache';
import type { TurnWarning } from './turn-warning';
import { skillVerdicts, type SkillVerdict } from '../../activation/skill-verdicts';
import { isModelInvocable } from '../../skills/invocation-policy';

/**
 * Turn preparation (DESIGN §1 "a turn", seed 000 §4a, §5): the pre-turn trigger hook, the active
 * skills resolved, the skills section of the system prompt and the tool pool — the per-turn work
 * that must not grow with the number of skills in the cascade (DESIGN §4, issue 4 "Measured").
 *
 * - `skills` is the scope's listAvailable answer, ideally the SkillSetCache's array (stable between
 *   turns, so the trigger index is found by identity, not rebuilt).
 * - Triggered skills (when there is a message) are active for this turn (seed 000 §4a: one-shot):
 *   they compose after the active ones, in match order, without arguments. The caller persists the
 *   activations; once persisted they are active and no longer trigger, so calling this again after
 *   activating (or the activation service running the hook first) never composes a skill twice.
 * - `lifecycle: shot` skills never register and never contribute to the prompt or the tools (seed 000
 *   §2a, §5b); one found among the active refs is skipped with a warning.
 * - Tools: every composing skill's `tools` are added to `toolInput` (seed 000 §5b: skills only add) —
 *   also a skill whose body failed to render: it is still active, only its prompt block is missing.
 */
export interface PrepareTurnInput {
  readonly skills: readonly AvailableSkill[];
  readonly activeSkills: readonly ActiveSkillRef[];
  /** process.allowedSkillsOverride: null = no restriction, [] = lockdown. */
  readonly allowedSkillsOverride: readonly string[] | null;
  /** The user message of this turn; null (or '') runs no triggers. */
  readonly message: string | null;
  readonly templates: TemplateEngine;
  /** Process-derived render data (recipe, mode, profile, params, …); each skill gets its own `args` on top. */
  readonly renderContext: Readonly<Record<string, unknown>>;
  /** The recipe's tool pool input; `skillTools` already in it are kept. */
  readonly toolInput: ToolPoolInput;
  /** The caches kept between turns; each one not given is a module-wide shared instance. */
  readonly caches?: Partial<TurnCaches>;
  /** Cache key for callers that list per turn (a scope key), see TriggerIndexCache. */
  readonly indexKey?: string;
  /**
   * The conversation's scan window, NEWEST FIRST ([0] is the message being answered; issue 8). Given:
   * every candidate skill gets a verdict, and the skills a verdict turns on (`when: always`,
   * `mentioned` ones that match, open `picked` ones, auto-triggers over the window) compose after the
   * active ones; `message` is then not used.
   */
  readonly scan?: readonly string[];
  /** The `picked` skills the model has open (process.openSkills). */
  readonly openSkills?: readonly string[];
}

/**
 * What prepareTurn keeps between turns (DESIGN §4). All exact: a cache only ever returns what the
 * uncached computation would. `bodies: null` renders every templated body every turn.
 */
export interface TurnCaches {
  readonly indexes: TriggerIndexCache;
  readonly bodies: RenderedBodyCache | null;
  readonly toolPools: ToolPoolCache;
}

export function createTurnCaches(): TurnCaches {
  return { indexes: new TriggerIndexCache(), bodies: new RenderedBodyCache(), toolPools: new ToolPoolCache() };
}

const SHARED: TurnCaches = createTurnCaches();

export interface PreparedTurn {
  readonly triggered: readonly TriggerMatch[];
  readonly activeResolved: readonly ResolvedActiveSkill[];
  readonly skillsSection: string;
  /** The skills in the section, in order (active first, then triggered). */
  readonly composedSkills: readonly string[];
  readonly toolPool: ToolPool;
  readonly warnings: readonly TurnWarning[];
  /** With `scan`: every candidate skill's verdict (active, with a `when`, or with triggers). */
  readonly verdicts: readonly SkillVerdict[];
  /** Open `picked` skills whose close rule holds this turn (closeWhenUnmentioned). */
  readonly closes: readonly string[];
  /** `picked` skills the model may open or close (model-invocable, allowed by the recipe). */
  readonly pickable: readonly AvailableSkill[];
}

export async function prepareTurn(input: PrepareTurnInput): Promise<PreparedTurn> {
  const caches: TurnCaches = { ...SHARED, ...input.caches };
  const index = await caches.indexes.load(input.skills, input.indexKey);
  const active = input.activeSkills.map((ref) => ref.name);
  const filter = { active, allowedSkillsOverride: input.allowedSkillsOverride };
  const triggered = !input.scan && input.message ? index.match(input.message, filter) : [];
  const { resolved, warnings } = resolveActiveSkills(input.activeSkills, (name) => index.find(name));

  const composing: SectionSkill[] = [];
  for (const { ref, skill } of resolved) {
    if (skill.skill.lifecycle === 'shot') warnings.push({ skill: ref.name, message: `Skill '${ref.name}' has lifecycle: shot and never registers; skipped.` });
    else composing.push({ skill, args: ref.args });
  }
  for (const match of triggered) if (match.available.skill.lifecycle !== 'shot') composing.push({ skill: match.available, args: null });

  let verdicts: SkillVerdict[] = [];
  const closes: string[] = [];
  const pickable: AvailableSkill[] = [];
  if (input.scan) {
    const open = new Set(input.openSkills ?? []);
    const activeSet = new Set(active);
    const allowed = input.allowedSkillsOverride === null ? null : new Set(input.allowedSkillsOverride);
    const candidates = input.skills.filter((s) => activeSet.has(s.name) || open.has(s.name) || s.skill.activation.when !== null || s.skill.triggers.length > 0);
    const evaluation = index.evaluate(input.scan, filter);
    verdicts = skillVerdicts(candidates.map((s) => ({ name: s.name, skill: s.skill, source: s.source })), {
      activeSkills: input.activeSkills, openSkills: [...open], allowedSkills: input.allowedSkillsOverride,
    }, evaluation);
    const byName = new Map(candidates.map((s) => [s.name, s]));
    for (const verdict of verdicts) {
      const available = byName.get(verdict.skill)!;
      if (verdict.closes) closes.push(verdict.skill);
      if (verdict.on && !activeSet.has(verdict.skill) && available.skill.lifecycle !== 'shot') composing.push({ skill: available, args: null });
    }
    for (const available of candidates) {
      const { skill } = available;
      if (skill.activation.when === 'picked' && isModelInvocable(skill) && (allowed === null || allowed.has(available.name))) {
        pickable.push(available);
      }
    }
  }

  const section = await composeSkillsSection(composing, input.templates, input.renderContext, { bodies: caches.bodies });
  const toolPool = caches.toolPools.poolFor({ ...input.toolInput, skillTools: unionOfTools(input.toolInput.skillTools ?? [], composing) });
  return {
    triggered,
    activeResolved: resolved,
    skillsSection: section.text,
    composedSkills: section.composed,
    toolPool,
    warnings: [...warnings, ...section.warnings],
    verdicts,
    closes,
    pickable,
  };
}

function unionOfTools(base: readonly string[], skills: readonly SectionSkill[]): string[] {
  const tools = new Set(base);
  for (const { skill } of skills) for (const tool of skill.skill.tools) tools.add(tool);
  return [...tools];
}
