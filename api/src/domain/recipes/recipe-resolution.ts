/**
 * The shape `resolveRecipe` returns (issue 3): what a spawn would run with — effective params,
 * engine, recipe and its source layer, prompt templates and a rendered preview, tools, skills,
 * model, sampling — plus the audit data the service layer logs (overridden and dropped caller keys,
 * seed 004 §4) and warnings. Produced by recipe-resolver.ts; also the process snapshot (seed 004 §7).
 */
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import type { Diagnostic } from '../errors';
import type { SettingsReader } from '../settings/settings-reader';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import type { ModelTier } from './model-catalog';
import type { ProfileSelection } from './profile-block';
import type { PromptRenderContext, ProfileAppendPlacement } from './prompt-composition';
import type { PromptMode, RecipeGuard } from './recipe';
import type { SamplingParams } from './sampling-params';
import type { DefaultingReason } from './spawn-defaulting';
import type { ToolPool } from './tool-pool';
import type { ModelRequest } from '../turns/model-request';

export interface ResolveRecipeRequest {
  readonly scope: CascadeScope;
  readonly tenantName: string;
  /** Settings as this request sees them (model aliases, seed 004 §11a). */
  readonly settings: SettingsReader;
  readonly recipe?: string | null;
  readonly engine?: string | null;
  /** Caller params (seed 004 §4). */
  readonly params?: Readonly<Record<string, unknown>> | null;
  /** Connection profile; the wire default `web` when absent (seed 004 §6a). */
  readonly profile?: string | null;
  /** Plan mode for the render context; NORMAL when absent. */
  readonly mode?: string | null;
  readonly lang?: string | null;
  /** The engine's default prompt template; when given, the composed system prompt is rendered as a preview. */
  readonly engineDefaultPrompt?: string | null;
  /** The engine's default whitelist; empty or absent = unrestricted (seed 004 §6.1). */
  readonly engineAllowedTools?: readonly string[];
  /**
   * The engine's default prompt and whitelist, asked once the engine is known (resolveRecipe: the
   * recipe decides the engine); `engineDefaultPrompt` / `engineAllowedTools` win when given.
   */
  readonly engineDefaults?: (engine: string) => Promise<{ readonly prompt: string; readonly allowedTools: readonly string[] } | null>;
  /** Tools of the skills that will be active (seed 000 §5b). */
  readonly skillTools?: readonly string[];
  /** The scope's tools beyond the built-ins (tool documents, MCP packs; issue 19), in addition to the server catalog. */
  readonly serverTools?: readonly ToolDescriptor[];
  /** Client tools of the session (seed 004 §6.2), in addition to the server catalog. */
  readonly clientTools?: readonly ToolDescriptor[];
  /** The endpoint's tool-surface budget; none = no ranking. */
  readonly maxTools?: number | null;
}

export interface ResolvedRecipeRef {
  readonly name: string;
  readonly source: Layer;
  readonly shadowed: readonly Layer[];
  readonly version: number;
  /** How §9 defaulting arrived at it. */
  readonly reason: DefaultingReason;
}

export interface ResolvedModelInfo {
  readonly provider: string;
  readonly model: string;
  readonly tier: ModelTier;
  /** The alias chain followed (seed 004 §11a). */
  readonly chain: readonly string[];
}

export interface RecipeResolution {
  /** ENGINE_DIRECT: an engine without a recipe of its name (seed 004 §9). */
  readonly kind: 'RECIPE' | 'ENGINE_DIRECT';
  readonly recipe: ResolvedRecipeRef | null;
  readonly engine: string;
  /** An engine argument ignored because a recipe was named too. */
  readonly ignoredEngine: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly overriddenKeys: readonly string[];
  readonly droppedCallerKeys: readonly string[];
  readonly profile: Pick<ProfileSelection, 'profile' | 'match'> & { readonly block: string | null };
  readonly promptMode: PromptMode;
  /** The recipe promptPrefix, unrendered (the process's promptOverride). */
  readonly promptOverride: string | null;
  /** The selected profile block's promptPrefixAppend, unrendered. */
  readonly profileAppendTemplate: string | null;
  /** Rendered system prompt, only when an engine default prompt was given and rendering worked. */
  readonly systemPromptPreview: string | null;
  readonly profileAppendPlacement: ProfileAppendPlacement | null;
  readonly renderContext: PromptRenderContext;
  readonly dataRelayCorrection: string | null;
  readonly tools: ToolPool;
  /** The recipe + profile tool lists, unexpanded: a process keeps them and resolves `@label`s per turn (seed 004 §6.2). */
  readonly toolAdjustments: {
    readonly add: readonly string[];
    readonly remove: readonly string[];
    readonly keep: readonly string[];
    readonly dropFirst: readonly string[];
    readonly defer: readonly string[];
  };
  readonly allowedSkills: readonly string[] | null;
  readonly defaultActiveSkills: readonly string[];
  readonly locked: boolean;
  readonly guards: readonly RecipeGuard[];
  readonly model: ResolvedModelInfo | null;
  readonly sampling: SamplingParams;
  /** Recipe load warnings and resolution warnings (dropped keys, ignored engine, invalid values). */
  readonly warnings: readonly Diagnostic[];
  /**
   * resolveRecipe: the first request a process spawned like this would send (turns/spawn-preview.ts),
   * computed when asked for; null without a model. Absent outside resolveRecipe.
   */
  readonly request?: () => Promise<ModelRequest | null>;
}
