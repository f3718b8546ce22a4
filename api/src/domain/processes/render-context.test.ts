import { describe, expect, it } from 'vitest';
import { actionRenderContext, appliedProfile, processRenderContext } from './render-context';

const process = { connectionProfile: null, mode: 'PLANNING' as const, recipeName: 'analyze', engine: 'ford', engineParams: { maxIterations: 3 } };

describe('the render context of a process (seed 004 §5.1)', () => {
  it('names the profile whose block the spawn applied: the connection profile, else the wire default web', () => {
    expect(appliedProfile({ connectionProfile: null })).toBe('web');
    expect(appliedProfile({ connectionProfile: '  ' })).toBe('web');
    expect(appliedProfile({ connectionProfile: 'foot' })).toBe('foot');
  });

  it("carries the process's mode, leaves lang out until it is known, and lower-cases the provider", () => {
    const context = processRenderContext(process, { model: 'gpt-4o', provider: 'OpenAI', tier: 'large' });
    expect(context).toEqual({ tier: 'large', model: 'gpt-4o', provider: 'openai', mode: 'PLANNING', profile: 'web', recipe: 'analyze', engine: 'ford', params: { maxIterations: 3 } });
    expect('lang' in context).toBe(false);
  });

  it('gives an action only what exists at activation: args, recipe, engine, mode, profile, params', () => {
    const context = processRenderContext(process, { model: 'm', provider: 'p', tier: 'small' });
    expect(actionRenderContext(context, { text: 'x', words: ['x'] })).toEqual({
      args: { text: 'x', words: ['x'] }, recipe: 'analyze', engine: 'ford', mode: 'PLANNING', profile: 'web', params: { maxIterations: 3 },
    });
  });
});
