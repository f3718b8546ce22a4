import { describe, expect, it } from 'vitest';
import { LiteralScanner } from './literal-scanner';

function found(literals: readonly string[], text: string): string[] {
  const ids = new Set<number>();
  new LiteralScanner(literals).scan(text, (id) => ids.add(id));
  return [...ids].sort((a, b) => a - b).map((id) => literals[id]!);
}

describe('LiteralScanner', () => {
  it('finds overlapping literals and literals inside other literals in one pass', () => {
    expect(found(['he', 'she', 'his', 'hers'], 'ushers')).toEqual(['he', 'she', 'hers']);
    expect(found(['review', 'view', 'ew'], 'a preview')).toEqual(['review', 'view', 'ew']);
  });

  it('resets on characters outside ASCII and finds nothing in an empty text', () => {
    expect(found(['ab'], 'aäb ab')).toEqual(['ab']);
    expect(found(['ab'], 'aäb')).toEqual([]);
    expect(found(['ab'], '')).toEqual([]);
  });

  it('agrees with String.includes on random texts over a small alphabet', () => {
    let seed = 42;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => 'abc '[Math.floor(random() * 4)]).join('');
    for (let round = 0; round < 200; round++) {
      const literals = [...new Set(Array.from({ length: 1 + Math.floor(random() * 12) }, () => word(5)))];
      const text = word(60);
      expect(found(literals, text)).toEqual(literals.filter((l) => text.includes(l)));
    }
  });

  it('finds literals outside ASCII (substring keywords, issue 8)', () => {
    expect(found(['äb', 'ab', 'größe'], 'xäb größe')).toEqual(['äb', 'größe']);
    expect(found(['日本', '本語'], '日本語')).toEqual(['日本', '本語']);
  });

  it('agrees with String.includes on random texts over a non-ASCII alphabet', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => 'aä日 '[Math.floor(random() * 4)]).join('');
    for (let round = 0; round < 200; round++) {
      const literals = [...new Set(Array.from({ length: 1 + Math.floor(random() * 12) }, () => word(5)))];
      const text = word(60);
      expect(found(literals, text)).toEqual(literals.filter((l) => text.includes(l)));
    }
  });
});
