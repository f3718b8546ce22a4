import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors';
import { InvalidSkillCommandError, isReservedSkillCommandWord, parseSkillCommand, SKILL_COMMAND_USAGE } from './skill-command';

function activate(skill: string, once: boolean, args: string | null) {
  return { kind: 'ACTIVATE', skill, once, args };
}

describe('parseSkillCommand — accepted forms (seed 000 §4b, §6a)', () => {
  it.each([
    ['/skill code-review', activate('code-review', false, null)],
    ['/skill code-review check PR #42', activate('code-review', false, 'check PR #42')],
    ['/skill code-review --once', activate('code-review', true, null)],
    ['/skill code-review --once check PR #42', activate('code-review', true, 'check PR #42')],
    ['/skill --once code-review check PR #42', activate('code-review', true, 'check PR #42')],
    ['/skill --once code-review', activate('code-review', true, null)],
    ['/skill list', { kind: 'LIST' }],
    ['/skill clear', { kind: 'CLEAR_ALL' }],
    ['/skill clear code-review', { kind: 'CLEAR', skill: 'code-review' }],
  ])('%j', (line, expected) => {
    expect(parseSkillCommand(line)).toEqual(expected);
  });

  it.each([
    ['  /skill   code-review   check  PR   #42  ', activate('code-review', false, 'check  PR   #42')],
    ['\t/skill\tcode-review\t--once\tx\t', activate('code-review', true, 'x')],
    ['/skill code-review check\r\n', activate('code-review', false, 'check')],
    ['/skill code-review line one\r\nline two\r\n', activate('code-review', false, 'line one\nline two')],
    ['/skill\ncode-review', activate('code-review', false, null)],
    ['/skill  list  ', { kind: 'LIST' }],
    ['/skill clear   code-review \r\n', { kind: 'CLEAR', skill: 'code-review' }],
  ])('tolerates whitespace, tabs and CRLF: %j', (line, expected) => {
    expect(parseSkillCommand(line)).toEqual(expected);
  });

  it.each([
    ['/SKILL code-review', activate('code-review', false, null)],
    ['/Skill code-review --once', activate('code-review', true, null)],
    ['/skill LIST', { kind: 'LIST' }],
    ['/skill Clear', { kind: 'CLEAR_ALL' }],
    ['/skill CLEAR Code-Review', { kind: 'CLEAR', skill: 'Code-Review' }],
  ])('matches the words /skill, list and clear in any case, names as written: %j', (line, expected) => {
    expect(parseSkillCommand(line)).toEqual(expected);
  });

  // Issue 15: only a leading --once counted, and --ONCE was taken for the flag.
  it.each([
    ['/skill review-mode do thing --once', activate('review-mode', true, 'do thing')],
    ['/skill review-mode do --once thing', activate('review-mode', true, 'do thing')],
    ['/skill review-mode --once do thing', activate('review-mode', true, 'do thing')],
    ['/skill review-mode do  thing\t--once', activate('review-mode', true, 'do  thing')],
    ['/skill review-mode line one --once\nline two', activate('review-mode', true, 'line one\nline two')],
    ['/skill review-mode --once\nline two', activate('review-mode', true, 'line two')],
  ])('takes --once as the flag wherever it stands as a whole token: %j', (line, expected) => {
    expect(parseSkillCommand(line)).toEqual(expected);
  });

  it.each([
    ['/skill review-mode do thing --ONCE', activate('review-mode', false, 'do thing --ONCE')],
    ['/skill review-mode --Once', activate('review-mode', false, '--Once')],
    ['/skill review-mode do thing --oncex', activate('review-mode', false, 'do thing --oncex')],
    ['/skill review-mode x--once', activate('review-mode', false, 'x--once')],
    ['/skill review-mode "--once"', activate('review-mode', false, '"--once"')],
    ['/skill review-mode --once=yes', activate('review-mode', false, '--once=yes')],
  ])('leaves anything that is not exactly --once in the args: %j', (line, expected) => {
    expect(parseSkillCommand(line)).toEqual(expected);
  });

  it('passes other dash tokens after the name through as args', () => {
    expect(parseSkillCommand('/skill grep --verbose -n foo')).toEqual(activate('grep', false, '--verbose -n foo'));
  });

  it('keeps the args verbatim: quotes, template syntax and JSON are data', () => {
    expect(parseSkillCommand('/skill x "a  b" {{ evil }} {"k": 1}')).toEqual(activate('x', false, '"a  b" {{ evil }} {"k": 1}'));
  });

  it('accepts names with dots, underscores and digits', () => {
    expect(parseSkillCommand('/skill ts_style.v2 go')).toEqual(activate('ts_style.v2', false, 'go'));
    expect(parseSkillCommand('/skill 2fa')).toEqual(activate('2fa', false, null));
  });
});

describe('parseSkillCommand — rejected forms', () => {
  it.each([
    ['', 'Not a /skill command'],
    ['   ', 'Not a /skill command'],
    ['hello world', "Not a /skill command: 'hello world'"],
    ['skill code-review', 'Not a /skill command'],
    ['/skills list', 'Not a /skill command'],
    ['/skillcode-review', 'Not a /skill command'],
    ['//skill code-review', 'Not a /skill command'],
    ['please /skill code-review', 'Not a /skill command'],
    ['/skill', "'/skill' needs a skill name or list/clear"],
    ['/skill   \r\n', "'/skill' needs a skill name or list/clear"],
    ['/skill --once', "'/skill --once' needs a skill name"],
    ['/skill --once --once code-review', "'--once' is given twice"],
    ['/skill deploy --once --once now', "'--once' is given twice"],
    ['/skill --once deploy now --once', "'--once' is given twice"],
    ['/skill --ONCE code-review', "Unknown flag '--ONCE' before the skill name; the only flag is --once (lower case)"],
    ['/skill --Once code-review', "Unknown flag '--Once'"],
    ['/skill list --once', "'--once' only applies to activation, not to '/skill list'"],
    ['/skill --verbose code-review', "Unknown flag '--verbose' before the skill name; the only flag is --once"],
    ['/skill -x code-review', "Unknown flag '-x'"],
    ['/skill -- code-review', "Unknown flag '--'"],
    ['/skill ../etc', "Invalid skill name '../etc'"],
    ['/skill a/b', "Invalid skill name 'a/b'"],
    ['/skill _private', "Invalid skill name '_private'"],
    [`/skill ${'a'.repeat(65)}`, 'longer than 64 characters'],
    ['/skill --once list', "'--once' only applies to activation, not to '/skill list'"],
    ['/skill --once clear', "'--once' only applies to activation, not to '/skill clear'"],
    ['/skill list extra', "'/skill list' takes no arguments, got 'extra'"],
    ['/skill clear a b', "'/skill clear' takes at most one skill name, got 'b' after 'a'"],
    ['/skill clear --once', "'--once' only applies to activation, not to '/skill clear'"],
    ['/skill clear a --once', "'--once' only applies to activation, not to '/skill clear'"],
    ['/skill clear ../x', "Invalid skill name '../x'"],
  ])('%j → %s', (line, message) => {
    let caught: unknown;
    try {
      parseSkillCommand(line);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidSkillCommandError);
    expect(caught).toBeInstanceOf(InvalidInputError);
    const error = caught as InvalidSkillCommandError;
    expect(error.code).toBe('INVALID_SKILL_COMMAND');
    expect(error.category).toBe('BAD_INPUT');
    expect(error.message).toContain(message);
    expect(error.message.endsWith(SKILL_COMMAND_USAGE)).toBe(true);
    expect(error.diagnostics).toEqual([{ message: error.message, severity: 'ERROR', field: 'line' }]);
  });

  it('names the accepted forms in the message', () => {
    expect(() => parseSkillCommand('/skill')).toThrow(
      "'/skill' needs a skill name or list/clear. Use /skill <name> [args…], /skill <name> --once [args…], /skill list, /skill clear or /skill clear <name>.",
    );
  });

  it('shortens long input in messages', () => {
    expect(() => parseSkillCommand(`hello ${'x'.repeat(500)}`)).toThrow(/'hello x+…'/);
  });
});

describe('reserved words', () => {
  it.each([['list', true], ['clear', true], ['LIST', true], ['Clear', true], ['clear-all', false], ['lists', false]])('%s → %s', (name, reserved) => {
    expect(isReservedSkillCommandWord(name)).toBe(reserved);
  });
});
