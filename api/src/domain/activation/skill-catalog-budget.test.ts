import { describe, expect, it } from 'vitest';
import { budgetCatalog, shorten } from './skill-catalog-budget';
import { estimateTokens } from './tokens';

const SKILLS = [
  { name: 'alpha', description: 'Writes alpha reports. Use it whenever the user asks for a detailed alpha report with all the sections.' },
  { name: 'beta', description: 'Reviews beta releases. Checks the changelog, the migration notes and the rollout plan in depth.' },
  { name: 'gamma', description: 'Short one.' },
];

describe('budgetCatalog', () => {
  it('lists every skill as name and description when it fits, and says so', () => {
    const result = budgetCatalog({ skills: SKILLS, budgetTokens: 1000, header: 'Skills you may open:' });
    expect(result.text).toBe(['Skills you may open:', ...SKILLS.map((s) => `- ${s.name}: ${s.description}`)].join('\n'));
    expect(result.cuts).toEqual([]);
    expect(result.summary).toBe(`Catalog: 3 skills in ${result.tokens} of 1000 tokens.`);
    expect(result.tokens).toBe(estimateTokens(result.text));
  });

  // Budgets in tokenx's count (tokens.ts); the order of the cuts is what this pins.
  it('shortens the least-used skills first, then drops descriptions, then omits — in that order', () => {
    // beta and gamma are unused (beta first: the longer description); alpha was opened five times.
    const at = (budgetTokens: number) => budgetCatalog({ skills: SKILLS, uses: { alpha: 5 }, budgetTokens, shortChars: 30 });
    expect(at(60).cuts).toEqual([]);
    expect(at(50).cuts).toEqual([{ skill: 'beta', cut: 'SHORTENED' }]);
    expect(at(50).text).toContain('- beta: Reviews beta releases.\n');
    expect(at(30).cuts).toEqual([{ skill: 'beta', cut: 'SHORTENED' }, { skill: 'alpha', cut: 'SHORTENED' }]);
    expect(at(18).cuts).toEqual([{ skill: 'beta', cut: 'NAME_ONLY' }, { skill: 'alpha', cut: 'SHORTENED' }]);
    expect(at(18).text).toBe('- alpha: Writes alpha reports.\n- beta\n- gamma: Short one.');
    expect(at(10).cuts).toEqual([{ skill: 'beta', cut: 'NAME_ONLY' }, { skill: 'gamma', cut: 'NAME_ONLY' }, { skill: 'alpha', cut: 'NAME_ONLY' }]);
    const omitted = at(7);
    expect(omitted.cuts).toEqual([{ skill: 'beta', cut: 'OMITTED' }, { skill: 'gamma', cut: 'OMITTED' }, { skill: 'alpha', cut: 'NAME_ONLY' }]);
    expect(omitted.text).toBe('- alpha\n(+2 more)');
    expect(omitted.summary).toBe('Catalog cut to fit 7 tokens: 1 name only, 2 omitted (least-used first).');
    expect(omitted.fits).toBe(true);
  });

  it('never cuts silently: an impossible budget says it is still over', () => {
    const result = budgetCatalog({ skills: SKILLS, budgetTokens: 1, header: 'A long header that alone is over budget' });
    expect(result.fits).toBe(false);
    expect(result.cuts).toHaveLength(3);
    expect(result.summary).toMatch(/Still over budget/);
  });

  it('keeps one render consistent with the incremental accounting for many skills', () => {
    const many = Array.from({ length: 2000 }, (_v, i) => ({ name: `skill-${i}`, description: `Does thing ${i}. And explains it at length, with details.` }));
    const result = budgetCatalog({ skills: many, budgetTokens: 8000, uses: Object.fromEntries(many.map((s, i) => [s.name, i % 7])) });
    expect(result.tokens).toBeLessThanOrEqual(8000);
    expect(result.tokens).toBe(estimateTokens(result.text));
  });
});

describe('shorten', () => {
  it('keeps the first sentence, cut at a word with … when still too long', () => {
    expect(shorten('One. Two.', 80)).toBe('One.');
    expect(shorten('A very long first sentence without an end', 20)).toBe('A very long first…');
  });
});
