import { describe, expect, it } from 'vitest';
import { StaticSettings } from '../settings/settings-reader';
import { ModelAliasCycleError, UnknownModelError } from './errors';
import { resolveModel } from './model-alias';
import { readModelSize, StaticModelCatalog, tierFor } from './model-catalog';

const DEFAULTS = { 'ai.default.provider': 'Anthropic', 'ai.default.model': 'claude-sonnet-4-6' };
const resolve = (spec: string, settings: Record<string, string> = DEFAULTS) => resolveModel(spec, new StaticSettings(settings));

describe('resolveModel (seed 004 §11a)', () => {
  it('uses a registered provider directly', async () => {
    expect(await resolve('anthropic:claude-sonnet-4-5')).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(await resolve('openai-compatible:llama3.1:8b')).toMatchObject({ provider: 'openai-compatible', model: 'llama3.1:8b' });
  });

  it('follows aliases recursively and reports the chain', async () => {
    const settings = { ...DEFAULTS, 'ai.alias.default.analyze': 'team:deep', 'ai.alias.team.deep': 'openai:gpt-5' };
    expect(await resolve('default:analyze', settings)).toEqual({ provider: 'openai', model: 'gpt-5', chain: ['default:analyze', 'team:deep', 'openai:gpt-5'] });
  });

  it('falls back to ai.default.provider/model for a default alias nobody configured', async () => {
    expect(await resolve('default:fast')).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
  });

  it('tries a list of fallbacks in order before the default fallback', async () => {
    const settings = { ...DEFAULTS, 'ai.alias.default.analyze': 'gemini:gemini-2.5-pro' };
    expect(await resolve('default:eddie,default:analyze', settings)).toMatchObject({ provider: 'gemini', model: 'gemini-2.5-pro' });
    expect(await resolve('default:eddie, default:other')).toMatchObject({ provider: 'anthropic' });
  });

  it('reads a bare model name as a model of the default provider', async () => {
    expect(await resolve('claude-haiku-4-5')).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5' });
  });

  it('detects an alias cycle', async () => {
    const settings = { 'ai.alias.default.fast': 'team:quick', 'ai.alias.team.quick': 'default:fast' };
    const error = await resolve('default:fast', settings).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelAliasCycleError);
    expect((error as ModelAliasCycleError).message).toContain('default:fast → team:quick → default:fast');
  });

  it('fails with UNKNOWN_MODEL (BAD_INPUT) for an unknown prefix, and for default without settings', async () => {
    const unknown = await resolve('acme:model').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UnknownModelError);
    expect(unknown).toMatchObject({ code: 'UNKNOWN_MODEL', category: 'BAD_INPUT' });
    await expect(resolve('default:fast', {})).rejects.toBeInstanceOf(UnknownModelError);
  });

  it('accepts an extended provider list', async () => {
    expect(await resolveModel('mistral:large', new StaticSettings({}), { providers: ['mistral'] })).toMatchObject({ provider: 'mistral' });
  });
});

describe('model tier (seed 004 §5.1)', () => {
  const catalog = new StaticModelCatalog({ 'acme:big-one': 'large' });

  it('classifies small models by name and defaults unknown ones to large', () => {
    expect(tierFor(catalog, 'anthropic', 'claude-haiku-4-5', 'AUTO')).toBe('small');
    expect(tierFor(catalog, 'google', 'gemini-2.5-flash', 'AUTO')).toBe('small');
    expect(tierFor(catalog, 'ollama', 'llama3:8b', 'AUTO')).toBe('small');
    expect(tierFor(catalog, 'anthropic', 'claude-sonnet-4-6', 'AUTO')).toBe('large');
    expect(tierFor(catalog, 'acme', 'big-one', 'AUTO')).toBe('large');
  });

  it('lets params.modelSize force the tier', () => {
    expect(tierFor(catalog, 'anthropic', 'claude-sonnet-4-6', readModelSize('small')!)).toBe('small');
    expect(tierFor(catalog, 'anthropic', 'claude-haiku-4-5', readModelSize('LARGE')!)).toBe('large');
    expect(readModelSize(undefined)).toBe('AUTO');
    expect(readModelSize('huge')).toBeUndefined();
  });
});
