import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import type { SkillArgument, SkillArgumentType, SkillArguments } from '../skills/skill';
import { bindSkillArguments, consumesArguments, SkillArgumentError } from './skill-arguments';

function arg(name: string, type: SkillArgumentType = 'string', required = false): SkillArgument {
  return { name, type, description: null, required };
}

function named(...list: SkillArgument[]) {
  return { name: 'deploy', arguments: { mode: 'NAMED', list } as SkillArguments };
}

/** The bound view of a consuming skill (RAW or NAMED), which is never null. */
function bind(skill: { name: string; arguments: SkillArguments }, raw: string | null) {
  const { args } = bindSkillArguments(skill, raw);
  if (args === null) throw new Error('expected bound arguments');
  return args;
}

function bindError(skill: { name: string; arguments: SkillArguments }, raw: string | null): SkillArgumentError {
  try {
    bindSkillArguments(skill, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(SkillArgumentError);
    return error as SkillArgumentError;
  }
  throw new Error('expected a SkillArgumentError');
}

describe('bindSkillArguments — modes (seed 000 §2b)', () => {
  it('NONE binds nothing: the text goes to the user message, not the skill', () => {
    // Issue 15: NONE bound an empty raw view ({text: '', words: []}), so a body's `{% if args %}` held.
    expect(bindSkillArguments({ name: 's', arguments: { mode: 'NONE' } }, 'check PR #42').args).toBeNull();
    expect(bindSkillArguments({ name: 's', arguments: { mode: 'NONE' } }, null).args).toBeNull();
    expect(consumesArguments({ mode: 'NONE' })).toBe(false);
    expect(consumesArguments({ mode: 'RAW' })).toBe(true);
    expect(consumesArguments({ mode: 'NAMED', list: [] })).toBe(true);
  });

  it('RAW gives args.text (trimmed, inner spacing kept) and args.words', () => {
    expect(bind({ name: 's', arguments: { mode: 'RAW' } }, '  check   PR\t#42 \r\nplease ')).toEqual({
      text: 'check   PR\t#42 \nplease',
      words: ['check', 'PR', '#42', 'please'],
    });
  });

  it.each([null, '', '   '])('RAW with %j is the empty view', (raw) => {
    expect(bind({ name: 's', arguments: { mode: 'RAW' } }, raw)).toEqual({ text: '', words: [] });
  });

  it('NAMED always carries the raw view too', () => {
    expect(bind(named(arg('target')), 'prod now')).toEqual({ text: 'prod now', words: ['prod', 'now'], target: 'prod now' });
  });
});

describe('bindSkillArguments — positional binding', () => {
  it.each([
    // declared, raw, expected named values
    { list: [arg('scope')], raw: 'src/main/java', expected: { scope: 'src/main/java' } },
    { list: [arg('scope')], raw: 'src   main\tjava', expected: { scope: 'src   main\tjava' } },
    { list: [arg('env'), arg('note')], raw: 'prod ship  it  now', expected: { env: 'prod', note: 'ship  it  now' } },
    { list: [arg('env'), arg('note')], raw: 'prod', expected: { env: 'prod' } },
    { list: [arg('env'), arg('note')], raw: 'prod\nline one\n  line two', expected: { env: 'prod', note: 'line one\n  line two' } },
    { list: [arg('n', 'integer'), arg('msg')], raw: '3 hello  world', expected: { n: 3, msg: 'hello  world' } },
    { list: [arg('msg'), arg('n', 'integer')], raw: 'hello 3 extra', expected: { msg: 'hello', n: 3 } },
    { list: [arg('a'), arg('b', 'integer')], raw: 'x 1 2 3', expected: { a: 'x', b: 1 } },
    { list: [arg('a', 'integer')], raw: '1 2 3', expected: { a: 1 } },
    { list: [arg('a'), arg('b'), arg('c')], raw: 'one', expected: { a: 'one' } },
    { list: [arg('q')], raw: '"a b" c', expected: { q: '"a b" c' } },
    { list: [arg('q'), arg('r')], raw: '"a b" c', expected: { q: '"a', r: 'b" c' } },
  ])('$list.length args ← $raw', ({ list, raw, expected }) => {
    const args = bind(named(...list), raw);
    const { text: _text, words: _words, ...rest } = args;
    expect(rest).toEqual(expected);
  });

  it('binds the greedy rest from the raw text, not re-joined tokens', () => {
    const args = bind(named(arg('env'), arg('note')), 'prod   a\t\tb');
    expect(args.note).toBe('a\t\tb');
    expect(args.words).toEqual(['prod', 'a', 'b']);
  });

  it('excess tokens are not an error and stay in text/words', () => {
    const args = bind(named(arg('n', 'integer'), arg('flag', 'boolean')), '7 yes and more');
    expect(args).toEqual({ text: '7 yes and more', words: ['7', 'yes', 'and', 'more'], n: 7, flag: true });
  });

  it('leaves optional arguments without a token unset (no key)', () => {
    const args = bind(named(arg('env', 'string', true), arg('count', 'integer'), arg('note')), 'prod');
    expect(args).toEqual({ text: 'prod', words: ['prod'], env: 'prod' });
    expect('count' in args).toBe(false);
    expect('note' in args).toBe(false);
  });

  it('binds nothing for an empty declaration list', () => {
    expect(bind(named(), 'a b')).toEqual({ text: 'a b', words: ['a', 'b'] });
  });
});

describe('bindSkillArguments — missing required', () => {
  it.each([null, '', '  \r\n'])('reports the first required argument for %j', (raw) => {
    const error = bindError({ name: 'code-review', arguments: { mode: 'NAMED', list: [arg('scope', 'string', true)] } }, raw);
    expect(error.message).toBe("Skill 'code-review' requires argument 'scope'");
    expect(error.code).toBe('SKILL_ARGUMENT_MISSING');
    expect(error.category).toBe('BAD_INPUT');
    expect(error).toBeInstanceOf(DomainError);
    expect(error.skill).toBe('code-review');
    expect(error.argument).toBe('scope');
    expect(error.diagnostics).toEqual([{ message: error.message, severity: 'ERROR', field: 'args' }]);
  });

  it('reports a later required argument when the tokens run out', () => {
    const error = bindError(named(arg('env', 'string', true), arg('opt', 'integer'), arg('ticket', 'integer', true)), 'prod');
    expect(error.message).toBe("Skill 'deploy' requires argument 'ticket'");
  });

  it('is satisfied by a required greedy string', () => {
    expect(bind(named(arg('env', 'string', true), arg('note', 'string', true)), 'prod a b').note).toBe('a b');
  });
});

describe('bindSkillArguments — typed values', () => {
  const ok: [SkillArgumentType, string, unknown][] = [
    ['integer', '42', 42],
    ['integer', '-3', -3],
    ['integer', '+7', 7],
    ['integer', '0', 0],
    ['integer', '007', 7],
    ['integer', '-0', 0],
    ['integer', '9007199254740991', 9007199254740991],
    ['number', '1.5', 1.5],
    ['number', '-0.25', -0.25],
    ['number', '3', 3],
    ['number', '.5', 0.5],
    ['number', '5.', 5],
    ['number', '1e3', 1000],
    ['number', '-2.5E-2', -0.025],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['boolean', 'yes', true],
    ['boolean', 'no', false],
    ['boolean', 'on', true],
    ['boolean', 'off', false],
    ['boolean', '1', true],
    ['boolean', '0', false],
    ['boolean', 'TRUE', true],
    ['boolean', 'No', false],
    ['boolean', 'oN', true],
    ['boolean', 'OFF', false],
    ['object', '{"env":"prod","n":2}', { env: 'prod', n: 2 }],
    ['object', '{}', {}],
    ['array', '[1,"two",null]', [1, 'two', null]],
    ['array', '[]', []],
  ];
  it.each(ok)('%s accepts %j', (type, token, value) => {
    expect(bind(named(arg('v', type), arg('after')), `${token} tail`)).toMatchObject({ v: value, after: 'tail' });
  });

  const bad: [SkillArgumentType, string][] = [
    ['integer', '1.5'],
    ['integer', '1e3'],
    ['integer', '1.0'],
    ['integer', 'abc'],
    ['integer', '0x10'],
    ['integer', '-'],
    ['integer', '9007199254740993'],
    ['number', 'abc'],
    ['number', 'NaN'],
    ['number', 'Infinity'],
    ['number', '0x10'],
    ['number', '1.2.3'],
    ['number', '1e'],
    ['boolean', 'maybe'],
    ['boolean', 'y'],
    ['boolean', 'ja'],
    ['boolean', '2'],
    ['object', '{"a":'],
    ['object', '[1]'],
    ['object', 'null'],
    ['object', '"text"'],
    ['object', '{a:1}'],
    ['array', '{"a":1}'],
    ['array', '[1,'],
    ['array', '3'],
  ];
  it.each(bad)('%s rejects %j', (type, token) => {
    const error = bindError(named(arg('v', type)), `${token} tail`);
    expect(error.code).toBe('SKILL_ARGUMENT_INVALID');
    expect(error.argument).toBe('v');
    expect(error.message).toBe(`Skill 'deploy': argument 'v' must be ${type}, got '${token}'`);
  });

  it('shortens a long bad token in the message', () => {
    const error = bindError(named(arg('v', 'integer')), 'x'.repeat(200));
    expect(error.message).toBe(`Skill 'deploy': argument 'v' must be integer, got '${'x'.repeat(80)}…'`);
  });

  it('checks types even on a typed last argument (only a last *string* is greedy)', () => {
    expect(bind(named(arg('n', 'integer')), '5 6').n).toBe(5);
    const error = bindError(named(arg('n', 'integer')), 'five 6');
    expect(error.message).toBe("Skill 'deploy': argument 'n' must be integer, got 'five'");
  });

  it('takes a balanced JSON span across whitespace for object/array arguments', () => {
    const args = bind(named(arg('cfg', 'object'), arg('list', 'array'), arg('rest')), '{"env": "prod", "tags": ["a b", "}"]}  [1, [2, 3]]  go  now');
    expect(args.cfg).toEqual({ env: 'prod', tags: ['a b', '}'] });
    expect(args.list).toEqual([1, [2, 3]]);
    expect(args.rest).toBe('go  now');
    expect(args.words).toEqual(['{"env":', '"prod",', '"tags":', '["a', 'b",', '"}"]}', '[1,', '[2,', '3]]', 'go', 'now']);
  });

  it('respects escaped quotes inside a JSON span', () => {
    expect(bind(named(arg('cfg', 'object')), '{"q": "say \\"hi}\\" now"} x').cfg).toEqual({ q: 'say "hi}" now' });
  });

  it('falls back to the whitespace token when the JSON span is unbalanced or glued to text', () => {
    expect(bindError(named(arg('cfg', 'object')), '{"a": 1').message).toBe("Skill 'deploy': argument 'cfg' must be object, got '{\"a\":'");
    expect(bindError(named(arg('cfg', 'object')), '{"a":1}x').message).toBe("Skill 'deploy': argument 'cfg' must be object, got '{\"a\":1}x'");
  });

  it('keeps a JSON string argument as text (no parsing for string)', () => {
    expect(bind(named(arg('s'), arg('t')), '{"a": 1}').s).toBe('{"a":');
  });
});

describe('bindSkillArguments — arguments are data', () => {
  it('never evaluates template syntax or code', () => {
    const args = bind(named(arg('a'), arg('b')), '{{ 7*7 }} {% raw %}${process.exit()}');
    expect(args.a).toBe('{{');
    expect(args.b).toBe('7*7 }} {% raw %}${process.exit()}');
  });

  it('defines __proto__ and friends as plain own keys', () => {
    const args = bind(named(arg('__proto__', 'object'), arg('constructor')), '{"polluted":true} x');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(args, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ polluted: true });
    expect(args.constructor).toBe('x');
    expect((args as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not let a JSON value pollute prototypes', () => {
    const args = bind(named(arg('cfg', 'object')), '{"__proto__": {"polluted": true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(args.cfg, '__proto__')).toBe(true);
  });

  it('never lets a declared text/words shadow the raw view', () => {
    const args = bind(named(arg('text'), arg('words')), 'a b c');
    expect(args).toEqual({ text: 'a b c', words: ['a', 'b', 'c'] });
  });
});
