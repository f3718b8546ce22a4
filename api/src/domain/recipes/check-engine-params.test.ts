import { describe, expect, it } from 'vitest';
import { parseRecipe } from './parse-recipe';

const diagnose = (content: string) => parseRecipe({ name: 'r', path: '_vance/recipes/r.yaml', content });

// Issue 15: "engine: eddie", "engine: 42", "maxIterations: lots", "temperature: hot" saved without a
// word, and then ran with defaults (or failed at spawn). Each is now a warning at its line; the
// recipe still loads, as recipes written for other deployments must.
describe('recipe engine and params at save', () => {
  it('warns about an engine that does not run here, at its line, and still loads the recipe', () => {
    const result = diagnose('description: d\nengine: eddie\n');
    expect(result.recipe).not.toBeNull();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', line: 2, message: expect.stringContaining("engine 'eddie' does not run here") })]);
  });

  it('warns about an engine written as a number', () => {
    const messages = diagnose('description: d\nengine: 42\n').diagnostics.map((x) => x.message);
    expect(messages).toEqual([expect.stringContaining('not a number'), expect.stringContaining("engine '42' does not run here")]);
  });

  it('says nothing about ford and arthur with good params', () => {
    expect(diagnose('description: d\nengine: ford\nparams:\n  maxIterations: 4\n  temperature: 0.2\n').diagnostics).toEqual([]);
    expect(diagnose('description: d\nengine: arthur\n').diagnostics).toEqual([]);
  });

  it('warns about params a turn would not use, each at its line', () => {
    const result = diagnose('description: d\nengine: ford\nparams:\n  maxIterations: lots\n  temperature: hot\n  topP: 7\n  modelTimeoutMs: -5\n');
    expect(result.diagnostics.map((x) => [x.line, x.message.split(';')[0]])).toEqual([
      [4, 'maxIterations must be a whole number of at least 1, not "lots"'],
      [7, 'modelTimeoutMs must be a whole number of at least 1, not -5'],
      [5, 'temperature "hot" is not a number'],
      [6, expect.stringMatching(/^topP 7 is outside/)],
    ]);
    expect(result.diagnostics.every((x) => x.severity === 'WARNING')).toBe(true);
  });
});
