import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../errors';
import { expandSelectors } from './select';
import { createBuiltinFixture } from './builtin/builtin-fixture';
import { objectSchema } from './builtin/json-schema';
import type { ServerTool, ToolInvocationContext } from './server-tool';
import { ToolRegistry } from './tool-registry';

const CTX = {} as ToolInvocationContext;

function echo(over: Partial<ServerTool> = {}): ServerTool {
  return {
    name: 'echo', labels: ['Read'], description: 'Echoes text',
    parameters: objectSchema({ text: { type: 'string', maxLength: 10 } }, ['text']),
    invoke: async (args) => ({ content: String(args['text']) }),
    ...over,
  };
}

describe('ToolRegistry', () => {
  it('lists descriptors with lower-case labels and gives specs for the allowed names only', () => {
    const registry = new ToolRegistry([echo(), echo({ name: 'other', labels: ['write'] })]);
    expect(registry.list()).toEqual([
      { name: 'echo', labels: ['read'], description: 'Echoes text' },
      { name: 'other', labels: ['write'], description: 'Echoes text' },
    ]);
    expect(registry.descriptors()).toBe(registry.list());
    expect(registry.specs(['other', 'client_tool', 'other']).map((s) => s.name)).toEqual(['other']);
    expect(registry.specs('ALL')).toEqual([
      { name: 'echo', description: 'Echoes text', parameters: echo().parameters, labels: ['read'] },
      { name: 'other', description: 'Echoes text', parameters: echo().parameters, labels: ['write'] },
    ]);
  });

  it('refuses a second tool of the same name and a schema that is not an object', () => {
    const registry = new ToolRegistry([echo()]);
    expect(() => registry.register(echo())).toThrow(/registered twice/);
    expect(() => registry.register(echo({ name: 'bad', parameters: { type: 'string' } }))).toThrow(/type object/);
  });

  it('refuses a tool outside the pool even when the model calls it, and an unknown tool the same way', async () => {
    const invoke = vi.fn(async () => ({ content: 'ran' }));
    const registry = new ToolRegistry([echo({ invoke })]);
    expect(await registry.dispatch('echo', { text: 'hi' }, new Set(['other']), CTX)).toEqual({ content: "Tool 'echo' is not available in this turn", isError: true });
    expect(await registry.dispatch('ghost', {}, 'ALL', CTX)).toEqual({ content: "Tool 'ghost' is not available in this turn", isError: true });
    expect(invoke).not.toHaveBeenCalled();
    expect(await registry.dispatch('echo', { text: 'hi' }, new Set(['echo']), CTX)).toEqual({ content: 'ran' });
  });

  it('validates arguments (objects or JSON text) against the schema with a clear error result', async () => {
    const registry = new ToolRegistry([echo()]);
    expect(await registry.dispatch('echo', '{"text":"hi"}', 'ALL', CTX)).toEqual({ content: 'hi' });
    expect(await registry.dispatch('echo', {}, 'ALL', CTX)).toEqual({ content: "Invalid arguments for 'echo': missing required argument 'text'", isError: true });
    expect((await registry.dispatch('echo', { text: 'x'.repeat(11) }, 'ALL', CTX)).content).toBe("Invalid arguments for 'echo': 'text' may hold at most 10 characters (got 11)");
    expect((await registry.dispatch('echo', { text: 'a', more: true }, 'ALL', CTX)).content).toContain("unknown argument 'more'");
    expect((await registry.dispatch('echo', '{not json', 'ALL', CTX)).content).toBe("Invalid arguments for 'echo': the arguments are not valid JSON; send a JSON object");
    expect((await registry.dispatch('echo', '[1]', 'ALL', CTX)).content).toBe("Invalid arguments for 'echo': the arguments must be a JSON object");
    expect((await registry.dispatch('echo', undefined, 'ALL', CTX)).content).toContain("missing required argument 'text'");
  });

  it('turns a DomainError into its message and any other failure into a generic message', async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry([
      echo({ name: 'missing', invoke: async () => { throw new NotFoundError('Thing', 'x'); } }),
      echo({ name: 'broken', invoke: async () => { throw new TypeError('secret internals at /srv/x'); } }),
    ], { onUnexpectedError: (tool, error) => seen.push([tool, error]) });
    expect(await registry.dispatch('missing', { text: 'a' }, 'ALL', CTX)).toEqual({ content: "Tool 'missing' failed: Thing 'x' not found", isError: true });
    const broken = await registry.dispatch('broken', { text: 'a' }, 'ALL', CTX);
    expect(broken).toEqual({ content: "Tool 'broken' failed with an internal error; try again later or continue without it", isError: true });
    expect(broken.content).not.toContain('secret');
    expect(seen).toEqual([['broken', expect.any(TypeError)]]);
  });

  it('caps long results with a note, keeping the error flag', async () => {
    const registry = new ToolRegistry([
      echo({ name: 'big', invoke: async () => ({ content: 'y'.repeat(50) }) }),
      echo({ name: 'bigerr', invoke: async () => ({ content: 'z'.repeat(50), isError: true }) }),
    ], { maxResultChars: 20 });
    const big = await registry.dispatch('big', { text: 'a' }, 'ALL', CTX);
    expect(big.content).toBe(`${'y'.repeat(20)}\n\n[Result truncated: showing the first 20 of 50 characters.]`);
    expect(big.isError).toBeUndefined();
    expect((await registry.dispatch('bigerr', { text: 'a' }, 'ALL', CTX)).isError).toBe(true);
  });

  it('does not run a tool once the turn is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const invoke = vi.fn(async () => ({ content: 'ran' }));
    const registry = new ToolRegistry([echo({ invoke })]);
    expect((await registry.dispatch('echo', { text: 'a' }, 'ALL', { ...CTX, signal: controller.signal })).isError).toBe(true);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('holds the built-in tools with lower-case labels, each with a closed object schema', async () => {
    const fx = await createBuiltinFixture();
    const registry = new ToolRegistry(fx.tools);
    expect(registry.list().map((t) => t.name)).toEqual([
      'respond', 'whoami', 'current_time', 'manual_list', 'manual_read', 'recipe_list', 'recipe_describe', 'process_spawn', 'process_status', 'process_list',
      'skill_reference_doc', 'workspace_read', 'workspace_list', 'workspace_write', 'workspace_delete',
    ]);
    for (const tool of fx.tools) {
      expect(tool.labels.length, tool.name).toBeGreaterThan(0);
      for (const label of tool.labels) expect(label, tool.name).toBe(label.toLowerCase());
      expect(tool.parameters, tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description.length, tool.name).toBeGreaterThan(80);
    }
  });

  it('labels every destructive built-in tool @write as well, so removing @write never leaves a wipe behind', async () => {
    const tools = new ToolRegistry((await createBuiltinFixture()).tools).list();
    const destructive = expandSelectors(['@destructive'], tools).names;
    expect(destructive).toContain('workspace_delete');
    expect(destructive.every((n) => expandSelectors(['@write'], tools).names.includes(n))).toBe(true);
  });

  it('refuses a built-in tool outside the pool with real tools wired', async () => {
    const fx = await createBuiltinFixture();
    const registry = new ToolRegistry(fx.tools);
    const ctx = await fx.ctx();
    const refused = await registry.dispatch('workspace_delete', { path: 'a.md' }, new Set(['workspace_read', 'workspace_write']), ctx);
    expect(refused).toEqual({ content: "Tool 'workspace_delete' is not available in this turn", isError: true });
  });
});
