import type { CascadeScope } from '../cascade/scope';
import type { Engine } from './engine';

/**
 * Where an engine's default prompt template comes from (seed 004 §5.6) — the one place the turn
 * composer and resolveRecipe's preview ask. Today: the text the engine carries. Kept a single small
 * function so that prompts as documents (`_vance/prompts/<engine>-prompt.md`, looked up in `scope`)
 * replace it without touching its callers.
 */
export type EngineDefaultPrompt = (engine: Engine, scope: CascadeScope) => Promise<string>;

export const builtinDefaultPrompt: EngineDefaultPrompt = async (engine) => engine.defaultPrompt;
