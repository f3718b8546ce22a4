import type { CascadeScope } from '../cascade/scope';
import { ENGINE_NAMES, isKnownEngine } from '../engines/engine-names';
import { InvalidInputError, NameTakenError } from '../errors';
import type { Principal } from '../identity/principal';
import type { RecipeResolution } from '../recipes/recipe-resolution';
import type { RecipeResolver } from '../recipes/recipe-resolver';
import type { SettingsReader } from '../settings/settings-reader';
import type { SkillResolver } from '../skills/skill-resolver';
import { UnknownEngineError } from './errors';
import type { ActiveSkillRef, Process } from './process';
import type { NewProcess, ProcessStore } from './process-store';

export interface SpawnRequest {
  readonly session?: string | null;
  /** Unique per session; without it the recipe (or engine) name, then `-2`, `-3`, … */
  readonly name?: string | null;
  readonly recipe?: string | null;
  readonly engine?: string | null;
  readonly params?: Readonly<Record<string, unknown>> | null;
  readonly profile?: string | null;
  readonly parentProcessId?: string | null;
  /** For people: what the process is (blank: none). */
  readonly title?: string | null;
  /** Its task, as given (blank: none); recorded, not sent — process_spawn queues it as the first message. */
  readonly goal?: string | null;
}

export interface SpawnContext {
  readonly principal: Principal;
  readonly scope: CascadeScope;
  readonly projectId: string;
  readonly settings: SettingsReader;
}

const DEFAULT_SESSION = 'default';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function checkName(name: string, field: string): string {
  if (!NAME.test(name)) throw new InvalidInputError('INVALID_NAME', `Invalid ${field} '${name}': 1–63 characters of A-Z, a-z, 0-9, '.', '_', '-', starting with a letter or digit`, field);
  return name;
}
const MAX_NAME_ATTEMPTS = 100;
export const MAX_TITLE_LENGTH = 200;
/** As long as a message may be (process-service.ts MAX_MESSAGE_LENGTH): a goal is a first message. */
export const MAX_PROCESS_GOAL_LENGTH = 200_000;

/** Trimmed; blank is null; too long is refused before anything is written. */
function optionalText(value: string | null | undefined, field: string, max: number): string | null {
  const text = value?.trim() ?? '';
  if (text.length > max) throw new InvalidInputError('TEXT_TOO_LONG', `The ${field} may hold at most ${max} characters`, field);
  return text === '' ? null : text;
}

/**
 * Spawn (seed 004 §9, §7): resolve the recipe (recipe > engine-named recipe > `default`), check the
 * engine, and write the effective configuration onto the new process as a snapshot — params,
 * unrendered prompt, tool adjustments, the skill whitelist, and `defaultActiveSkills` as sticky
 * `fromRecipe` refs (seed 000 §7a). Later recipe edits do not reach the process.
 */
export class ProcessSpawner {
  constructor(private readonly deps: { readonly store: ProcessStore; readonly recipes: RecipeResolver; readonly skills: SkillResolver }) {}

  async spawn(ctx: SpawnContext, request: SpawnRequest): Promise<{ process: Process; resolution: RecipeResolution }> {
    const { principal, scope } = ctx;
    const resolution = await this.deps.recipes.resolve({
      scope, tenantName: principal.tenant.name, settings: ctx.settings,
      recipe: request.recipe ?? null, engine: request.engine ?? null, params: request.params ?? null, profile: request.profile ?? null,
    });
    if (!isKnownEngine(resolution.engine)) throw new UnknownEngineError(resolution.engine, ENGINE_NAMES);
    const sessionName = checkName(request.session?.trim() || DEFAULT_SESSION, 'session');
    if (request.name) checkName(request.name, 'name');
    const title = optionalText(request.title, 'title', MAX_TITLE_LENGTH);
    const goal = optionalText(request.goal, 'goal', MAX_PROCESS_GOAL_LENGTH);
    const session = await this.deps.store.openSession(scope.tenantId, ctx.projectId, principal.user.id, sessionName);
    const base: Omit<NewProcess, 'name'> = {
      tenantId: scope.tenantId,
      projectId: ctx.projectId,
      sessionId: session.id,
      userId: principal.user.id,
      parentProcessId: request.parentProcessId ?? null,
      engine: resolution.engine,
      recipeName: resolution.recipe?.name ?? null,
      recipeSource: resolution.recipe?.source ?? null,
      connectionProfile: request.profile ?? null,
      activeSkills: await this.recipeSkills(scope, resolution),
      allowedSkillsOverride: resolution.allowedSkills,
      locked: resolution.locked,
      engineParams: resolution.params,
      promptOverride: resolution.promptOverride,
      profileAppend: resolution.profileAppendTemplate,
      promptMode: resolution.promptMode,
      dataRelayCorrectionOverride: resolution.dataRelayCorrection,
      toolAdjustments: resolution.toolAdjustments,
      guards: [],
      recipeGuards: resolution.guards,
      title,
      goal,
    };
    const process = request.name
      ? await this.deps.store.createProcess({ ...base, name: request.name })
      : await this.createWithFreeName(base, resolution.recipe?.name ?? resolution.engine);
    return { process, resolution };
  }

  /** `<base>`, then `<base>-2`, … — a collision is retried with the next index, never a silent success. */
  private async createWithFreeName(base: Omit<NewProcess, 'name'>, stem: string): Promise<Process> {
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
      try {
        return await this.deps.store.createProcess({ ...base, name: attempt === 1 ? stem : `${stem}-${attempt}` });
      } catch (err) {
        if (!(err instanceof NameTakenError)) throw err;
      }
    }
    throw new NameTakenError('Process', stem);
  }

  /** seed 000 §7a; a name the cascade does not know is carried along (engines drop it with a warning per turn). */
  async recipeSkills(scope: CascadeScope, resolution: RecipeResolution): Promise<ActiveSkillRef[]> {
    const now = new Date().toISOString();
    const recipe = resolution.recipe?.name ?? resolution.engine;
    return Promise.all(resolution.defaultActiveSkills.map(async (name) => {
      const found = await this.deps.skills.load(scope, name).catch(() => null);
      return { name, resolvedFromScope: found?.source ?? 'RESOURCE', oneShot: false, fromRecipe: true, activatedAt: now, args: null, reason: `From recipe '${recipe}'.` };
    }));
  }
}
