import { describe, expect, it } from 'vitest';
import type { CascadeHit } from '../cascade/document-cascade';
import type { Layer } from '../cascade/layer';
import { EnginePrompts, enginePromptPath } from './engine-prompts';

const scope = { tenantId: 't', userProjectId: 'u', projectId: 'p', tenantProjectId: 'tp' };
const hit = (path: string, content: string, source: Layer): CascadeHit =>
  ({ document: { layer: source, projectId: 'p', path, content, version: 1, updatedAt: null, updatedBy: null }, source, shadowed: ['RESOURCE'] }) as CascadeHit;

describe('EnginePrompts (seed 004 §5.6)', () => {
  const builtin = new Map([['ford', 'Built-in ford.']]);

  it('takes the effective _vance/prompts/<engine>-prompt.md and reports its layer, without the final newline', async () => {
    const asked: string[] = [];
    const prompts = new EnginePrompts({ lookupCascade: async (_s, path) => (asked.push(path), hit(path, 'Project ford {{ mode }}.\n\n', 'PROJECT')) }, builtin);
    expect(await prompts.defaultPrompt(scope, 'ford')).toEqual({ text: 'Project ford {{ mode }}.', source: 'PROJECT' });
    expect(asked).toEqual([enginePromptPath('ford')]);
    expect(enginePromptPath('ford')).toBe('_vance/prompts/ford-prompt.md');
  });

  it("falls back to the engine's built-in text when no layer holds the document, '' for an engine without one", async () => {
    const prompts = new EnginePrompts({ lookupCascade: async () => null }, builtin);
    expect(await prompts.defaultPrompt(scope, 'ford')).toEqual({ text: 'Built-in ford.', source: null });
    expect(await prompts.defaultPrompt(scope, 'eddie')).toEqual({ text: '', source: null });
  });
});
