import { describe, expect, it } from 'vitest';
import { parseSkillEvals } from './parse-skill-evals';

const PATH = '_vance/skills/ts/evals.yaml';

describe('parseSkillEvals', () => {
  it('reads fires and picked cases with their lines, message windows and expectations', () => {
    const { evals, diagnostics } = parseSkillEvals(PATH, [
      'picked: { runs: 5, threshold: 0.8 }',
      'cases:',
      '  - message: review this diff',
      '    fires: yes',
      '    trigger: 2',
      '    oneShot: true',
      '    only: true',
      '  - messages: [older, newest]',
      '    recipe: analyze',
      '    fires: false',
      '  - message: pick me',
      '    picked: true',
    ].join('\n'));
    expect(diagnostics).toEqual([]);
    expect(evals?.picked).toEqual({ runs: 5, threshold: 0.8 });
    expect(evals?.cases).toEqual([
      { kind: 'fires', index: 0, line: 3, messages: ['review this diff'], recipe: null, fires: true, trigger: 2, oneShot: true, only: true },
      { kind: 'fires', index: 1, line: 8, messages: ['older', 'newest'], recipe: 'analyze', fires: false, trigger: null, oneShot: null, only: false },
      { kind: 'picked', index: 2, line: 11, messages: ['pick me'], recipe: null, picked: true },
    ]);
  });

  it('reports each error with path, line and field, and yields no evals', () => {
    const { evals, diagnostics } = parseSkillEvals(PATH, [
      'cases:',
      '  - message: hi',
      '    fires: maybe',
      '  - fires: true',
      '  - message: x',
      '    fires: true',
      '    picked: false',
      '  - message: y',
      '    fires: false',
      '    trigger: 1',
    ].join('\n'));
    expect(evals).toBeNull();
    expect(diagnostics.map((d) => [d.severity, d.line, d.field])).toEqual([
      ['ERROR', 3, 'cases[0].fires'],
      ['ERROR', 4, 'cases[1].message'],
      ['ERROR', 5, 'cases[2].fires'],
      ['ERROR', 10, 'cases[3].trigger'],
    ]);
    expect(diagnostics.every((d) => d.path === PATH)).toBe(true);
    expect(diagnostics[0]?.message).toBe('fires: true or false');
  });

  it('refuses a file without cases, a YAML syntax error and out-of-range picked settings', () => {
    expect(parseSkillEvals(PATH, 'cases: []').diagnostics[0]).toMatchObject({ severity: 'ERROR', field: 'cases', line: 1 });
    expect(parseSkillEvals(PATH, 'cases: [').diagnostics[0]?.message).toMatch(/^YAML syntax/);
    const bad = parseSkillEvals(PATH, 'picked: { runs: 0 }\ncases:\n  - message: a\n    picked: true');
    expect(bad.evals).toBeNull();
    expect(bad.diagnostics[0]).toMatchObject({ field: 'picked.runs', line: 1 });
  });

  it('bounds the model calls a file may ask for (picked cases × runs)', () => {
    const many = ['picked: { runs: 20 }', 'cases:', ...Array.from({ length: 11 }, (_, i) => [`  - message: m${i}`, '    picked: true']).flat()].join('\n');
    const parsed = parseSkillEvals(PATH, many);
    expect(parsed.evals).toBeNull();
    expect(parsed.diagnostics).toEqual([expect.objectContaining({ field: 'picked.runs', message: 'picked: cases would make 220 model calls (cases × runs); at most 200 in one file' })]);
  });

  it('warns about unknown keys but keeps the case', () => {
    const { evals, diagnostics } = parseSkillEvals(PATH, 'cases:\n  - message: a\n    fires: true\n    fire: false');
    expect(evals?.cases).toHaveLength(1);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', line: 4, field: 'cases[0].fire' })]);
  });
});
