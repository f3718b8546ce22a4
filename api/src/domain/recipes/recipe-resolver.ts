/**
 * Resolves what a spawn runs with (seed 004 §4, §5, §6, §6a, §9, §11a): §9 defaulting picks the
 * recipe (or engine-direct), then params merge with the profile block and the caller (honouring
 * `locked`), the model alias and tier, sampling params, the tool pool, and — when the engine's
 * default prompt is given — a rendered system prompt preview. Pure of logging: audit data and
 * warnings come back in the result (recipe-resolution.ts) for the service layer to log.
 */
import type { Diagnostic } from '../errors';
import { DomainError } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import type { ToolCatalog } from '../tools/tool-descriptor';
import { positiveInt } from '../shared/positive-int';
import { UnknownModelError } from './errors';
import { readModelSize, StaticModelCatalog, tierFor, type ModelCatalog } from './model-catalog';
import { DEFAULT_MODEL_SPEC, modelSpecOf, resolveModel } from './model-alias';
import { mergeParams } from './params-merge';
import { selectProfileBlock } from './profile-block';
import { composeSystemPrompt, type PromptRenderContext, type ProfileAppendPlacement, type RecipePromptTemplates } from './prompt-composition';
import type { Recipe, RecipeProfile } from './recipe';
import type { RecipeResolution, ResolvedModelInfo, ResolvedRecipeRef, ResolveRecipeRequest } from './recipe-resolution';
import type { LoadedRecipe, RecipeLoader } from './recipe-loader';
import { resolveSampling } from './sampling-params';
import { applyDefaulting, type DefaultingOutcome } from './spawn-defaulting';
import { computeToolPool, type ToolPool } from './tool-pool';

export interface RecipeResolverDeps {
  readonly loader: RecipeLoader;
  readonly templates: TemplateEngine;
  readonly tools: ToolCatalog;
  /** An engine's default tool whitelist (seed 004 §6.1), so the preview's pool is the turn's. */
  readonly engineTools?: (engine: string) => readonly string[];
  readonly models?: ModelCatalog;
  /** Providers a model spec may name directly; REGISTERED_PROVIDERS by default. */
  readonly providers?: readonly string[];
}

const DEFAULT_MODE = 'NORMAL';

export class RecipeResolver {
  private readonly models: ModelCatalog;

  constructor(private readonly deps: RecipeResolverDeps) {
    this.models = deps.models ?? new StaticModelCatalog();
  }

  async resolve(request: ResolveRecipeRequest): Promise<RecipeResolution> {
    const outcome = await applyDefaulting(this.deps.loader, request.scope, request.tenantName, request);
    const loaded = outcome.kind === 'RECIPE' ? outcome.loaded : null;
    const recipe = loaded?.recipe ?? null;
    const engine = outcome.kind === 'RECIPE' ? outcome.loaded.recipe.engine : outcome.engine;
    const warnings = defaultingWarnings(outcome, request);
    const defaults = request.engineDefaults ? await request.engineDefaults(engine) : null;

    const selection = selectProfileBlock(recipe, request.profile);
    const merged = mergeParams(recipe?.params ?? {}, selection.block?.params ?? {}, request.params, recipe?.locked ?? false);
    if (merged.droppedCallerKeys.length > 0) {
      warnings.push(warning('params', `recipe '${recipe?.name}' is locked: caller params ${merged.droppedCallerKeys.join(', ')} were ignored`, recipe));
    }
    // A value the recipe or its profile block wrote was warned about at save, with its line, and
    // those load diagnostics are already in `warnings`: said again here it showed twice (issue 15).
    const fromCaller = (key: string) => merged.overriddenKeys.includes(key);
    const model = await this.resolveModelInfo(request, merged.params, warnings, recipe, fromCaller);
    const { sampling, dropped } = resolveSampling({ params: merged.params });
    for (const d of dropped.filter((x) => fromCaller(x.key))) warnings.push(warning(`params.${d.key}`, `params.${d.key} = ${JSON.stringify(d.value)} was dropped: ${d.reason}`, recipe));
    const tools = this.toolPool(request, recipe, selection.block, engine, merged.params, warnings, defaults?.allowedTools);

    const renderContext = this.renderContext(request, selection.profile, recipe, engine, merged.params, model);
    const prompt: RecipePromptTemplates = {
      promptOverride: recipe?.promptPrefix ?? null,
      profileAppend: selection.block?.promptPrefixAppend ?? null,
      promptMode: recipe?.promptMode ?? 'APPEND',
    };
    const preview = await this.preview(request.engineDefaultPrompt ?? defaults?.prompt, prompt, renderContext, warnings, recipe);

    return {
      kind: outcome.kind,
      recipe: outcome.kind === 'RECIPE' ? recipeRef(outcome.loaded, outcome.reason) : null,
      engine,
      ignoredEngine: outcome.kind === 'RECIPE' ? outcome.ignoredEngine : null,
      ...merged,
      profile: { profile: selection.profile, match: selection.match, block: selection.block?.name ?? null },
      promptMode: prompt.promptMode,
      promptOverride: prompt.promptOverride,
      profileAppendTemplate: prompt.profileAppend,
      systemPromptPreview: preview?.systemPrompt ?? null,
      profileAppendPlacement: preview?.placement ?? null,
      renderContext,
      dataRelayCorrection: recipe?.dataRelayCorrection ?? null,
      tools,
      toolAdjustments: {
        add: [...(recipe?.allowedToolsAdd ?? []), ...(selection.block?.allowedToolsAdd ?? [])],
        remove: [...(recipe?.allowedToolsRemove ?? []), ...(selection.block?.allowedToolsRemove ?? [])],
        keep: recipe?.allowedToolsKeep ?? [],
        dropFirst: recipe?.allowedToolsDropFirst ?? [],
        defer: recipe?.allowedToolsDefer ?? [],
      },
      allowedSkills: recipe?.allowedSkills ?? null,
      defaultActiveSkills: recipe?.defaultActiveSkills ?? [],
      locked: recipe?.locked ?? false,
      guards: recipe?.guards ?? [],
      model,
      sampling,
      warnings,
    };
  }

  /** Seed 004 §5.1. */
  private renderContext(
    request: ResolveRecipeRequest, profile: string, recipe: Recipe | null, engine: string,
    params: Readonly<Record<string, unknown>>, model: ResolvedModelInfo | null,
  ): PromptRenderContext {
    return {
      tier: model?.tier ?? tierFor(this.models, '', '', readModelSize(params.modelSize) ?? 'AUTO'),
      model: model?.model ?? '',
      provider: model?.provider ?? '',
      mode: request.mode?.trim() || DEFAULT_MODE,
      profile,
      recipe: recipe?.name ?? '',
      engine,
      ...(request.lang ? { lang: request.lang } : {}),
      params,
    };
  }

  /** Seed 004 §6/§6a: engine base, recipe and profile lists, skills; catalog plus client tools. */
  private toolPool(
    request: ResolveRecipeRequest, recipe: Recipe | null, block: RecipeProfile | null, engine: string, params: Readonly<Record<string, unknown>>, warnings: Diagnostic[],
    engineAllowed?: readonly string[],
  ): ToolPool {
    // The turn takes maxTools from the process's params (turns/turn-composer.ts); so does the preview.
    const maxTools = request.maxTools ?? positiveInt(params.maxTools) ?? null;
    const tools = computeToolPool({
      available: [...this.deps.tools.list(), ...(request.serverTools ?? []), ...(request.clientTools ?? [])],
      engineAllowed: request.engineAllowedTools ?? engineAllowed ?? this.deps.engineTools?.(engine) ?? [],
      add: [...(recipe?.allowedToolsAdd ?? []), ...(block?.allowedToolsAdd ?? [])],
      remove: [...(recipe?.allowedToolsRemove ?? []), ...(block?.allowedToolsRemove ?? [])],
      skillTools: request.skillTools ?? [],
      defer: recipe?.allowedToolsDefer ?? [],
      keep: recipe?.allowedToolsKeep ?? [],
      dropFirst: recipe?.allowedToolsDropFirst ?? [],
      maxTools,
    });
    if (tools.keepOverflow.length > 0) {
      warnings.push(warning('allowedToolsKeep', `maxTools ${maxTools} is smaller than the keep list; deferred anyway: ${tools.keepOverflow.join(', ')}`, recipe));
    }
    return tools;
  }

  /**
   * params.model through the aliases (seed 004 §11a). An explicit spec that does not resolve is an
   * error (UNKNOWN_MODEL); no spec and no ai.default.* is a warning and no model.
   */
  private async resolveModelInfo(
    request: ResolveRecipeRequest, params: Readonly<Record<string, unknown>>, warnings: Diagnostic[], recipe: Recipe | null,
    fromCaller: (key: string) => boolean,
  ): Promise<ResolvedModelInfo | null> {
    const size = readModelSize(params.modelSize);
    if (size === undefined && fromCaller('modelSize')) warnings.push(warning('params.modelSize', `params.modelSize ${JSON.stringify(params.modelSize)} is not SMALL, LARGE or AUTO; AUTO is used`, recipe));
    const spec = modelSpecOf(params.model) ?? null;
    if (modelSpecOf(params.model) === undefined && fromCaller('model')) {
      warnings.push(warning('params.model', `params.model must be a model spec such as default:fast or anthropic:claude-sonnet-4-5; ${JSON.stringify(params.model)} is ignored`, recipe));
    }
    let resolved;
    try {
      resolved = await resolveModel(spec ?? DEFAULT_MODEL_SPEC, request.settings, { providers: this.deps.providers });
    } catch (error) {
      if (spec !== null || !(error instanceof UnknownModelError)) throw error;
      warnings.push(warning('params.model', 'no model configured: set params.model or the settings ai.default.provider and ai.default.model', recipe));
      return null;
    }
    return { ...resolved, tier: tierFor(this.models, resolved.provider, resolved.model, size ?? 'AUTO') };
  }

  private async preview(
    engineDefault: string | null | undefined, prompt: RecipePromptTemplates, context: PromptRenderContext,
    warnings: Diagnostic[], recipe: Recipe | null,
  ): Promise<{ systemPrompt: string; placement: ProfileAppendPlacement } | null> {
    if (engineDefault === null || engineDefault === undefined) return null;
    try {
      return await composeSystemPrompt(this.deps.templates, engineDefault, prompt, context);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      warnings.push(warning('promptPrefix', `the system prompt preview could not be rendered: ${error.message}`, recipe));
      return null;
    }
  }
}

/** The recipe's load warnings, an ignored engine argument, an engine-named recipe of another engine. */
function defaultingWarnings(outcome: DefaultingOutcome, request: ResolveRecipeRequest): Diagnostic[] {
  if (outcome.kind === 'ENGINE_DIRECT') return [];
  const recipe = outcome.loaded.recipe;
  const warnings = [...outcome.loaded.diagnostics];
  if (outcome.ignoredEngine !== null) {
    warnings.push(warning('engine', `engine '${outcome.ignoredEngine}' was ignored: recipe '${recipe.name}' was named too and decides the engine (${recipe.engine})`, recipe));
  }
  if (outcome.reason === 'ENGINE_NAMED' && recipe.engine !== request.engine?.trim()) {
    warnings.push(warning('engine', `recipe '${recipe.name}' was applied for engine '${request.engine?.trim()}' but runs engine '${recipe.engine}'`, recipe));
  }
  return warnings;
}

function recipeRef(loaded: LoadedRecipe, reason: ResolvedRecipeRef['reason']): ResolvedRecipeRef {
  return { name: loaded.recipe.name, source: loaded.source, shadowed: loaded.shadowed, version: loaded.version, reason };
}

function warning(field: string, message: string, recipe: Recipe | null): Diagnostic {
  return { severity: 'WARNING', message, field, ...(recipe ? { path: recipe.path } : {}) };
}
