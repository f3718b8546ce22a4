import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture } from './builtin-fixture';

async function setup() {
  const fx = await createBuiltinFixture();
  const registry = new ToolRegistry(fx.tools);
  return { fx, call: (name: string, args: unknown, ctx: Parameters<ToolRegistry['dispatch']>[3]) => registry.dispatch(name, args, 'ALL', ctx) };
}

describe('process_spawn', () => {
  it('spawns a child of the calling process in its session and project, and queues the goal as its first message', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    const result = await call('process_spawn', { recipe: 'analyze', goal: 'Compare a and b', name: 'cmp', params: { maxIterations: 3 } }, ctx);
    expect(result.isError).toBeUndefined();
    expect(fx.processes.spawns).toEqual([{
      project: 'alpha', session: 'main', name: 'cmp', recipe: 'analyze', engine: null,
      params: { maxIterations: 3 }, profile: 'web', parentProcessId: 'p-coordinator', title: null, goal: 'Compare a and b',
    }]);
    const spawned = (JSON.parse(result.content) as { spawned: { id: string; name: string; parentProcessId: string; turnScheduled: boolean } }).spawned;
    expect(spawned).toMatchObject({ name: 'cmp', parentProcessId: 'p-coordinator', turnScheduled: true });
    expect(fx.processes.queued).toEqual([{ processId: spawned.id, messages: [{ sender: 'PROCESS', senderName: 'chat', content: 'Compare a and b' }], reason: expect.any(String) }]);
  });

  it('refuses an unknown recipe, another tenant\'s recipe, a protected recipe and an empty goal without spawning', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    expect((await call('process_spawn', { recipe: 'nope', goal: 'x' }, ctx)).content).toBe("Recipe 'nope' not found. Call recipe_list for the recipes you can spawn.");
    expect((await call('process_spawn', { recipe: 'globex-agent', goal: 'x' }, ctx)).content).toContain("Recipe 'globex-agent' not found");
    expect((await call('process_spawn', { recipe: 'arthur', goal: 'x' }, ctx)).content).toContain('protected');
    expect((await call('process_spawn', { recipe: 'analyze', goal: '   ' }, ctx)).isError).toBe(true);
    expect((await call('process_spawn', { recipe: 'analyze' }, ctx)).content).toContain("missing required argument 'goal'");
    expect(fx.processes.spawns).toEqual([]);
  });
});

describe('process_status', () => {
  it('reports a spawned child by id and by name, and lists the children without an argument', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    await call('process_spawn', { recipe: 'analyze', goal: 'do it', name: 'w1' }, ctx);
    const byName = JSON.parse((await call('process_status', { process: 'w1' }, ctx)).content) as { id: string; status: string; pendingMessages: number };
    expect(byName).toMatchObject({ name: 'w1', status: 'IDLE', recipe: 'analyze', pendingMessages: 1 });
    expect(JSON.parse((await call('process_status', { process: byName.id }, ctx)).content)).toMatchObject({ name: 'w1' });
    expect(JSON.parse((await call('process_status', {}, ctx)).content)).toMatchObject({ count: 1, processes: [{ name: 'w1' }] });
  });

  it('does not answer for a process of another session', async () => {
    const { fx, call } = await setup();
    await fx.ctx({ id: 'p-elsewhere', name: 'elsewhere', sessionId: 's-2' });
    const result = await call('process_status', { process: 'p-elsewhere' }, await fx.ctx());
    expect(result).toEqual({ content: "No process 'p-elsewhere' in this session.", isError: true });
  });
});

describe('process_list', () => {
  it('lists the processes of the caller\'s session only', async () => {
    const { fx, call } = await setup();
    const ctx = await fx.ctx();
    await call('process_spawn', { recipe: 'analyze', goal: 'x', name: 'w1' }, ctx);
    const elsewhere = await fx.ctx({ id: 'p-other', name: 'other', sessionId: 's-other' });
    expect(elsewhere.process.sessionId).not.toBe(ctx.process.sessionId);
    const listed = JSON.parse((await call('process_list', {}, ctx)).content) as { processes: { name: string }[]; count: number };
    expect(listed.processes.map((p) => p.name)).toEqual(['chat', 'w1']);
    expect(listed.count).toBe(2);
  });
});
