/**
 * resolveRecipe's `request` (issue 15): the first model request of a process spawned from a
 * resolution, before anyone said anything. The process it would be — the spawn snapshot, not
 * stored — goes through the turn composer and the request builder a turn uses, so the preview of a
 * recipe cannot show other tools, prompts or sampling than its process would send. A draft has no
 * id and no session: no chat log, no client tools, no picked skills open.
 */
import type { CascadeScope } from '../cascade/scope';
import { DomainError } from '../errors';
import type { Engine } from '../engines/engine';
import type { Principal } from '../identity/principal';
import type { ActiveSkillRef, Process } from '../processes/process';
import type { RecipeResolution } from '../recipes/recipe-resolution';
import type { ModelRequest } from './model-request';
import type { TurnComposer } from './turn-composer';

export interface SpawnPreviewDeps {
  readonly composer: TurnComposer;
  readonly engines: ReadonlyMap<string, Engine>;
  /** The recipe's defaultActiveSkills as the spawn would activate them (ProcessSpawner.recipeSkills). */
  recipeSkills(scope: CascadeScope, resolution: RecipeResolution): Promise<ActiveSkillRef[]>;
}

export class SpawnPreview {
  constructor(private readonly deps: SpawnPreviewDeps) {}

  /** Null when no model is configured, the engine does not run here, or the prompt cannot be composed (resolveRecipe's warnings say why). */
  async request(principal: Principal, scope: CascadeScope, resolution: RecipeResolution, profile: string | null): Promise<ModelRequest | null> {
    const engine = this.deps.engines.get(resolution.engine);
    if (!resolution.model || !engine) return null;
    const draft = draftProcess(principal, scope, resolution, profile, await this.deps.recipeSkills(scope, resolution));
    try {
      return (await this.deps.composer.compose(draft, engine, [], scope)).request;
    } catch (err) {
      if (err instanceof DomainError) return null;
      throw err;
    }
  }
}

/** The process ProcessSpawner would write for `resolution`, unsaved. */
export function draftProcess(
  principal: Principal, scope: CascadeScope, resolution: RecipeResolution, profile: string | null, activeSkills: readonly ActiveSkillRef[],
): Process {
  const epoch = new Date(0);
  return {
    id: '', tenantId: scope.tenantId, projectId: scope.projectId ?? '', sessionId: '', userId: principal.user.id, mode: 'NORMAL', title: null, goal: null,
    name: resolution.recipe?.name ?? resolution.engine, parentProcessId: null, status: 'IDLE', engine: resolution.engine,
    recipeName: resolution.recipe?.name ?? null, recipeSource: resolution.recipe?.source ?? null, connectionProfile: profile,
    activeSkills, allowedSkillsOverride: resolution.allowedSkills, locked: resolution.locked, engineParams: resolution.params,
    promptOverride: resolution.promptOverride, profileAppend: resolution.profileAppendTemplate, promptMode: resolution.promptMode,
    dataRelayCorrectionOverride: resolution.dataRelayCorrection, toolAdjustments: resolution.toolAdjustments,
    guards: [], recipeGuards: resolution.guards, guardRounds: {}, guardScratch: {}, openSkills: [], skillUses: {}, turnRequestedAt: null,
    createdAt: epoch, updatedAt: epoch,
  };
}
