import { describe, expect, it } from 'vitest';
import type { RuntimeGuard } from '../process';
import { CommandDispatcher, guardCommand, runCommandSequence, type CommandContext } from './index';

const ctx = (guards: RuntimeGuard[] = []): CommandContext => ({ guards, actor: 'skill:s' });
const script = (path: string): RuntimeGuard => ({ kind: 'SCRIPT', path, installedBy: 'skill:s' });

function dispatcher() {
  return new CommandDispatcher([guardCommand]).register({
    verb: 'boom',
    usage: 'boom',
    run: () => {
      throw new TypeError('handler bug');
    },
  });
}

describe('runCommandSequence', () => {
  it('runs the steps in order, each seeing the state of the previous ones', async () => {
    const result = await runCommandSequence(dispatcher(), ['guard script a.js', 'guard script b.js', 'guard script a.js'], ctx(), 'ACTIVATE');
    expect(result.ok).toBe(true);
    expect(result.patch).toEqual({ guards: [script('a.js'), script('b.js')] });
    expect(result.skipped).toEqual([]);
    expect(result.results).toEqual([
      { command: 'guard script a.js', verb: 'guard', ok: true, detail: "Installed the runtime guard script 'a.js'." },
      { command: 'guard script b.js', verb: 'guard', ok: true, detail: "Installed the runtime guard script 'b.js'." },
      { command: 'guard script a.js', verb: 'guard', ok: true, detail: "The runtime guard script 'a.js' is already installed." },
    ]);
  });

  it('an empty list is ok with an empty patch', async () => {
    expect(await runCommandSequence(dispatcher(), [], ctx(), 'ACTIVATE')).toEqual({ ok: true, results: [], skipped: [], patch: {} });
  });

  it('activating twice leaves the state of once (idempotent setters)', async () => {
    const commands = ['guard inline check()', 'guard script g.js'];
    const once = await runCommandSequence(dispatcher(), commands, ctx(), 'ACTIVATE');
    const twice = await runCommandSequence(dispatcher(), commands, ctx([...(once.patch.guards ?? [])]), 'ACTIVATE');
    expect(twice.ok).toBe(true);
    expect(twice.patch).toEqual({});
    expect(once.patch.guards).toHaveLength(2);
  });

  it('ACTIVATE stops at the first failure and reports it; the rest is skipped', async () => {
    const result = await runCommandSequence(dispatcher(), ['guard script a.js', 'foo bar', 'guard script b.js', 'guard clear'], ctx(), 'ACTIVATE');
    expect(result.ok).toBe(false);
    expect(result.results).toEqual([
      { command: 'guard script a.js', verb: 'guard', ok: true, detail: "Installed the runtime guard script 'a.js'." },
      { command: 'foo bar', verb: 'foo', ok: false, code: 'UNKNOWN_COMMAND', error: "Unknown command 'foo'; known: boom, guard" },
    ]);
    expect(result.skipped).toEqual(['guard script b.js', 'guard clear']);
    // The partial activation: only what the successful steps set.
    expect(result.patch).toEqual({ guards: [script('a.js')] });
  });

  it('ACTIVATE reports a malformed command with an empty verb', async () => {
    const result = await runCommandSequence(dispatcher(), ['// guard clear', 'guard clear'], ctx(), 'ACTIVATE');
    expect(result.results).toEqual([{ command: '// guard clear', verb: '', ok: false, code: 'INVALID_COMMAND', error: expect.stringContaining("right after '//'") }]);
    expect(result.skipped).toEqual(['guard clear']);
    expect(result.patch).toEqual({});
  });

  it('DEACTIVATE is best-effort: every step runs even if some fail, all results reported', async () => {
    const result = await runCommandSequence(
      dispatcher(),
      ['guard script x.ts', 'boom', 'guard clear', 'nope', 'guard script kept.js'],
      ctx([script('a.js')]),
      'DEACTIVATE',
    );
    expect(result.ok).toBe(false);
    expect(result.skipped).toEqual([]);
    expect(result.results.map((r) => [r.verb, r.ok, r.ok ? r.detail : r.code])).toEqual([
      ['guard', false, 'INVALID_COMMAND'],
      ['boom', false, 'COMMAND_FAILED'],
      ['guard', true, 'Removed 1 runtime guard.'],
      ['nope', false, 'UNKNOWN_COMMAND'],
      ['guard', true, "Installed the runtime guard script 'kept.js'."],
    ]);
    expect(result.results[1]).toMatchObject({ ok: false, error: 'handler bug' });
    expect(result.patch).toEqual({ guards: [script('kept.js')] });
  });

  it('DEACTIVATE with only successes is ok', async () => {
    const result = await runCommandSequence(dispatcher(), ['guard clear', 'guard clear'], ctx([script('a.js')]), 'DEACTIVATE');
    expect(result.ok).toBe(true);
    expect(result.results.map((r) => (r.ok ? r.detail : r.error))).toEqual(['Removed 1 runtime guard.', 'No runtime guards to remove.']);
    expect(result.patch).toEqual({ guards: [] });
  });

  it('normalises the reported command text (CRLF, trim) and keeps multi-line bodies', async () => {
    const result = await runCommandSequence(dispatcher(), ['  guard inline\r\n  a();\r\n  b();\r\n'], ctx(), 'ACTIVATE');
    expect(result.results[0]?.command).toBe('guard inline\n  a();\n  b();');
    expect(result.patch.guards).toEqual([{ kind: 'INLINE', body: '  a();\n  b();', installedBy: 'skill:s' }]);
  });
});
