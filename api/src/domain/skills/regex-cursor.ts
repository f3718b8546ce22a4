/**
 * The read position of a hand-written regex parser over a pattern's source: the shared moves of the
 * hazard parser (regex-syntax.ts) and the required-literal extractor (processes/triggers). Both throw
 * a plain Error on malformed input; their callers treat that as "cannot tell".
 */
export abstract class RegexCursor {
  protected i = 0;

  constructor(protected readonly s: string) {}

  /** Moves past the next `char` (e.g. the `]` closing a class). */
  protected skipPast(char: string): void {
    const end = this.s.indexOf(char, this.i);
    if (end < 0) throw new Error(`unterminated: expected ${char}`);
    this.i = end + 1;
  }

  protected expect(char: string): void {
    if (this.s[this.i] !== char) throw new Error(`expected ${char}`);
    this.i++;
  }
}
