import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../errors';
import type { RecipeGuard } from '../../recipes/recipe';
import type { RuntimeGuard } from '../process';
import { CommandDispatcher, type CommandContext, type CommandEffect } from './command-dispatcher';
import { EngineCommandError } from './engine-command';
import { commandProblem, createEngineCommandDispatcher, guardCommand, MAX_INLINE_GUARD_BYTES, sameGuard } from './index';

const dispatcher = createEngineCommandDispatcher();
const ctx = (guards: RuntimeGuard[] = [], actor: string | null = 'skill:code-guard'): CommandContext => ({ guards, actor });

/** Runs a command that must answer synchronously (the save-time dry run needs that: command-check.ts). */
function run(command: string, context = ctx()): CommandEffect {
  const effect = dispatcher.dispatch(command, context);
  if (effect instanceof Promise) throw new Error(`'${command}' answered with a promise`);
  return effect;
}

function fails(command: string, context = ctx()): EngineCommandError {
  try {
    dispatcher.dispatch(command, context);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineCommandError);
    return error as EngineCommandError;
  }
  throw new Error(`expected '${command}' to fail`);
}

describe('guard script <path>', () => {
  it('installs a script guard with who ran it', () => {
    const effect = run('guard script _vance/guards/my-guard.js', ctx());
    expect(effect.patch).toEqual({ guards: [{ kind: 'SCRIPT', path: '_vance/guards/my-guard.js', installedBy: 'skill:code-guard' }] });
    expect(effect.detail).toBe("Installed the runtime guard script '_vance/guards/my-guard.js'.");
  });

  it('sanitises the path like a document path', () => {
    expect(run('guard script ./_vance\\guards//x.js', ctx()).patch.guards).toEqual([
      { kind: 'SCRIPT', path: '_vance/guards/x.js', installedBy: 'skill:code-guard' },
    ]);
    expect(run('guard script _vance/guards/my guard.js', ctx()).patch.guards?.[0]).toMatchObject({ path: '_vance/guards/my guard.js' });
  });

  it('adds to the existing guards (additive to what is installed)', () => {
    const inline: RuntimeGuard = { kind: 'INLINE', body: 'x()', installedBy: null };
    expect(run('guard script a.js', ctx([inline])).patch.guards).toEqual([inline, { kind: 'SCRIPT', path: 'a.js', installedBy: 'skill:code-guard' }]);
  });

  it('is an idempotent setter: the same path twice leaves one, the first installer kept', () => {
    const first = run('guard script _vance/guards/g.js', ctx([], 'skill:a'));
    const guards = first.patch.guards ?? [];
    const second = run('guard script ./_vance/guards/g.js', ctx([...guards], 'skill:b'));
    expect(second.patch).toEqual({});
    expect(second.detail).toBe("The runtime guard script '_vance/guards/g.js' is already installed.");
  });

  it.each([
    ['guard script', "'guard script' needs a document path"],
    ['guard script /etc/passwd.js', "'guard script': Invalid document path '/etc/passwd.js': absolute paths are not allowed"],
    ['guard script ../x.js', "'..' segments are not allowed"],
    ['guard script C:/x.js', 'drive letters are not allowed'],
    ['guard script _vance/guards/x.ts', "'guard script': needs a .js document, got '_vance/guards/x.ts'"],
    ['guard script _vance/guards/x.JS', "needs a .js document"],
    ['guard script _vance/guards/', "needs a .js document"],
    ['guard script _vance/guards/.js', "needs a .js document"],
    ['guard script a.js\nb.js', "'guard script' takes one path on the same line"],
  ])('rejects %j', (command, message) => {
    const error = fails(command);
    expect(error.code).toBe('INVALID_COMMAND');
    expect(error.message).toContain(message);
  });
});

describe('guard inline <js body>', () => {
  const CODE_GUARD = [
    'guard inline',
    'const res = vance.llm.callForJson("completion-guard", "Evaluate the guard condition.", {',
    '  judge: "Has a development task of the user been completed?",',
    '  task: vance.guard.task,',
    '  output: vance.guard.output,',
    '});',
    'if (res && res.fire) {',
    '  vance.guard.continueWith("Was the build run and the specification updated?");',
    '}',
    '',
  ].join('\n');

  it('installs the multi-line body (the seed code-guard example)', () => {
    const effect = run(CODE_GUARD, ctx());
    const body = CODE_GUARD.slice('guard inline\n'.length).trimEnd();
    expect(effect.patch.guards).toEqual([{ kind: 'INLINE', body, installedBy: 'skill:code-guard' }]);
    expect(effect.detail).toMatch(/^Installed the inline runtime guard \(\d+ bytes\)\.$/);
  });

  it('takes a body on the same line', () => {
    expect(run('//guard inline vance.guard.continueWith("go")', ctx()).patch.guards).toEqual([
      { kind: 'INLINE', body: 'vance.guard.continueWith("go")', installedBy: 'skill:code-guard' },
    ]);
  });

  it('is idempotent: the same body twice (CRLF or LF, trailing blank lines) leaves one', () => {
    const guards = run(CODE_GUARD, ctx()).patch.guards ?? [];
    const again = run(`${CODE_GUARD.replace(/\n/g, '\r\n')}\n\n`, ctx([...guards], 'someone'));
    expect(again.patch).toEqual({});
    expect(again.detail).toMatch(/is already installed\.$/);
  });

  it('installs a different body next to an existing one', () => {
    const guards = run('guard inline a()', ctx()).patch.guards ?? [];
    expect(run('guard inline b()', ctx([...guards])).patch.guards?.map((g) => (g.kind === 'INLINE' ? g.body : g.path))).toEqual(['a()', 'b()']);
  });

  it.each(['guard inline', 'guard inline   ', 'guard inline\n\n   \n'])('rejects an empty body %j', (command) => {
    expect(fails(command).message).toContain("'guard inline' needs a JavaScript body");
  });

  it('caps the body at 64 KiB of UTF-8', () => {
    expect(run(`guard inline ${'x'.repeat(MAX_INLINE_GUARD_BYTES)}`, ctx()).patch.guards).toHaveLength(1);
    expect(fails(`guard inline ${'x'.repeat(MAX_INLINE_GUARD_BYTES + 1)}`).message).toBe(
      `'guard inline': the body is ${MAX_INLINE_GUARD_BYTES + 1} bytes; the limit is ${MAX_INLINE_GUARD_BYTES}`,
    );
    expect(fails(`guard inline ${'ä'.repeat(MAX_INLINE_GUARD_BYTES / 2 + 1)}`).message).toContain(`${MAX_INLINE_GUARD_BYTES + 2} bytes`);
  });
});

describe('guard clear', () => {
  it('removes every runtime guard', () => {
    const guards: RuntimeGuard[] = [
      { kind: 'SCRIPT', path: 'a.js', installedBy: null },
      { kind: 'INLINE', body: 'x()', installedBy: 'u' },
    ];
    expect(run('guard clear', ctx(guards))).toEqual({ patch: { guards: [] }, detail: 'Removed 2 runtime guards.' });
    expect(run('guard clear', ctx(guards.slice(0, 1))).detail).toBe('Removed 1 runtime guard.');
  });

  it('is idempotent on no guards', () => {
    expect(run('//guard clear', ctx())).toEqual({ patch: {}, detail: 'No runtime guards to remove.' });
  });

  it('takes no arguments', () => {
    expect(fails('guard clear all').message).toBe("'guard clear' takes no arguments, got 'all'");
  });
});

describe('guard subcommands and the dispatcher', () => {
  it('matches subcommands in any case', () => {
    expect(run('GUARD CLEAR', ctx()).detail).toBe('No runtime guards to remove.');
  });

  it('explains a missing or unknown subcommand', () => {
    expect(fails('guard').message).toBe("'guard' needs a subcommand: guard script <path.js> | guard inline <js body> | guard clear | guard list | guard status");
    expect(fails('guard enable x').message).toBe(
      "Unknown subcommand 'enable' of 'guard'; known: script, inline, clear, list, status (guard script <path.js> | guard inline <js body> | guard clear | guard list | guard status)",
    );
  });

  it('rejects an unknown verb naming the known ones', () => {
    const error = fails('foo bar');
    expect(error.code).toBe('UNKNOWN_COMMAND');
    expect(error.message).toBe("Unknown command 'foo'; known: guard");
    expect(error.command).toBe('foo bar');
    expect(fails('status.set busy').message).toBe("Unknown command 'status.set'; known: guard");
  });

  it('lists the registered verbs sorted and refuses a duplicate verb', () => {
    const custom = new CommandDispatcher([guardCommand]).register({ verb: 'status.set', usage: 'status.set <s>', run: (rest) => ({ patch: {}, detail: `Status ${rest}.` }) });
    expect(custom.verbs()).toEqual(['guard', 'status.set']);
    expect((custom.dispatch('status.set busy', ctx()) as CommandEffect).detail).toBe('Status busy.');
    expect(() => custom.register(guardCommand)).toThrow("Engine command verb 'guard' is already registered");
    expect(() => new CommandDispatcher().dispatch('guard clear', ctx())).toThrow("Unknown command 'guard'; known: (none)");
  });

  it('sameGuard compares kind and path/body, not the installer', () => {
    expect(sameGuard({ kind: 'SCRIPT', path: 'a.js', installedBy: 'x' }, { kind: 'SCRIPT', path: 'a.js', installedBy: 'y' })).toBe(true);
    expect(sameGuard({ kind: 'SCRIPT', path: 'a.js', installedBy: null }, { kind: 'INLINE', body: 'a.js', installedBy: null })).toBe(false);
    expect(sameGuard({ kind: 'INLINE', body: 'a', installedBy: null }, { kind: 'INLINE', body: 'b', installedBy: null })).toBe(false);
  });
});

describe('guard script //<project>/<path> (another project of the tenant)', () => {
  const reader = (readable: string[]) => {
    const asked: string[] = [];
    return { asked, canReadProject: async (name: string) => (asked.push(name), readable.includes(name)) };
  };

  it('installs the path with its project when the caller may read that project', async () => {
    const { asked, canReadProject } = reader(['tools']);
    const effect = await dispatcher.dispatch('guard script //tools/_vance\\guards//shared.js', { ...ctx(), canReadProject });
    expect(effect.patch.guards).toEqual([{ kind: 'SCRIPT', path: '//tools/_vance/guards/shared.js', installedBy: 'skill:code-guard' }]);
    expect(effect.detail).toBe("Installed the runtime guard script '//tools/_vance/guards/shared.js'.");
    expect(asked).toEqual(['tools']);
  });

  it('fails like an unknown project when the caller may not read it (no hint that it exists)', async () => {
    const { canReadProject } = reader([]);
    const error = await Promise.resolve(dispatcher.dispatch('guard script //secret/_vance/guards/x.js', { ...ctx(), canReadProject })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe("Project 'secret' not found");
  });

  it('a path in the own scope asks no one', () => {
    const { asked, canReadProject } = reader([]);
    expect(run('guard script _vance/guards/g.js', { ...ctx(), canReadProject }).patch.guards).toHaveLength(1);
    expect(asked).toEqual([]);
  });

  it('without a reader (the save-time dry run) checks the form only, synchronously', () => {
    expect(run('guard script //tools/_vance/guards/x.js').patch.guards).toEqual([{ kind: 'SCRIPT', path: '//tools/_vance/guards/x.js', installedBy: 'skill:code-guard' }]);
    expect(commandProblem(dispatcher, 'guard script //tools/_vance/guards/x.js')).toBeNull();
    expect(commandProblem(dispatcher, 'guard script //_tenant/x.js')).toContain("'_tenant' after '//' is not a project name");
  });

  it.each([
    ['guard script //_tenant/_vance/guards/x.js', "'_tenant' after '//' is not a project name"],
    ['guard script //bad name/x.js', "'bad name' after '//' is not a project name"],
    ['guard script //tools', "'//tools' needs a document path after the project"],
    ['guard script //tools/', "'//tools' needs a document path after the project"],
    ['guard script //tools/../x.js', "'..' segments are not allowed"],
    ['guard script //tools//etc/x.js', 'absolute paths are not allowed'],
    ['guard script //tools/x.ts', "needs a .js document, got 'x.ts'"],
    ['guard script ///x.js', "'' after '//' is not a project name"],
  ])('rejects %j', (command, message) => {
    const error = fails(command);
    expect(error.code).toBe('INVALID_COMMAND');
    expect(error.message).toContain(message);
  });

  it('the same path in another project is another guard', () => {
    const guards = run('guard script _vance/guards/x.js').patch.guards ?? [];
    expect(run('guard script //tools/_vance/guards/x.js', ctx([...guards])).patch.guards).toHaveLength(2);
  });
});

describe('guard list / guard status', () => {
  const judge: RecipeGuard = { script: { kind: 'PATH', path: '_vance/guards/llm-judge.js' }, params: {}, trigger: 'stop', maxRounds: 2, allowTools: false };
  const gatekeeper: RecipeGuard = { script: { kind: 'INLINE', body: 'vance.guard.deny("no")' }, params: {}, trigger: 'command', maxRounds: null, allowTools: false };
  const runtime: RuntimeGuard[] = [{ kind: 'SCRIPT', path: '//tools/_vance/guards/shared.js', installedBy: 'alice' }, { kind: 'INLINE', body: 'x()', installedBy: null }];
  const full = (over: Partial<CommandContext> = {}): CommandContext => ({
    ...ctx(runtime, 'bob'), recipeGuards: [judge, gatekeeper],
    guardRounds: { 'recipe:0': 2, 'runtime://tools/_vance/guards/shared.js': 1 },
    guardScratch: { 'recipe:0': { loop: { n: 2, a: true }, session: { total: 4 } }, 'recipe:1': { loop: {}, session: { seen: 3 } } },
    ...over,
  });

  it('list names every guard with its key, origin, trigger, round cap and installer', () => {
    const effect = run('guard list', full());
    expect(effect.patch).toEqual({});
    expect(effect.private).toBeUndefined();
    expect(effect.detail.split('\n')).toEqual([
      '4 guards (2 from the recipe, 2 runtime):',
      '- _vance/guards/llm-judge.js [recipe:0]: recipe guard, trigger stop, maxRounds 2',
      '- inline guard #2 of the recipe [recipe:1]: recipe guard, trigger command, no rounds',
      '- //tools/_vance/guards/shared.js [runtime://tools/_vance/guards/shared.js]: runtime guard, trigger stop, maxRounds 3, installed by alice',
      expect.stringMatching(/^- inline runtime guard \[runtime:inline:[0-9a-f]{8}\]: runtime guard, trigger stop, maxRounds 3, installed by \(unknown\)$/),
    ]);
  });

  it('status gives the rounds since the last user message and the scratch keys of each guard', () => {
    const effect = run('//guard status', full());
    expect(effect.patch).toEqual({});
    expect(effect.detail.split('\n')).toEqual([
      'Guard status (rounds since the last user message):',
      '- _vance/guards/llm-judge.js [recipe:0]: round 2 of 2 (at the cap); loop scratch: a, n; session scratch: total',
      '- inline guard #2 of the recipe [recipe:1]: no rounds; loop scratch: (empty); session scratch: seen',
      '- //tools/_vance/guards/shared.js [runtime://tools/_vance/guards/shared.js]: round 1 of 3; loop scratch: (empty); session scratch: (empty)',
      expect.stringMatching(/^- inline runtime guard \[runtime:inline:[0-9a-f]{8}\]: round 0 of 3; loop scratch: \(empty\); session scratch: \(empty\)$/),
    ]);
  });

  it('names at most 20 scratch keys per map and counts the rest', () => {
    const loop = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
    const detail = run('guard status', full({ guards: [], recipeGuards: [judge], guardScratch: { 'recipe:0': { loop, session: {} } } })).detail;
    expect(detail).toContain('loop scratch: k00, k01,');
    expect(detail).toContain('k19 … and 5 more; session scratch: (empty)');
  });

  it('says so when there are no guards (also without the process fields: the dry run)', () => {
    expect(run('guard list').detail).toBe('No guards: the recipe has none and no runtime guard is installed.');
    expect(run('guard status').detail).toBe('No guards: the recipe has none and no runtime guard is installed.');
    expect(run('guard list', ctx(runtime)).detail).toMatch(/^2 guards \(0 from the recipe, 2 runtime\):/);
  });

  it('a listing that shows USER-layer recipe guards is private to the owner; runtime guards alone are not', () => {
    expect(run('guard list', full({ recipeGuardsPrivate: true })).private).toBe(true);
    expect(run('guard status', full({ recipeGuardsPrivate: true })).private).toBe(true);
    expect(run('guard list', full({ recipeGuardsPrivate: true, recipeGuards: [] })).private).toBeUndefined();
  });

  it.each(['guard list all', 'guard status x'])('%j takes no arguments', (command) => {
    expect(fails(command).message).toMatch(/^'guard (list|status)' takes no arguments, got '(all|x)'$/);
  });

  it('matches in any case', () => {
    expect(run('GUARD LIST', full()).detail).toMatch(/^4 guards/);
  });
});
