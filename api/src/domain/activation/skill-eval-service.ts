/**
 * `skillEvals(project, skill)` (issue 20): a skill's evals.yaml run against a project's effective
 * cascade — the scope's skills from the SkillSetCache, their TriggerIndex from the turn's cache,
 * recipes through the RecipeCatalog, so every verdict is the one a turn in that project would give.
 * The evals file cascades like any document (innermost first): a project may add cases for a
 * bundled skill, which a file pinned to the SKILL.md's layer would forbid (RESOURCE is read-only).
 */
import type { CascadeScope } from '../cascade/scope';
import type { Layer } from '../cascade/layer';
import type { Diagnostic } from '../errors';
import { InvalidInputError, NotFoundError } from '../errors';
import type { Principal } from '../identity/principal';
import type { TriggerIndexCache } from '../processes/triggers/trigger-index-cache';
import { scopeKey } from '../processes/triggers/skill-set-cache';
import type { AvailableSkill } from '../skills/skill-resolver';
import { skillNameProblem, skillSiblingPath } from '../skills/skill-paths';
import type { RecipeStart } from './conversation-verdicts';
import { appendEvalCase, type NewEvalCase } from './append-eval-case';
import { EVALS_FILE_NAME, parseSkillEvals } from './parse-skill-evals';
import { runSkillEvals, type SkillEvalReport, type SkillPickJudge } from './run-skill-evals';

export interface SkillEvalServiceDeps {
  scope(principal: Principal, project: string | null): Promise<CascadeScope>;
  skills(scope: CascadeScope): Promise<readonly AvailableSkill[]>;
  readonly indexes: TriggerIndexCache;
  /** The effective document at a path and its layer, or null. */
  lookup(scope: CascadeScope, path: string): Promise<{ readonly content: string; readonly source: Layer } | null>;
  resolveRecipe(principal: Principal, name: string, project: string | null): Promise<RecipeStart>;
  /** The model judge of the scope's settings, or null when no real provider is configured. */
  judge(scope: CascadeScope): Promise<SkillPickJudge | null>;
  /** One layer's document, and a validated write (DocumentService.get / put). */
  read(principal: Principal, layer: Layer, project: string | null, path: string): Promise<string | null>;
  write(principal: Principal, layer: Layer, project: string | null, path: string, content: string): Promise<void>;
}

export interface SkillEvalResult extends SkillEvalReport {
  /** The evals document path and the layer it came from. */
  readonly path: string;
  readonly source: Layer;
}

export class SkillEvalService {
  constructor(private readonly deps: SkillEvalServiceDeps) {}

  /**
   * `models`: ask the configured model for the `picked:` cases. Off by default — each case is paid
   * calls (bounded per file by MAX_PICKED_CALLS), and a query should not spend them unasked.
   */
  async run(principal: Principal, project: string | null, skill: string, models = false): Promise<SkillEvalResult> {
    const problem = skillNameProblem(skill);
    if (problem) throw new InvalidInputError('INVALID_SKILL_NAME', problem, 'skill');
    const scope = await this.deps.scope(principal, project);
    const path = skillSiblingPath(skill, EVALS_FILE_NAME);
    const file = await this.deps.lookup(scope, path);
    if (!file) throw new NotFoundError('Skill evals', path);
    const parsed = parseSkillEvals(path, file.content);
    if (!parsed.evals) throw new SkillEvalsInvalidError(path, parsed.diagnostics);
    const skills = await this.deps.skills(scope);
    const index = await this.deps.indexes.load(skills, scopeKey(scope));
    const usesModel = parsed.evals.cases.some((c) => c.kind === 'picked');
    const report = await runSkillEvals(skill, parsed.evals, {
      skills, index,
      judge: usesModel && models ? await this.deps.judge(scope) : null,
      recipe: (name) => this.deps.resolveRecipe(principal, name, project),
    });
    // Say why they were skipped when a provider would have answered.
    const notes = usesModel && !models ? report.notes.map((n) => (n.startsWith('picked: cases skipped') ? 'picked: cases skipped: pass models: true to ask the configured model.' : n)) : report.notes;
    return { ...report, notes, path, source: file.source };
  }

  /**
   * Saves a conversation as a new case (the trigger bench, issue 20) in `layer`'s evals.yaml, then
   * runs the evals. A layer without its own file starts from the effective one, so its copy keeps
   * the cases it shadows (as overriding a bundled skill into a project starts from its text).
   */
  async addCase(principal: Principal, project: string | null, layer: Layer, skill: string, added: NewEvalCase): Promise<SkillEvalResult> {
    const problem = skillNameProblem(skill);
    if (problem) throw new InvalidInputError('INVALID_SKILL_NAME', problem, 'skill');
    const path = skillSiblingPath(skill, EVALS_FILE_NAME);
    const own = await this.deps.read(principal, layer, project, path);
    const base = own ?? (await this.deps.lookup(await this.deps.scope(principal, project), path))?.content ?? null;
    await this.deps.write(principal, layer, project, path, appendEvalCase(base, added));
    return this.run(principal, project, skill);
  }
}

/** A stored evals.yaml that does not parse (force-saved): the diagnostics say where. */
export class SkillEvalsInvalidError extends InvalidInputError {
  override readonly diagnostics: readonly Diagnostic[];
  constructor(path: string, diagnostics: readonly Diagnostic[]) {
    super('SKILL_EVALS_INVALID', `'${path}' does not validate; fix it before running it`, undefined, { path });
    this.diagnostics = diagnostics;
  }
}
