import { describe, expect, it } from 'vitest';
import { appendEvalCase } from './append-eval-case';
import { parseSkillEvals } from './parse-skill-evals';

describe('appendEvalCase', () => {
  it('adds a case at the end and keeps the author\'s comments', () => {
    const before = '# my evals\ncases:\n  # the classic\n  - message: review this\n    fires: true\n';
    const after = appendEvalCase(before, { messages: ['earlier', 'a: colon'], fires: false, recipe: 'analyze' });
    expect(after).toContain('# my evals');
    expect(after).toContain('# the classic');
    const parsed = parseSkillEvals('e.yaml', after);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.evals?.cases.at(-1)).toMatchObject({ kind: 'fires', messages: ['earlier', 'a: colon'], fires: false, recipe: 'analyze' });
  });

  it('starts a file, and turns a flow `cases: []` into a block list', () => {
    for (const start of [null, '', 'cases: []\n']) {
      const text = appendEvalCase(start, { messages: ['hello'], fires: true, recipe: null });
      expect(text).toBe('cases:\n  - message: hello\n    fires: true\n');
    }
  });

  it('refuses a file whose cases are not a list, and an empty conversation', () => {
    expect(() => appendEvalCase('cases: 3\n', { messages: ['x'], fires: true, recipe: null })).toThrow(/not a list/);
    expect(() => appendEvalCase(null, { messages: [], fires: true, recipe: null })).toThrow(/1 to 50 messages/);
  });
});
