import { describe, expect, it } from 'vitest';
import { parseRecipe } from './parse-recipe';
import { FakeTemplateEngine } from './testing';

const PATH = '_vance/recipes/analyze.yaml';
const parse = (content: string, templates = new FakeTemplateEngine()) => parseRecipe({ name: 'analyze', path: PATH, content }, templates);
const only = (content: string) => {
  const result = parse(content);
  expect(result.diagnostics).toHaveLength(1);
  return result.diagnostics[0]!;
};

describe('parseRecipe — fields', () => {
  it('reads every field of seed 004 §2/§6/§6a/§6c/§6d/§6e with its defaults', () => {
    const { recipe, diagnostics } = parse(`description: Analyse things
engine: ford
params:
  model: default:analyze
  maxIterations: 10
promptPrefix: |
  You analyse.
promptMode: overwrite
dataRelayCorrection: "got %d chars, replied %d"
allowedToolsAdd: [doc_write, "@web"]
allowedToolsRemove: ["doc_*"]
allowedToolsKeep: [respond]
allowedToolsDropFirst: ["calendar_*"]
defaultActiveSkills: [naming]
allowedSkills: [naming, code-review]
locked: yes
listed: "on"
internal: 0
protected: TRUE
web: Off
projectKind: System
tenants: [Acme, globex]
title: "  Analyse  "
category: "  Research "
tags: [research, 2024]
guard:
  - script: _vance/guards/llm-judge.js
    params: { judge: "done?" }
    maxRounds: 2
  - scriptBody: "vance.guard.continueWith('x')"
    trigger: START
    allowTools: true
profiles:
  web:
    allowedToolsRemove: ["client_*"]
    promptPrefixAppend: "Web client."
    params: { maxIterations: 6 }
`);
    expect(diagnostics).toEqual([]);
    expect(recipe).toMatchObject({
      name: 'analyze', path: PATH, description: 'Analyse things', engine: 'ford',
      params: { model: 'default:analyze', maxIterations: 10 }, promptPrefix: 'You analyse.\n', promptMode: 'OVERWRITE',
      dataRelayCorrection: 'got %d chars, replied %d', allowedToolsAdd: ['doc_write', '@web'], allowedToolsRemove: ['doc_*'],
      allowedToolsKeep: ['respond'], allowedToolsDropFirst: ['calendar_*'], defaultActiveSkills: ['naming'],
      allowedSkills: ['naming', 'code-review'], locked: true, listed: true, internal: false, protected: true, web: false,
      projectKind: 'system', tenants: ['acme', 'globex'], title: 'Analyse', category: 'research', tags: ['research', '2024'],
      guards: [
        { script: { kind: 'PATH', path: '_vance/guards/llm-judge.js' }, params: { judge: 'done?' }, trigger: 'stop', maxRounds: 2, allowTools: false },
        { script: { kind: 'INLINE', body: "vance.guard.continueWith('x')" }, params: {}, trigger: 'start', maxRounds: null, allowTools: true },
      ],
    });
    expect(recipe?.profiles.get('web')).toEqual({
      name: 'web', allowedToolsAdd: [], allowedToolsRemove: ['client_*'], promptPrefixAppend: 'Web client.', params: { maxIterations: 6 }, session: null,
    });
  });

  it('defaults an absent field: APPEND, normal, not locked, no skill restriction, every tenant', () => {
    const { recipe } = parse('description: d\nengine: ford\n');
    expect(recipe).toMatchObject({
      params: {}, promptPrefix: null, promptMode: 'APPEND', projectKind: 'normal', locked: false, listed: false,
      allowedSkills: null, defaultActiveSkills: [], tenants: [], guards: [], title: null, category: null,
    });
    expect(recipe?.profiles.size).toBe(0);
  });

  it.each([
    ['description', 'engine: ford\n', 1, 1],
    ['engine', 'description: d\n', 1, 1],
    ['description', 'description: "   "\nengine: ford\n', 1, 14],
  ])('requires %s', (field, content, line, column) => {
    expect(only(content)).toMatchObject({ severity: 'ERROR', field, line, column, path: PATH, message: expect.stringContaining(`${field} is required`) });
  });

  it('rejects an unknown projectKind with its position instead of falling back', () => {
    expect(only('description: d\nengine: ford\nprojectKind: hub\n')).toMatchObject({
      severity: 'ERROR', field: 'projectKind', line: 3, column: 14, message: expect.stringContaining('normal, system, any'),
    });
  });

  it('rejects an unknown promptMode', () => {
    expect(only('description: d\nengine: ford\npromptMode: PREPEND\n')).toMatchObject({ severity: 'ERROR', field: 'promptMode', line: 3, column: 13 });
  });

  it.each(['locked', 'listed', 'internal', 'protected', 'web'])('rejects a %s that is not a DESIGN §10 boolean, naming the field', (field) => {
    expect(only(`description: d\nengine: ford\n${field}: maybe\n`)).toMatchObject({
      severity: 'ERROR', field, line: 3, message: expect.stringContaining('true/false, yes/no, on/off, 1/0'),
    });
  });

  it('rejects a params value that is not a map', () => {
    expect(only('description: d\nengine: ford\nparams: [a]\n')).toMatchObject({ severity: 'ERROR', field: 'params', line: 3, column: 9 });
  });

  it('rejects a tool entry with a star in the middle or an empty label, at the entry', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\nallowedToolsAdd:\n  - ok_tool\n  - "doc_*_x"\n  - "@"\n');
    expect(recipe).toBeNull();
    expect(diagnostics).toMatchObject([
      { severity: 'ERROR', field: 'allowedToolsAdd[1]', line: 5, column: 5, message: expect.stringContaining('only a trailing *') },
      { severity: 'ERROR', field: 'allowedToolsAdd[2]', line: 6, column: 5 },
    ]);
  });

  it('accepts a single string where a list is expected', () => {
    expect(parse('description: d\nengine: ford\ntenants: Acme\ntags: solo\n').recipe).toMatchObject({ tenants: ['acme'], tags: ['solo'] });
  });

  it('normalises category to trim + lower-case and warns when it is not kebab-case', () => {
    const result = parse('description: d\nengine: ford\ncategory: " My Stuff "\n');
    expect(result.recipe?.category).toBe('my stuff');
    expect(result.diagnostics).toMatchObject([{ severity: 'WARNING', field: 'category', line: 3 }]);
  });

  it('warns about a dataRelayCorrection that cannot be formatted with two numbers', () => {
    expect(only('description: d\nengine: ford\ndataRelayCorrection: "got %s of %d"\n')).toMatchObject({ severity: 'WARNING', field: 'dataRelayCorrection' });
  });
});

describe('parseRecipe — skills (seed 004 §6c)', () => {
  it('requires defaultActiveSkills ⊆ allowedSkills and names the stray entry', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\ndefaultActiveSkills:\n  - a\n  - b\nallowedSkills: [a]\n');
    expect(recipe).toBeNull();
    expect(diagnostics).toMatchObject([{ severity: 'ERROR', field: 'defaultActiveSkills[1]', line: 5, column: 5, message: expect.stringContaining("'b' is not in allowedSkills") }]);
  });

  it('treats allowedSkills: [] as lockdown, which forbids default skills', () => {
    expect(parse('description: d\nengine: ford\nallowedSkills: []\n').recipe?.allowedSkills).toEqual([]);
    expect(only('description: d\nengine: ford\nallowedSkills: []\ndefaultActiveSkills: [a]\n')).toMatchObject({
      severity: 'ERROR', field: 'defaultActiveSkills', line: 4, message: expect.stringContaining('locks every skill out'),
    });
  });

  it('keeps the first of repeated entries, in order, in a list of 50,000 (a Set, not a quadratic scan: issue 13)', () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `s${i % 25_000}`);
    const { recipe, diagnostics } = parse(`description: d\nengine: ford\nallowedSkills: [${names.join(', ')}]\ndefaultActiveSkills: [s7, s24999]\n`);
    expect(diagnostics).toEqual([]);
    expect(recipe?.allowedSkills).toHaveLength(25_000);
    expect(recipe?.allowedSkills?.slice(0, 3)).toEqual(['s0', 's1', 's2']);
    expect(recipe?.defaultActiveSkills).toEqual(['s7', 's24999']);
  });

  it('treats an allowedSkills without value as no restriction', () => {
    expect(parse('description: d\nengine: ford\nallowedSkills:\ndefaultActiveSkills: [a]\n').recipe?.allowedSkills).toBeNull();
  });
});

describe('parseRecipe — guards (seed 004 §6d)', () => {
  it('requires exactly one of script and scriptBody', () => {
    const { diagnostics } = parse('description: d\nengine: ford\nguard:\n  - trigger: stop\n  - script: a.js\n    scriptBody: "x"\n');
    expect(diagnostics).toMatchObject([
      { severity: 'ERROR', field: 'guard[0]', line: 4, column: 5, message: expect.stringContaining('needs script') },
      { severity: 'ERROR', field: 'guard[1]', line: 5, column: 5, message: expect.stringContaining('not both') },
    ]);
  });

  it('rejects an unknown trigger, a bad maxRounds and a script path that escapes', () => {
    const { diagnostics } = parse('description: d\nengine: ford\nguard:\n  - script: ../x.js\n    trigger: later\n    maxRounds: -1\n');
    expect(diagnostics.map((x) => [x.severity, x.field, x.line])).toEqual([
      ['ERROR', 'guard[0].script', 4],
      ['ERROR', 'guard[0].trigger', 5],
      ['ERROR', 'guard[0].maxRounds', 6],
    ]);
  });

  it('warns that maxRounds is ignored for start and command guards, and about unknown guard keys', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\nguard:\n  - scriptBody: x\n    trigger: command\n    maxRounds: 3\n    judge: y\n');
    expect(recipe?.guards).toHaveLength(1);
    expect(diagnostics.map((x) => [x.severity, x.field, x.line])).toEqual([
      ['WARNING', 'guard[0].judge', 7],
      ['WARNING', 'guard[0].maxRounds', 6],
    ]);
  });
});

describe('parseRecipe — misplaced fields', () => {
  it('warns when params swallows a top-level field, naming the field and where it belongs', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\nparams:\n  model: x\n  promptPrefix: |\n    never sent\n');
    expect(recipe?.params).toHaveProperty('promptPrefix');
    expect(diagnostics).toMatchObject([{
      severity: 'WARNING', field: 'params.promptPrefix', line: 5, column: 3,
      message: expect.stringMatching(/'promptPrefix' under params .*never takes effect.*top level/),
    }]);
  });

  it('warns when a profile params block swallows a profile field', () => {
    const { diagnostics } = parse('description: d\nengine: ford\nprofiles:\n  web:\n    params:\n      promptPrefixAppend: x\n      allowedToolsAdd: [a]\n');
    expect(diagnostics).toMatchObject([
      { severity: 'WARNING', field: 'profiles.web.params.promptPrefixAppend', line: 6, column: 7, message: expect.stringContaining('profiles.web.promptPrefixAppend') },
      { severity: 'WARNING', field: 'profiles.web.params.allowedToolsAdd', line: 7 },
    ]);
  });

  it('warns about unknown top-level keys, with a suggestion', () => {
    const { recipe, diagnostics } = parse('description: d\nengine: ford\nallowedToolAdd: [x]\nmodel: y\nfoo: 1\n');
    expect(recipe).not.toBeNull();
    expect(diagnostics).toMatchObject([
      { severity: 'WARNING', field: 'allowedToolAdd', line: 3, column: 1, message: expect.stringContaining("did you mean 'allowedToolsAdd'") },
      { severity: 'WARNING', field: 'model', line: 4, message: expect.stringContaining('params.model') },
      { severity: 'WARNING', field: 'foo', line: 5 },
    ]);
  });

  it('warns about unknown keys in a profile block', () => {
    expect(only('description: d\nengine: ford\nprofiles:\n  web:\n    promptPrefix: x\n')).toMatchObject({
      severity: 'WARNING', field: 'profiles.web.promptPrefix', line: 5, column: 5,
    });
  });

  // Issue 15: these loaded without a word and had no effect; allowedToolsDefer works, the others say they are ignored.
  it('loads the fields of the original platform (modes, triggers, roles, allowedToolsDefer, profile session), warning at those that have no effect here', () => {
    const { recipe, diagnostics } = parse(`description: d
engine: arthur
allowedToolsDefer: ["@write"]
roles: [tool-prober]
triggers:
  keywords: [run script]
modes:
  NORMAL:
    allowedToolsRemove: [doc_purge]
    allowedToolsDefer: ["@executive"]
profiles:
  web:
    session: { onIdle: SUSPEND }
`);
    expect(diagnostics.map((d) => [d.severity, d.field])).toEqual([
      ['WARNING', 'roles'], ['WARNING', 'triggers'], ['WARNING', 'modes'], ['WARNING', 'profiles.web.session'],
    ]);
    expect(recipe).toMatchObject({ allowedToolsDefer: ['@write'], roles: ['tool-prober'], triggerKeywords: ['run script'] });
    expect(recipe?.modes.get('NORMAL')).toMatchObject({ allowedToolsRemove: ['doc_purge'], allowedToolsDefer: ['@executive'] });
    expect(recipe?.profiles.get('web')?.session).toEqual({ onIdle: 'SUSPEND' });
  });
});
