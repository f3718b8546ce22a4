import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH } from './yaml-structure';
import { YamlSource } from './yaml-source';

/**
 * Issue 13: the YAML library's duplicate-key check is quadratic (a 1 MB flow map took four minutes
 * to validate), so documents are read with it off and yaml-structure.ts does it in one pass.
 */
describe('YamlSource structure checks', () => {
  it('reports a duplicate key at the duplicate, in block and flow maps, at any depth', () => {
    expect(new YamlSource('a: 1\nb: 2\na: 3\n').errors).toEqual([{ message: 'Map keys must be unique', line: 3, column: 1 }]);
    expect(new YamlSource('x:\n  y: {k: 1, j: 2, k: 3}\n').errors).toEqual([{ message: 'Map keys must be unique', line: 2, column: 19 }]);
    expect(new YamlSource('list:\n  - name: a\n    name: b\n').errors).toEqual([{ message: 'Map keys must be unique', line: 3, column: 5 }]);
  });

  it('shifts positions by the embedding offset (SKILL.md frontmatter)', () => {
    expect(new YamlSource('a: 1\na: 2\n', 1).errors).toEqual([{ message: 'Map keys must be unique', line: 3, column: 1 }]);
  });

  it('allows repeated merge keys and equal values under different keys', () => {
    const source = new YamlSource('base: &b {x: 1}\nmore: &m {y: 2}\nboth:\n  <<: *b\n  <<: *m\n  z: 1\nother: 1\n');
    expect(source.errors).toEqual([]);
    expect(source.toJS()).toMatchObject({ both: { x: 1, y: 2, z: 1 } });
  });

  it('finds every duplicate of a large map, and only those', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `k${i % 19_990}: ${i}`);
    const errors = new YamlSource(lines.join('\n')).errors;
    expect(errors).toHaveLength(10);
    expect(errors[0]).toEqual({ message: 'Map keys must be unique', line: 19_991, column: 1 });
  });

  it(`refuses nesting deeper than ${MAX_YAML_DEPTH} levels, by block or by flow`, () => {
    const block = Array.from({ length: MAX_YAML_DEPTH + 1 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1';
    expect(new YamlSource(block).errors).toEqual([{ message: `The YAML nests deeper than ${MAX_YAML_DEPTH} levels`, line: MAX_YAML_DEPTH + 1, column: MAX_YAML_DEPTH + 1 }]);
    const atLimit = Array.from({ length: MAX_YAML_DEPTH }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1';
    expect(new YamlSource(atLimit).errors).toEqual([]);
    expect(new YamlSource(`a: ${'['.repeat(200)}${']'.repeat(200)}`).errors[0]?.message).toBe(`The YAML nests deeper than ${MAX_YAML_DEPTH} levels`);
  });

  it('says what a nesting too deep for the parser itself means, instead of a stack overflow', () => {
    const errors = new YamlSource(`a: ${'['.repeat(100_000)}${']'.repeat(100_000)}`).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^The YAML nests (too deeply to be read|deeper than 64 levels)$/);
  });
});
