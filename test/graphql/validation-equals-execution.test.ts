import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

/**
 * Issue 15, "validation equals execution": what a saved recipe or SKILL.md will do when it runs is
 * said at save, at its line, through putDocument and validateDocument (the server's validation
 * pool, worker threads included), in the product's words.
 */
const VALIDATE = `query V($path: String!, $content: String!) { validateDocument(path: $path, content: $content) { severity field line column message } }`;
const PUT = `mutation P($path: String!, $content: String!) { putDocument(layer: VANCE, path: $path, content: $content) { version diagnostics { severity field line message } } }`;

interface Shown { severity: string; field: string | null; line: number; column: number; message: string }

const skill = (fields: string[], body = 'Body.') => ['---', 'title: T', 'description: d', 'version: 1.0.0', ...fields, '---', body, ''].join('\n');

describe.each(testDatabases())('validation equals execution over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  const validate = async (path: string, content: string): Promise<Shown[]> => {
    const r = await t.gql(VALIDATE, { path, content });
    expect(r.errors).toBeUndefined();
    return r.data?.validateDocument as Shown[];
  };
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_DEFAULT_SETTINGS: JSON.stringify({ 'ai.default.provider': 'openai', 'ai.default.model': 'gpt-4o' }) });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('warns at save about typed params, keys this deployment ignores and tool entries that select no tool, each at its line, and still saves', async () => {
    const content = [
      'description: d', 'engine: ford', 'params:', '  modelSize: huge', '  validation: maybe',
      'allowedToolsAdd: [manual_read, shell_exec, "@telepathy"]',
      'modes:', '  PLANNING: {}', 'triggers:', '  keywords: [plan]',
      'profiles:', '  mobile:', '    params: { maxIterations: 0 }',
    ].join('\n');
    const shown = await validate('_vance/recipes/checked.yaml', content);
    expect(shown.map((d) => [d.severity, d.line, d.field])).toEqual([
      ['WARNING', 7, 'modes'],
      ['WARNING', 9, 'triggers'],
      ['WARNING', 4, 'params.modelSize'],
      ['WARNING', 5, 'params.validation'],
      ['WARNING', 13, 'profiles.mobile.params.maxIterations'],
      ['WARNING', 6, 'allowedToolsAdd[1]'],
      ['WARNING', 6, 'allowedToolsAdd[2]'],
    ]);
    expect(shown[0]!.message).toMatch(/not supported by this deployment and is ignored/);
    expect(shown[5]!.message).toMatch(/no built-in tool is called 'shell_exec'; it resolves only where a tool document or MCP pack of the scope the process runs in, or a connected client, provides it/);
    expect(shown[6]!.message).toMatch(/label @telepathy matches no built-in tool/);
    const saved = await t.gql(PUT, { path: '_vance/recipes/checked.yaml', content });
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.putDocument.diagnostics).toHaveLength(7);
  });

  it('refuses a SKILL.md whose triggers are one word or whose activate: entry would not run, at the line, and warns about its unknown tools', async () => {
    const scalar = await t.gql(PUT, { path: '_vance/skills/one-word/SKILL.md', content: skill(['triggers: review']) });
    expect(codeOf(scalar)).toBe('BAD_USER_INPUT');
    expect(scalar.errors?.[0]?.extensions?.diagnostics).toMatchObject([{ severity: 'ERROR', field: 'triggers', line: 5, message: expect.stringMatching(/must be a list/) }]);
    const slashes = await t.gql(PUT, { path: '_vance/skills/slashes/SKILL.md', content: skill(['activate:', '  - guard clear', '  - "//"']) });
    expect(codeOf(slashes)).toBe('BAD_USER_INPUT');
    expect(slashes.errors?.[0]?.extensions?.diagnostics).toMatchObject([{ severity: 'ERROR', field: 'activate[1]', line: 7, message: expect.stringMatching(/verb right after '\/\/'/) }]);
    const tools = await validate('_vance/skills/tooled/SKILL.md', skill(['tools: [manual_read, shell_exec]']));
    expect(tools).toMatchObject([{ severity: 'WARNING', field: 'tools[1]', line: 5, message: expect.stringMatching(/no built-in tool is called 'shell_exec'/i) }]);
  });

  it('reports an unclosed bracket or quote on its own line, in a recipe and in SKILL.md frontmatter', async () => {
    expect(await validate('_vance/recipes/broken.yaml', 'description: d\nengine: ford\ntags: [a, b\nlisted: true\n'))
      .toMatchObject([{ severity: 'ERROR', line: 3, column: 7 }]);
    expect(await validate('_vance/skills/broken/SKILL.md', skill(['tags: "review', 'enabled: true'])))
      .toMatchObject([{ severity: 'ERROR', line: 5, column: 7 }]);
  });

  it('shows a dropped value the recipe wrote once in resolveRecipe', async () => {
    await t.gql(PUT, { path: '_vance/recipes/hot.yaml', content: 'description: d\nengine: ford\nparams:\n  temperature: hot\n' });
    const r = await t.gql(`{ resolveRecipe(name: "hot") { warnings { field message } } }`);
    const about = (r.data?.resolveRecipe.warnings as { field: string; message: string }[]).filter((w) => w.message.includes('hot'));
    expect(about).toEqual([{ field: 'params.temperature', message: expect.stringContaining('temperature "hot" is not a number') }]);
  });

  // Issue 15: messages said "(seed 000 §2c)"; users read them, the seeds are ours.
  it('speaks the product\'s language: no seed citations in diagnostics, tool descriptions or the schema', async () => {
    const batch: [string, string][] = [
      ['_vance/skills/a/SKILL.md', skill(['run:', '  target: spawn', 'lifecycle: shot', 'triggers: [x]', 'disable-model-invocation: true', 'disableModelInvocation: true'])],
      ['_vance/skills/b/SKILL.md', skill(['lifecycle: shot', 'tools: [x]', 'manualPaths: [docs/]', 'deactivate: [guard clear]'], '')],
      ['_vance/skills/c/SKILL.md', '---\nname: other\ndescription: d\nrun:\n  target: spawn\n---\nBody\n'],
      ['_vance/recipes/d.yaml', 'description: d\nengine: zaphod\nprofiles:\n  web:\n    session: {}\nroles: [x]\nparams:\n  promptPrefix: x\n  topP: 9\n'],
    ];
    const messages: string[] = [];
    for (const [path, content] of batch) messages.push(...(await validate(path, content)).map((d) => d.message));
    expect(messages.length).toBeGreaterThan(10);
    expect(messages.filter((m) => /seed \d|§/.test(m))).toEqual([]);
    const schema = await t.gql(`{ __schema { types { description fields { description } } } }`);
    const descriptions = JSON.stringify(schema.data);
    expect(descriptions.match(/[^"]*(seed \d|§)[^"]*/g) ?? []).toEqual([]);
  });
});
