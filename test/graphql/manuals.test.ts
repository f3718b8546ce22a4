import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { eventually, startTestVance, type TestVance } from './harness';

/**
 * Issue 16, manuals (seed 004 §6b) through the GraphQL API: the forms of a name manual_read accepts,
 * the refusals, the layer and size in a result, `manualPaths: []` meaning no manuals in the tools and
 * the `manuals` query, and a string where the list belongs diagnosed at save. The offline model
 * calls the tool from a `call manual_read {...}` line.
 */
const PUT = `mutation Put($layer: Layer!, $project: String, $path: String!, $content: String!) {
  putDocument(layer: $layer, project: $project, path: $path, content: $content) { version diagnostics { severity field line column message } } }`;
const SPAWN = `mutation S($recipe: String!) { spawnProcess(input: { project: "lab", recipe: $recipe }) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const MESSAGES = `query M($id: ID!) { messages(processId: $id) { role content } }`;
const STATUS = `query P($id: ID!) { process(id: $id) { status } }`;
const MANUALS = `query Q($paths: [String!]) { manuals(project: "lab", paths: $paths) { name path source } }`;

const recipe = (extra: string[]) => ['description: Reads manuals', 'engine: ford', 'params:', '  validation: false', ...extra, 'allowedToolsAdd: [manual_list, manual_read]'].join('\n');

describe.each(testDatabases())('manuals by name and path ($name)', (driver) => {
  let db: Database;
  let t: TestVance;

  /** Runs one turn that calls manual_read and returns the tool message it stored. */
  const read = async (id: string, name: string): Promise<string> => {
    const before = (await t.gql(MESSAGES, { id })).data!.messages.filter((m: { role: string }) => m.role === 'tool').length;
    const sent = await t.gql(SEND, { id, text: `call manual_read ${JSON.stringify({ name })}` });
    expect(sent.errors).toBeUndefined();
    let tools: { content: string }[] = [];
    await eventually(async () => {
      tools = (await t.gql(MESSAGES, { id })).data!.messages.filter((m: { role: string }) => m.role === 'tool');
      return tools.length > before && (await t.gql(STATUS, { id })).data!.process.status === 'IDLE';
    });
    return tools[tools.length - 1]!.content;
  };

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    const docs: [string, string | null, string, string][] = [
      ['VANCE', null, '_vance/recipes/reader.yaml', recipe([])],
      ['VANCE', null, '_vance/recipes/no-manuals.yaml', recipe(['  manualPaths: []'])],
      ['PROJECT', 'lab', '_vance/manuals/essay/STYLE.md', 'Write short essays.'],
    ];
    for (const [layer, project, path, content] of docs) expect((await t.gql(PUT, { layer, project, path, content })).errors).toBeUndefined();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('reads a manual by name, NAME.md, path below the folder and full path, saying layer and size', async () => {
    const id = (await t.gql(SPAWN, { recipe: 'reader' })).data!.spawnProcess.id;
    const byPath = await read(id, 'essay\\STYLE.md');
    expect(byPath).toContain('Write short essays.');
    expect(byPath).toContain('Layer: PROJECT');
    expect(byPath).toContain('Size: 19 bytes');
    expect(await read(id, '_vance/manuals/essay/STYLE.md')).toContain('Write short essays.');
    const bundled = await read(id, 'recipe-authoring.md');
    expect(bundled).toMatch(/^# Manual: recipe-authoring\nPath: _vance\/manuals\/recipe-authoring\.md\nLayer: RESOURCE\nSize: \d+ bytes/);
  });

  it('refuses .. and absolute names as invalid, and answers an unknown name with the available ones', async () => {
    const id = (await t.gql(SPAWN, { recipe: 'reader' })).data!.spawnProcess.id;
    const climbing = await read(id, '../recipes/reader.yaml');
    expect(climbing).toMatch(/Invalid arguments for 'manual_read'.*'\.\.' segments are not allowed/);
    expect(await read(id, '/etc/passwd')).toMatch(/not a valid manual name: absolute paths are not allowed/);
    const unknown = await read(id, 'nope');
    expect(unknown).toMatch(/No manual named 'nope'.*\d+ available: .*'recipe-authoring'.*manual_list/s);
  });

  it('manualPaths: [] means no manuals for the run and for the manuals query', async () => {
    const id = (await t.gql(SPAWN, { recipe: 'no-manuals' })).data!.spawnProcess.id;
    expect(await read(id, 'recipe-authoring')).toMatch(/no manual folders/);
    const none = await t.gql(MANUALS, { paths: [] });
    expect(none.errors).toBeUndefined();
    expect(none.data!.manuals).toEqual([]);
    const defaults = (await t.gql(MANUALS, {})).data!.manuals.map((m: { name: string }) => m.name);
    expect(defaults).toContain('recipe-authoring');
  });

  it('diagnoses a string where the manualPaths list belongs, at its line', async () => {
    const saved = await t.gql(PUT, { layer: 'VANCE', path: '_vance/recipes/stringy.yaml', content: recipe(['  manualPaths: docs/']) });
    expect(saved.errors).toBeUndefined();
    expect(saved.data!.putDocument.diagnostics).toContainEqual({
      severity: 'WARNING', field: 'params.manualPaths', line: 5, column: 16, message: expect.stringMatching(/should be a list of folders/),
    });
  });
});
