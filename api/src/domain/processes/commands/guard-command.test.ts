import { describe, expect, it } from 'vitest';
import type { RuntimeGuard } from '../process';
import { CommandDispatcher, type CommandContext } from './command-dispatcher';
import { EngineCommandError } from './engine-command';
import { createEngineCommandDispatcher, guardCommand, MAX_INLINE_GUARD_BYTES, sameGuard } from './index';

const dispatcher = createEngineCommandDispatcher();
const ctx = (guards: RuntimeGuard[] = [], actor: string | null = 'skill:code-guard'): CommandContext => ({ guards, actor });

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
    const effect = dispatcher.dispatch('guard script _vance/guards/my-guard.js', ctx());
    expect(effect.patch).toEqual({ guards: [{ kind: 'SCRIPT', path: '_vance/guards/my-guard.js', installedBy: 'skill:code-guard' }] });
    expect(effect.detail).toBe("Installed the runtime guard script '_vance/guards/my-guard.js'.");
  });

  it('sanitises the path like a document path', () => {
    expect(dispatcher.dispatch('guard script ./_vance\\guards//x.js', ctx()).patch.guards).toEqual([
      { kind: 'SCRIPT', path: '_vance/guards/x.js', installedBy: 'skill:code-guard' },
    ]);
    expect(dispatcher.dispatch('guard script _vance/guards/my guard.js', ctx()).patch.guards?.[0]).toMatchObject({ path: '_vance/guards/my guard.js' });
  });

  it('adds to the existing guards (additive to what is installed)', () => {
    const inline: RuntimeGuard = { kind: 'INLINE', body: 'x()', installedBy: null };
    expect(dispatcher.dispatch('guard script a.js', ctx([inline])).patch.guards).toEqual([inline, { kind: 'SCRIPT', path: 'a.js', installedBy: 'skill:code-guard' }]);
  });

  it('is an idempotent setter: the same path twice leaves one, the first installer kept', () => {
    const first = dispatcher.dispatch('guard script _vance/guards/g.js', ctx([], 'skill:a'));
    const guards = first.patch.guards ?? [];
    const second = dispatcher.dispatch('guard script ./_vance/guards/g.js', ctx([...guards], 'skill:b'));
    expect(second.patch).toEqual({});
    expect(second.detail).toBe("The runtime guard script '_vance/guards/g.js' is already installed.");
  });

  it.each([
    ['guard script', "'guard script' needs a document path"],
    ['guard script /etc/passwd.js', "'guard script': Invalid document path '/etc/passwd.js': absolute paths are not allowed"],
    ['guard script ../x.js', "'..' segments are not allowed"],
    ['guard script C:/x.js', 'drive letters are not allowed'],
    ['guard script _vance/guards/x.ts', "'guard script' needs a .js document, got '_vance/guards/x.ts'"],
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
    const effect = dispatcher.dispatch(CODE_GUARD, ctx());
    const body = CODE_GUARD.slice('guard inline\n'.length).trimEnd();
    expect(effect.patch.guards).toEqual([{ kind: 'INLINE', body, installedBy: 'skill:code-guard' }]);
    expect(effect.detail).toMatch(/^Installed the inline runtime guard \(\d+ bytes\)\.$/);
  });

  it('takes a body on the same line', () => {
    expect(dispatcher.dispatch('//guard inline vance.guard.continueWith("go")', ctx()).patch.guards).toEqual([
      { kind: 'INLINE', body: 'vance.guard.continueWith("go")', installedBy: 'skill:code-guard' },
    ]);
  });

  it('is idempotent: the same body twice (CRLF or LF, trailing blank lines) leaves one', () => {
    const guards = dispatcher.dispatch(CODE_GUARD, ctx()).patch.guards ?? [];
    const again = dispatcher.dispatch(`${CODE_GUARD.replace(/\n/g, '\r\n')}\n\n`, ctx([...guards], 'someone'));
    expect(again.patch).toEqual({});
    expect(again.detail).toMatch(/is already installed\.$/);
  });

  it('installs a different body next to an existing one', () => {
    const guards = dispatcher.dispatch('guard inline a()', ctx()).patch.guards ?? [];
    expect(dispatcher.dispatch('guard inline b()', ctx([...guards])).patch.guards?.map((g) => (g.kind === 'INLINE' ? g.body : g.path))).toEqual(['a()', 'b()']);
  });

  it.each(['guard inline', 'guard inline   ', 'guard inline\n\n   \n'])('rejects an empty body %j', (command) => {
    expect(fails(command).message).toContain("'guard inline' needs a JavaScript body");
  });

  it('caps the body at 64 KiB of UTF-8', () => {
    expect(dispatcher.dispatch(`guard inline ${'x'.repeat(MAX_INLINE_GUARD_BYTES)}`, ctx()).patch.guards).toHaveLength(1);
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
    expect(dispatcher.dispatch('guard clear', ctx(guards))).toEqual({ patch: { guards: [] }, detail: 'Removed 2 runtime guards.' });
    expect(dispatcher.dispatch('guard clear', ctx(guards.slice(0, 1))).detail).toBe('Removed 1 runtime guard.');
  });

  it('is idempotent on no guards', () => {
    expect(dispatcher.dispatch('//guard clear', ctx())).toEqual({ patch: {}, detail: 'No runtime guards to remove.' });
  });

  it('takes no arguments', () => {
    expect(fails('guard clear all').message).toBe("'guard clear' takes no arguments, got 'all'");
  });
});

describe('guard subcommands and the dispatcher', () => {
  it('matches subcommands in any case', () => {
    expect(dispatcher.dispatch('GUARD CLEAR', ctx()).detail).toBe('No runtime guards to remove.');
  });

  it('explains a missing or unknown subcommand', () => {
    expect(fails('guard').message).toBe("'guard' needs a subcommand: guard script <path.js> | guard inline <js body> | guard clear");
    expect(fails('guard enable x').message).toBe(
      "Unknown subcommand 'enable' of 'guard'; known: script, inline, clear (guard script <path.js> | guard inline <js body> | guard clear)",
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
    expect(custom.dispatch('status.set busy', ctx()).detail).toBe('Status busy.');
    expect(() => custom.register(guardCommand)).toThrow("Engine command verb 'guard' is already registered");
    expect(() => new CommandDispatcher().dispatch('guard clear', ctx())).toThrow("Unknown command 'guard'; known: (none)");
  });

  it('sameGuard compares kind and path/body, not the installer', () => {
    expect(sameGuard({ kind: 'SCRIPT', path: 'a.js', installedBy: 'x' }, { kind: 'SCRIPT', path: 'a.js', installedBy: 'y' })).toBe(true);
    expect(sameGuard({ kind: 'SCRIPT', path: 'a.js', installedBy: null }, { kind: 'INLINE', body: 'a.js', installedBy: null })).toBe(false);
    expect(sameGuard({ kind: 'INLINE', body: 'a', installedBy: null }, { kind: 'INLINE', body: 'b', installedBy: null })).toBe(false);
  });
});
