import { describe, expect, it } from 'vitest';
import { jsonTextProblem, jsonValueProblem } from './json-bounds';

/** An array nested `depth` levels, built without recursion (JSON.stringify of it would overflow the stack). */
function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('json bounds', () => {
  it('passes ordinary values and texts', () => {
    expect(jsonValueProblem({ a: [1, 'two', { b: null }] }, 1000, 4)).toBeNull();
    expect(jsonTextProblem('{"a":[1,"two",{"b":null}]}', 1000, 4)).toBeNull();
  });

  it('refuses a 100,000-deep value without recursing into it', () => {
    expect(jsonValueProblem(deep(100_000), 1_000_000, 64)).toBe('nest deeper than the limit of 64 levels');
    expect(jsonTextProblem('['.repeat(100_000) + ']'.repeat(100_000), 1_000_000, 64)).toBe('nest deeper than the limit of 64 levels');
  });

  it('refuses a value over the size cap, stopping early', () => {
    const huge = { items: Array.from({ length: 200_000 }, (_, i) => `entry ${i}`) };
    expect(jsonValueProblem(huge, 100_000, 64)).toBe('are more than 100000 characters of JSON, the limit');
    expect(jsonValueProblem({ s: 'x'.repeat(2_000_000) }, 1_000_000, 64)).toMatch(/more than 1000000 characters/);
    expect(jsonTextProblem('"' + 'x'.repeat(100) + '"', 50, 64)).toBe('are 102 characters of JSON, over the limit of 50');
  });

  it('counts brackets inside strings as text, not nesting', () => {
    expect(jsonTextProblem(JSON.stringify({ s: '[[[[{{{{' }), 100, 1)).toBeNull();
  });
});
