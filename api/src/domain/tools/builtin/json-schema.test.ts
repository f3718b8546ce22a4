import { describe, expect, it } from 'vitest';
import { objectSchema, validateJson } from './json-schema';

const SCHEMA = objectSchema({
  path: { type: 'string', minLength: 1, maxLength: 5 },
  count: { type: 'integer', minimum: 0, maximum: 10 },
  ratio: { type: 'number' },
  flag: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  mode: { type: 'string', enum: ['a', 'b'] },
  opts: objectSchema({ deep: { type: 'boolean' } }, ['deep']),
}, ['path']);

describe('validateJson', () => {
  it('accepts arguments that fit, an integer as a number and optional fields left out', () => {
    expect(validateJson(SCHEMA, { path: 'a.md' })).toEqual([]);
    expect(validateJson(SCHEMA, { path: 'a', count: 3, ratio: 2, flag: false, tags: ['x'], mode: 'b', opts: { deep: true } })).toEqual([]);
  });

  it('names each problem with the argument path', () => {
    expect(validateJson(SCHEMA, {})).toEqual(["missing required argument 'path'"]);
    expect(validateJson(SCHEMA, { path: 'toolong' })).toEqual(["'path' may hold at most 5 characters (got 7)"]);
    expect(validateJson(SCHEMA, { path: '' })).toEqual(["'path' must hold at least 1 character"]);
    expect(validateJson(SCHEMA, { path: 3 })).toEqual(["'path' must be a string, got integer"]);
    expect(validateJson(SCHEMA, { path: 'a', count: 1.5 })).toEqual(["'count' must be an integer, got number"]);
    expect(validateJson(SCHEMA, { path: 'a', count: 11 })).toEqual(["'count' must be at most 10"]);
    expect(validateJson(SCHEMA, { path: 'a', flag: 'yes' })).toEqual(["'flag' must be a boolean, got string"]);
    expect(validateJson(SCHEMA, { path: 'a', tags: ['x', 2] })).toEqual(["'tags[1]' must be a string, got integer"]);
    expect(validateJson(SCHEMA, { path: 'a', mode: 'c' })).toEqual(["'mode' must be one of 'a', 'b'"]);
    expect(validateJson(SCHEMA, { path: 'a', opts: {} })).toEqual(["missing required argument 'opts.deep'"]);
    expect(validateJson(SCHEMA, { path: 'a', opts: [] })).toEqual(["'opts' must be an object, got array"]);
    expect(validateJson(SCHEMA, { path: 'a', extra: 1 })).toEqual(["unknown argument 'extra' (allowed: path, count, ratio, flag, tags, mode, opts)"]);
    expect(validateJson(objectSchema({}), { x: 1 })).toEqual(["unknown argument 'x' (this tool takes no arguments)"]);
    expect(validateJson(SCHEMA, null)).toEqual(['the arguments must be an object, got null']);
  });

  it('does not treat inherited names as declared properties', () => {
    expect(validateJson(SCHEMA, { path: 'a', toString: 'x' })).toEqual([expect.stringContaining("unknown argument 'toString'")]);
  });
});
