/**
 * The render context a process's templates see (seed 004 §5.1): the recipe prefix, the engine's
 * default prompt and the skill bodies of a turn, and a skill's `action:` when it is activated.
 * One builder, so the turn, the preview and the activation agree:
 * - `mode` is the process's plan mode (setProcessMode), NORMAL until set;
 * - `profile` is the profile whose block was applied at spawn: the connection profile, or the wire
 *   default `web` when the spawn named none (profile-block.ts chooses the block the same way);
 * - `lang` is absent until the chat language is known (a template can test `lang is defined`).
 */
import { WIRE_DEFAULT_PROFILE } from '../recipes/profile-block';
import type { PromptRenderContext } from '../recipes/prompt-composition';
import type { Process } from './process';

/** The profile whose block the spawn applied. */
export function appliedProfile(process: Pick<Process, 'connectionProfile'>): string {
  return process.connectionProfile?.trim() || WIRE_DEFAULT_PROFILE;
}

export function processRenderContext(
  process: Pick<Process, 'connectionProfile' | 'mode' | 'recipeName' | 'engine' | 'engineParams'>,
  model: { readonly model: string; readonly provider: string; readonly tier: string },
): PromptRenderContext {
  return {
    tier: model.tier, model: model.model, provider: model.provider.toLowerCase(), mode: process.mode,
    profile: appliedProfile(process), recipe: process.recipeName ?? '', engine: process.engine, params: process.engineParams,
  };
}

/** What a skill's `action:` (or a shot skill's body at activation) renders with: no model is chosen then. */
export function actionRenderContext(
  context: Pick<PromptRenderContext, 'recipe' | 'engine' | 'mode' | 'profile' | 'params'>, args: unknown | null,
): Record<string, unknown> {
  // A skill that consumes no arguments has no `args` (seed 000 §2b).
  return { ...(args !== null ? { args } : {}), recipe: context.recipe, engine: context.engine, mode: context.mode, profile: context.profile, params: context.params };
}
