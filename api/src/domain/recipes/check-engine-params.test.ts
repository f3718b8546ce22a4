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

// Issue 15: every typed param the run reads has its save-time check, by the reader the run uses.
describe('the other typed params at save', () => {
  it('warns about model, modelSize, validation and manualPaths values the run would not use, each at its line', () => {
    const result = diagnose([
      'description: d', 'engine: ford', 'params:', '  model: 42', '  modelSize: huge', '  validation: maybe',
      '  manualPaths: [docs/, ../secrets/, 7]',
    ].join('\n'));
    expect(result.recipe).not.toBeNull();
    expect(result.diagnostics.map((x) => [x.severity, x.line, x.column, x.field])).toEqual([
      ['WARNING', 4, 10, 'params.model'],
      ['WARNING', 5, 14, 'params.modelSize'],
      ['WARNING', 6, 15, 'params.validation'],
      ['WARNING', 7, 24, 'params.manualPaths[1]'],
      ['WARNING', 7, 37, 'params.manualPaths[2]'],
    ]);
    expect(result.diagnostics[1]!.message).toMatch(/SMALL, LARGE or AUTO/);
    expect(result.diagnostics[2]!.message).toMatch(/true\/false/);
  });

  it('accepts what the run reads: a model spec, any-case modelSize, boolean spellings, a list of manual paths, an empty list', () => {
    expect(diagnose('description: d\nengine: ford\nparams:\n  model: default:fast\n  modelSize: small\n  validation: yes\n  manualPaths: [docs/]\n').diagnostics).toEqual([]);
    expect(diagnose('description: d\nengine: ford\nparams:\n  manualPaths: []\n').diagnostics).toEqual([]);
  });

  // Issue 16: a string where a list belongs is located; the run reads it as that one folder, and says so.
  it('warns at its line when manualPaths is a string instead of a list, in params and in a profile', () => {
    const result = diagnose([
      'description: d', 'engine: ford', 'params:', '  manualPaths: docs/',
      'profiles:', '  web:', '    params:', '      manualPaths: web/manuals/',
    ].join('\n'));
    expect(result.diagnostics.map((x) => [x.severity, x.line, x.column, x.field])).toEqual([
      ['WARNING', 4, 16, 'params.manualPaths'],
      ['WARNING', 8, 20, 'profiles.web.params.manualPaths'],
    ]);
    expect(result.diagnostics[0]!.message).toMatch(/manualPaths should be a list of folders.*\[docs\/\].*read as that one folder/);
  });

  it('checks the params of every profile block the same way, at their lines', () => {
    const result = diagnose('description: d\nengine: ford\nprofiles:\n  mobile:\n    params:\n      maxIterations: 0\n      temperature: 9\n');
    expect(result.diagnostics.map((x) => [x.line, x.field])).toEqual([[6, 'profiles.mobile.params.maxIterations'], [7, 'profiles.mobile.params.temperature']]);
  });
});

// Issue 15: `modes`, `triggers`, `roles` and a profile's `session` were accepted without a word and have no effect here.
describe('keys this deployment does not apply', () => {
  it('warns at each key that it is not supported here and is ignored, and still loads the recipe', () => {
    const result = diagnose([
      'description: d', 'engine: ford', 'modes:', '  PLANNING:', '    allowedToolsAdd: [doc_read]', 'triggers:', '  keywords: [plan]',
      'roles: [prober]', 'profiles:', '  web:', '    session: { ttl: 5 }', 'allowedToolsDefer: [doc_read]',
    ].join('\n'));
    expect(result.recipe).not.toBeNull();
    expect(result.diagnostics.map((x) => [x.severity, x.line, x.column, x.field])).toEqual([
      ['WARNING', 3, 1, 'modes'],
      ['WARNING', 6, 1, 'triggers'],
      ['WARNING', 8, 1, 'roles'],
      ['WARNING', 11, 5, 'profiles.web.session'],
    ]);
    for (const d of result.diagnostics) expect(d.message).toMatch(/is not supported by this deployment and is ignored/);
    expect(result.diagnostics[0]!.message).toMatch(/^`modes`/);
  });
});
