import { ENGINE_NAMES, isKnownEngine } from '../engines/engine-names';
import { UnknownEngineError } from '../processes/errors';
import type { CascadeScope } from '../cascade/scope';
import type { LayerTargetResolver } from '../documents/layer-target';
import type { Principal } from '../identity/principal';
import type { SettingsService } from '../settings/settings-service';
import { RecipeInvalidError } from './errors';
import type { Manual, Manuals } from './manuals';
import type { RecipeListing, RecipeLoader } from './recipe-loader';
import type { ListedRecipes, RecipePicker } from './recipe-picker';
import { toRecipeList, type RecipeList } from './recipe-list';
import type { RecipeResolution } from './recipe-resolution';
import type { RecipeResolver } from './recipe-resolver';
import type { ModelRequest } from '../turns/model-request';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import type { ToolOrigin } from '../tools/tool-source';
import { withToolOrigins } from './tool-pool';

export interface ResolveRecipeInput {
  readonly name?: string | null;
  readonly engine?: string | null;
  readonly project?: string | null;
  readonly params?: Readonly<Record<string, unknown>> | null;
  readonly profile?: string | null;
}

/** The seed 004 §4 audit line: who resolved which recipe, with which caller overrides. */
export interface RecipeAuditEntry {
  readonly recipe: string | null;
  readonly engine: string;
  readonly tenant: string;
  readonly caller: string;
  readonly overriddenKeys: readonly string[];
  readonly droppedCallerKeys: readonly string[];
}

export const DEFAULT_MANUAL_PATHS = ['_vance/manuals/'];

/**
 * Recipes as API callers see them: listing (the `recipe_list` shape, seed 004 §8), one recipe
 * with its diagnostics, the user-facing picker (§6e), resolution (§4–§11a, audited) and manuals (§6b).
 */
export class RecipeCatalog {
  constructor(private readonly deps: {
    readonly loader: RecipeLoader;
    readonly resolver: RecipeResolver;
    readonly picker: RecipePicker;
    readonly targets: LayerTargetResolver;
    readonly settings: SettingsService;
    readonly manuals: Manuals;
    readonly audit?: (entry: RecipeAuditEntry) => void;
    /** An engine's default prompt and whitelist in a scope (engines/engine-prompts.ts: the effective prompt document); without it, no systemPromptPreview. */
    readonly engineDefaults?: (engine: string, scope: CascadeScope) => Promise<{ readonly prompt: string; readonly allowedTools: readonly string[] } | null>;
    /** The first request of a process spawned from a resolution (turns/spawn-preview.ts). */
    /** The scope's tools beyond the built-ins (tool documents, packs; issue 19): what `@label` entries also resolve against. */
    readonly serverTools?: (principal: Principal, scope: CascadeScope) => Promise<readonly (ToolDescriptor & { readonly origin: ToolOrigin })[]>;
    readonly requestPreview?: (principal: Principal, scope: CascadeScope, resolution: RecipeResolution, profile: string | null) => Promise<ModelRequest | null>;
  }) {}

  async list(principal: Principal, project: string | null | undefined): Promise<RecipeList> {
    const scope = await this.scope(principal, project);
    return toRecipeList(await this.deps.loader.listAvailable(scope, principal.tenant.name));
  }

  /** The admin view of one recipe: also a broken one, with its diagnostics. */
  async get(principal: Principal, name: string, project: string | null | undefined): Promise<RecipeListing | null> {
    const scope = await this.scope(principal, project);
    try {
      const loaded = await this.deps.loader.find(scope, principal.tenant.name, name);
      return loaded && { name, path: loaded.recipe.path, source: loaded.source, shadowed: loaded.shadowed, recipe: loaded.recipe, diagnostics: loaded.diagnostics };
    } catch (err) {
      if (!(err instanceof RecipeInvalidError)) throw err;
      const listings = await this.deps.loader.listAvailable(scope, principal.tenant.name, { includeInvalid: true });
      return listings.find((l) => l.name === name) ?? null;
    }
  }

  async listed(principal: Principal, project: string | null | undefined): Promise<ListedRecipes> {
    const scope = await this.scope(principal, project);
    // The tenant and user hubs are SYSTEM projects (seed 004 §6e).
    const kind = scope.projectId ? 'NORMAL' : 'SYSTEM';
    return this.deps.picker.listedRecipes(scope, principal.tenant.name, kind);
  }

  async resolve(principal: Principal, input: ResolveRecipeInput): Promise<RecipeResolution> {
    const scope = await this.scope(principal, input.project);
    const settings = this.deps.settings.reader(scope.tenantId, scope.projectId);
    const serverTools = this.deps.serverTools ? await this.deps.serverTools(principal, scope) : [];
    const resolution = await this.deps.resolver.resolve({
      scope, tenantName: principal.tenant.name, settings, serverTools,
      recipe: input.name ?? null, engine: input.engine ?? null, params: input.params ?? null, profile: input.profile ?? null,
      ...(this.deps.engineDefaults ? { engineDefaults: (engine: string) => this.deps.engineDefaults!(engine, scope) } : {}),
    });
    // What spawnProcess would refuse, resolveRecipe refuses with the same error (issue 15).
    if (!isKnownEngine(resolution.engine)) throw new UnknownEngineError(resolution.engine, ENGINE_NAMES);
    if (resolution.overriddenKeys.length > 0 || resolution.droppedCallerKeys.length > 0) {
      this.deps.audit?.({
        recipe: resolution.recipe?.name ?? null, engine: resolution.engine, tenant: principal.tenant.name,
        caller: `user:${principal.user.login}`, overriddenKeys: resolution.overriddenKeys, droppedCallerKeys: resolution.droppedCallerKeys,
      });
    }
    const preview = this.deps.requestPreview;
    const located = { ...resolution, tools: withToolOrigins(resolution.tools, new Map(serverTools.map((t) => [t.name, t.origin]))) };
    return preview ? { ...located, request: () => preview(principal, scope, resolution, input.profile ?? null) } : located;
  }

  /** Manuals under `paths` (`_vance/manuals/` when not given; `[]` is none), first hit per name in path order (§6b). */
  async manuals(principal: Principal, project: string | null | undefined, paths: readonly string[] | null | undefined): Promise<Manual[]> {
    const scope = await this.scope(principal, project);
    const folders = paths ?? DEFAULT_MANUAL_PATHS;
    const entries = await this.deps.manuals.listManuals(scope, folders);
    const manuals = await Promise.all(entries.map((e) => this.deps.manuals.readManual(scope, folders, e.name)));
    return manuals.filter((m): m is Manual => m !== null);
  }


  private scope(principal: Principal, project: string | null | undefined): Promise<CascadeScope> {
    return this.deps.targets.scope(principal, project);
  }
}
