/**
 * A small reader of the JavaScript regex syntax that java-regex.ts emits (`u` mode): alternations,
 * groups, lookarounds, classes, escapes, backreferences and quantifiers, with source positions. Used by
 * regex-hazard.ts to judge a trigger regex's backtracking shape; it never matches anything.
 */
import { RegexCursor } from './regex-cursor';
export type RegexNode =
  | { readonly kind: 'atom'; readonly src: string; readonly from: number; readonly to: number }
  | { readonly kind: 'assert'; readonly from: number; readonly to: number; readonly inner: RegexNode[][] | null }
  | { readonly kind: 'backref'; readonly from: number; readonly to: number }
  | { readonly kind: 'group'; readonly branches: RegexNode[][]; readonly from: number; readonly to: number }
  | { readonly kind: 'repeat'; readonly node: RegexNode; readonly min: number; readonly max: number; readonly from: number; readonly to: number };

/** A recursive-descent reader of JavaScript `u`-mode regex syntax, positions kept for messages. */
export class RegexParser extends RegexCursor {

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  alternation(): RegexNode[][] {
    const branches: RegexNode[][] = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    return branches;
  }

  private sequence(): RegexNode[] {
    const seq: RegexNode[] = [];
    while (!this.atEnd() && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      const from = this.i;
      const atom = this.atom();
      seq.push(this.quantified(atom, from));
    }
    return seq;
  }

  private quantified(node: RegexNode, from: number): RegexNode {
    const c = this.s[this.i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.s.slice(this.i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
      this.i += m[0].length - 1;
    } else {
      return node;
    }
    this.i++;
    if (this.s[this.i] === '?') this.i++;
    return { kind: 'repeat', node, min, max, from, to: this.i };
  }

  private atom(): RegexNode {
    const from = this.i;
    const c = this.s[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') {
      this.skipClass();
      return { kind: 'atom', src: this.s.slice(from, this.i), from, to: this.i };
    }
    if (c === '^' || c === '$') {
      this.i++;
      return { kind: 'assert', from, to: this.i, inner: null };
    }
    if (c === '\\') return this.escape();
    const width = (this.s.codePointAt(this.i) ?? 0) > 0xffff ? 2 : 1;
    this.i += width;
    return { kind: 'atom', src: this.s.slice(from, this.i), from, to: this.i };
  }

  private group(): RegexNode {
    const from = this.i;
    const rest = this.s.slice(this.i, this.i + 4);
    const look = /^\(\?(=|!|<=|<!)/.exec(rest);
    if (look) {
      this.i += look[0].length;
      const inner = this.alternation();
      this.expect(')');
      return { kind: 'assert', from, to: this.i, inner };
    }
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?<')) this.skipPast('>');
    else if (rest.startsWith('(?')) throw new Error('unknown group');
    else this.i += 1;
    const branches = this.alternation();
    this.expect(')');
    return { kind: 'group', branches, from, to: this.i };
  }

  private skipClass(): void {
    this.i++;
    while (!this.atEnd() && this.s[this.i] !== ']') this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.expect(']');
  }

  private escape(): RegexNode {
    const from = this.i;
    const next = this.s[this.i + 1];
    if (next === undefined) throw new Error('lone backslash');
    this.i += 2;
    if (next === 'b' || next === 'B') return { kind: 'assert', from, to: this.i, inner: null };
    if (/[1-9]/.test(next)) {
      while (/[0-9]/.test(this.s[this.i] ?? '')) this.i++;
      return { kind: 'backref', from, to: this.i };
    }
    if (next === 'k' && this.s[this.i] === '<') {
      this.skipPast('>');
      return { kind: 'backref', from, to: this.i };
    }
    if ((next === 'p' || next === 'P' || next === 'u') && this.s[this.i] === '{') this.skipPast('}');
    else if (next === 'u') this.i += 4;
    else if (next === 'x') this.i += 2;
    else if (next === 'c') this.i += 1;
    return { kind: 'atom', src: this.s.slice(from, this.i), from, to: this.i };
  }

}
