/**
 * The parsed recipe (seed 004 §2, §6, §6a, §6c, §6d, §6e): a named blueprint for a worker process.
 * The name comes from the file name (`_vance/recipes/<name>.yaml`), never from a field. Parsing
 * lives in parse-recipe.ts, cascade lookup in recipe-loader.ts, applying it in recipe-resolver.ts.
 */
import type { Layer } from '../cascade/layer';

export type PromptMode = 'APPEND' | 'OVERWRITE';
export const PROMPT_MODES: readonly PromptMode[] = ['APPEND', 'OVERWRITE'];

/** Picker filter by project kind (seed 004 §2, §6e). */
export type RecipeProjectKind = 'normal' | 'system' | 'any';
export const RECIPE_PROJECT_KINDS: readonly RecipeProjectKind[] = ['normal', 'system', 'any'];

/** Where a completion guard runs (seed 004 §6d). */
export type GuardTrigger = 'start' | 'command' | 'stop' | 'terminate' | 'both';
export const GUARD_TRIGGERS: readonly GuardTrigger[] = ['start', 'command', 'stop', 'terminate', 'both'];

/** A stop/terminate guard's round cap per user turn when its entry sets none (the manual's value). */
export const DEFAULT_GUARD_MAX_ROUNDS = 3;

/** Exactly one of `script` (a cascade path) and `scriptBody` (inline JS), seed 004 §6d. */
export type GuardScript =
  | { readonly kind: 'PATH'; readonly path: string }
  | { readonly kind: 'INLINE'; readonly body: string };

export interface RecipeGuard {
  readonly script: GuardScript;
  /** Passed to the script as `vance.params.*`. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly trigger: GuardTrigger;
  /** Only meaningful for stop/terminate/both: there DEFAULT_GUARD_MAX_ROUNDS when unset, 0 = never continue; null for start/command. */
  readonly maxRounds: number | null;
  /** false: supervisor surface; true: the process's full tools. */
  readonly allowTools: boolean;
}

/** A connection profile block (seed 004 §6a); `default` is the catch-all. */
export interface RecipeProfile {
  readonly name: string;
  readonly allowedToolsAdd: readonly string[];
  readonly allowedToolsRemove: readonly string[];
  /** A template, appended after the recipe prompt (DESIGN §10: exposed as `profileAppend`). */
  readonly promptPrefixAppend: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  /** Session lifecycle settings of the original platform (onDisconnect, onIdle, …): kept, not applied. */
  readonly session: Readonly<Record<string, unknown>> | null;
}

/**
 * A plan-mode block (`modes.NORMAL`, …) as the original platform's recipes carry it. Parsed and
 * validated so real recipes load, kept for the turns issue; the resolver does not apply it yet.
 */
export interface RecipeModeBlock {
  readonly mode: string;
  readonly allowedToolsAdd: readonly string[];
  readonly allowedToolsRemove: readonly string[];
  readonly allowedToolsDefer: readonly string[];
}

export interface Recipe {
  readonly name: string;
  readonly path: string;
  readonly description: string;
  readonly engine: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Unrendered template; null when the engine default prompt stands alone. */
  readonly promptPrefix: string | null;
  readonly promptMode: PromptMode;
  readonly dataRelayCorrection: string | null;
  readonly allowedToolsAdd: readonly string[];
  readonly allowedToolsRemove: readonly string[];
  /** Ranking only, under a maxTools budget (seed 004 §2). */
  readonly allowedToolsKeep: readonly string[];
  readonly allowedToolsDropFirst: readonly string[];
  /** In the pool, but offered in the deferred discovery block (seed 004 §6.1). */
  readonly allowedToolsDefer: readonly string[];
  readonly defaultActiveSkills: readonly string[];
  /** null: no restriction; []: lockdown (seed 004 §6c). */
  readonly allowedSkills: readonly string[] | null;
  readonly locked: boolean;
  readonly listed: boolean;
  readonly internal: boolean;
  readonly protected: boolean;
  readonly web: boolean;
  readonly projectKind: RecipeProjectKind;
  /** Lower-cased tenant names; empty = every tenant (seed 004 §2a). */
  readonly tenants: readonly string[];
  readonly title: string | null;
  /** trim + lower-case (seed 004 §2). */
  readonly category: string | null;
  readonly tags: readonly string[];
  readonly guards: readonly RecipeGuard[];
  readonly profiles: ReadonlyMap<string, RecipeProfile>;
  readonly modes: ReadonlyMap<string, RecipeModeBlock>;
  /** Routing keywords of the original platform's recipe selector: kept, not applied. */
  readonly triggerKeywords: readonly string[];
  /** Engine roles of the original platform (tool manifest): kept, not applied. */
  readonly roles: readonly string[];
}

/** A recipe as the cascade delivered it. */
export interface SourcedRecipe {
  readonly recipe: Recipe;
  readonly source: Layer;
  /** Outer layers that also hold the recipe, innermost first. */
  readonly shadowed: readonly Layer[];
}
