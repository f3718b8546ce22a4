/**
 * Model alias resolution over settings (seed 004 §11a). A spec is `<prefix>:<rest>`:
 *   prefix a registered provider           → (prefix, rest), directly
 *   setting `ai.alias.<prefix>.<rest>` set → resolve its value the same way (recursively; a cycle is an error)
 *   prefix `default`, no alias             → (ai.default.provider, ai.default.model)
 *   otherwise                              → UnknownModelError (UNKNOWN_MODEL)
 * Real recipes list fallbacks, `default:eddie,default:analyze`: the first entry that resolves through a
 * provider or a configured alias wins; only if none does, the `default` fallback applies. A spec
 * without a prefix (`claude-haiku-4-5`, as callers write it) is a model of `ai.default.provider`.
 */
import type { SettingsReader } from '../settings/settings-reader';
import { ModelAliasCycleError, UnknownModelError } from './errors';

/**
 * Providers a spec may name directly. The LLM issue extends this list when it registers a provider
 * (or passes its own list to resolveModel).
 */
export const REGISTERED_PROVIDERS: readonly string[] = ['openai', 'anthropic', 'gemini', 'google', 'ollama', 'openai-compatible', 'lmstudio', 'offline'];

export const DEFAULT_ALIAS_PREFIX = 'default';
const MAX_DEPTH = 16;

export interface ResolvedModel {
  readonly provider: string;
  readonly model: string;
  /** The specs followed, from the input to the final `provider:model`. */
  readonly chain: readonly string[];
}

export interface ModelResolutionOptions {
  readonly providers?: readonly string[];
}

/** The model a process runs with when its params name none; the turn and resolveRecipe both use it. */
export const DEFAULT_MODEL_SPEC = 'default:fast';

/**
 * `params.model` as the run reads it: a non-blank text is a spec; null when absent; undefined when
 * present but unusable (a number, a list, blank text), which the run ignores for the default model.
 */
export function modelSpecOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export async function resolveModel(spec: string, settings: SettingsReader, options: ModelResolutionOptions = {}): Promise<ResolvedModel> {
  const providers = new Set((options.providers ?? REGISTERED_PROVIDERS).map((p) => p.toLowerCase()));
  return resolveSpec(spec, settings, providers, []);
}

async function resolveSpec(spec: string, settings: SettingsReader, providers: ReadonlySet<string>, seen: readonly string[]): Promise<ResolvedModel> {
  const list = entries(spec);
  for (const entry of list) {
    const hit = await resolveDirect(entry, settings, providers, seen);
    if (hit) return hit;
  }
  for (const entry of list) {
    const hit = await resolveFallback(entry, settings);
    if (hit) return { ...hit, chain: [...seen, entry, `${hit.provider}:${hit.model}`] };
  }
  const via = seen.length > 0 ? ` (reached through ${seen.join(' → ')})` : '';
  throw new UnknownModelError(spec, `not a registered provider (${[...providers].join(', ')}), no ai.alias.* setting and no ai.default.provider/ai.default.model applies${via}`);
}

/** A registered provider or a configured alias; null when neither matches. */
async function resolveDirect(entry: string, settings: SettingsReader, providers: ReadonlySet<string>, seen: readonly string[]): Promise<ResolvedModel | null> {
  const { prefix, rest } = split(entry);
  if (prefix === null) return null;
  const normalized = `${prefix}:${rest}`;
  if (providers.has(prefix) && rest !== '') return { provider: prefix, model: rest, chain: [...seen, normalized] };
  const alias = (await settings.get(`ai.alias.${prefix}.${rest}`))?.trim();
  if (!alias) return null;
  if (seen.includes(normalized) || seen.length >= MAX_DEPTH) throw new ModelAliasCycleError([...seen, normalized]);
  return resolveSpec(alias, settings, providers, [...seen, normalized]);
}

/** `default:<x>` without an alias → the ai.default.* pair; a bare model name → ai.default.provider. */
async function resolveFallback(entry: string, settings: SettingsReader): Promise<{ provider: string; model: string } | null> {
  const { prefix, rest } = split(entry);
  if (prefix !== null && prefix !== DEFAULT_ALIAS_PREFIX) return null;
  const provider = (await settings.get('ai.default.provider'))?.trim().toLowerCase();
  if (!provider) return null;
  if (prefix === null) return { provider, model: rest };
  const model = (await settings.get('ai.default.model'))?.trim();
  return model ? { provider, model } : null;
}

function entries(spec: string): string[] {
  return spec.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function split(entry: string): { prefix: string | null; rest: string } {
  const colon = entry.indexOf(':');
  if (colon < 0) return { prefix: null, rest: entry };
  return { prefix: entry.slice(0, colon).trim().toLowerCase(), rest: entry.slice(colon + 1).trim() };
}
