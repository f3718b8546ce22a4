import { describe, expect, it } from 'vitest';
import { EngineCommandError, parseEngineCommand, shortenCommand, splitFirstWord } from './engine-command';

describe('parseEngineCommand (verb rest…)', () => {
  it.each([
    ['guard clear', 'guard', 'clear'],
    ['guard script _vance/guards/my-guard.js', 'guard', 'script _vance/guards/my-guard.js'],
    ['  guard   clear  ', 'guard', 'clear'],
    ['\tguard\tclear\t', 'guard', 'clear'],
    ['guard', 'guard', ''],
    ['status.set busy reviewing', 'status.set', 'busy reviewing'],
    ['mode.set', 'mode.set', ''],
    ['a.b.c x', 'a.b.c', 'x'],
    ['engine_param-x 1', 'engine_param-x', '1'],
    ['GUARD Clear', 'guard', 'Clear'],
    ['//guard clear', 'guard', 'clear'],
    ['  //status.set  idle', 'status.set', 'idle'],
    ['guard clear\r\n', 'guard', 'clear'],
  ])('%j → verb %j, rest %j', (command, verb, rest) => {
    const parsed = parseEngineCommand(command);
    expect(parsed.verb).toBe(verb);
    expect(parsed.rest).toBe(rest);
  });

  it('keeps the text as written (normalised, trimmed, with its //)', () => {
    expect(parseEngineCommand('  //guard clear\r\n').text).toBe('//guard clear');
  });

  it('keeps a multi-line rest (the inline guard body) with its inner layout', () => {
    const command = 'guard inline\n  const res = vance.llm.callForJson("x", "y", {\n    judge: "done?",\n  });\r\n  if (res && res.fire) {\n    vance.guard.continueWith("Build?");\n  }\n';
    const parsed = parseEngineCommand(command);
    expect(parsed.verb).toBe('guard');
    expect(parsed.rest).toBe('inline\n  const res = vance.llm.callForJson("x", "y", {\n    judge: "done?",\n  });\n  if (res && res.fire) {\n    vance.guard.continueWith("Build?");\n  }');
  });

  it('accepts the verb on its own line followed by the rest', () => {
    expect(parseEngineCommand('guard\n\n  inline x').rest).toBe('  inline x');
  });

  it.each([
    ['', 'Empty command'],
    ['   \r\n ', 'Empty command'],
    ['//', "A command needs a verb right after '//'"],
    ['// guard clear', "A command needs a verb right after '//'"],
    ['///guard clear', "Invalid command verb '/guard'"],
    ['1guard clear', "Invalid command verb '1guard'"],
    ['status..set x', "Invalid command verb 'status..set'"],
    ['.set x', "Invalid command verb '.set'"],
    ['status. x', "Invalid command verb 'status.'"],
    ['gu@rd clear', "Invalid command verb 'gu@rd'"],
    ['/skill foo', "Invalid command verb '/skill'"],
  ])('rejects %j', (command, message) => {
    let caught: unknown;
    try {
      parseEngineCommand(command);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EngineCommandError);
    const error = caught as EngineCommandError;
    expect(error.code).toBe('INVALID_COMMAND');
    expect(error.category).toBe('BAD_INPUT');
    expect(error.message).toContain(message);
    expect(error.diagnostics[0]?.field).toBe('command');
  });
});

describe('helpers', () => {
  it('splitFirstWord strips the separator but keeps indentation of the first real line', () => {
    expect(splitFirstWord('inline   x  y  ')).toEqual({ word: 'inline', rest: 'x  y' });
    expect(splitFirstWord('inline  \n \n    body\n  more\n')).toEqual({ word: 'inline', rest: '    body\n  more' });
    expect(splitFirstWord('')).toEqual({ word: '', rest: '' });
    expect(splitFirstWord('  clear')).toEqual({ word: 'clear', rest: '' });
  });

  it('shortenCommand keeps the first line, at most 60 characters', () => {
    expect(shortenCommand('guard clear')).toBe('guard clear');
    expect(shortenCommand('guard inline\nbody')).toBe('guard inline …');
    expect(shortenCommand('x'.repeat(100))).toBe(`${'x'.repeat(60)}…`);
  });
});
