/**
 * Bounded regexes (issue 8): a trigger regex that can backtrack catastrophically is refused when the
 * SKILL.md is parsed, because the PATTERN_INPUT_CAP on the matched text bounds linear and polynomial
 * cost but not exponential cost (`(a+)+b` hangs on 30 characters). This reads the compiled JavaScript
 * source (what java-regex.ts produced) and refuses the shapes that make V8's backtracking exponential:
 *
 * - NESTED: inside a repeated group (max ≥ 2), an unbounded (or widely bounded) quantified part whose
 *   characters can also be consumed by what follows it within the repetition — `(a+)+`, `(a*)*`,
 *   `(.*a){20}`, `([a-z]+|\d+)+`. A repetition separated by a character the inner part cannot match is
 *   fine: `(\w+\s)+`, `(\d{1,3}\.){3}`.
 * - ALTERNATION: inside a repeated group, an alternation whose branches can start with the same
 *   character — `(a|a)*`, `(a|ab)+`, `(\w|\d)+`. Disjoint ones are fine: `(gamma|delta)+`.
 * - BACKREFERENCE: a backreference that is quantified or inside a repeated group — `(a)\1+`, `((a)\2)*`.
 *
 * "Can also be consumed" is decided on a sample alphabet (all of ASCII and Latin-1, a stride through the
 * BMP and characters with unusual case folding) with the regex's own flags: a cheap, conservative
 * stand-in for exact set intersection. Polynomial shapes (`.*a.*b`) are left to the input cap.
 */
import { RegexParser, type RegexNode as Node } from './regex-syntax';

export interface RegexHazard {
  readonly kind: 'NESTED' | 'ALTERNATION' | 'BACKREFERENCE';
  /** The offending part of the compiled source, e.g. `(a+)+`. */
  readonly fragment: string;
  readonly message: string;
}

/** The first hazard of `regex`, or null when it is bounded. Unparseable sources are not judged (null). */
export function regexHazard(regex: RegExp): RegexHazard | null {
  let tree: Node[][];
  try {
    const parser = new RegexParser(regex.source);
    tree = parser.alternation();
    if (!parser.atEnd()) return null;
  } catch (_error) {
    return null;
  }
  const checker = new Checker(regex.source, regex.flags.replace(/[gy]/g, ''));
  return checker.branches(tree, false);
}

/** Widely bounded inner repetitions count as unbounded: `(a{1,50}){1,50}` is as bad as `(a+)+`. */
const WIDE = 8;

class Checker {
  private readonly matchers = new Map<string, RegExp>();

  constructor(private readonly source: string, private readonly flags: string) {}

  branches(branches: readonly (readonly Node[])[], inRepeat: boolean): RegexHazard | null {
    for (const seq of branches) for (const node of seq) {
      const found = this.node(node, inRepeat);
      if (found) return found;
    }
    return null;
  }

  private node(node: Node, inRepeat: boolean): RegexHazard | null {
    switch (node.kind) {
      case 'atom':
        return null;
      case 'backref':
        return inRepeat ? this.hazard('BACKREFERENCE', node, `a backreference inside a repeated group (\`${this.source.slice(node.from, node.to)}\`)`) : null;
      case 'assert':
        return node.inner ? this.branches(node.inner, inRepeat) : null;
      case 'group':
        return this.branches(node.branches, inRepeat);
      case 'repeat':
        return this.repeat(node, inRepeat);
    }
  }

  private repeat(node: Extract<Node, { kind: 'repeat' }>, inRepeat: boolean): RegexHazard | null {
    if (node.node.kind === 'backref' && node.max >= 2) return this.hazard('BACKREFERENCE', node, `a quantified backreference (\`${this.source.slice(node.from, node.to)}\`)`);
    const repeating = node.max >= 2;
    if (repeating) {
      const body = node.node.kind === 'group' ? node.node.branches : [[node.node]];
      const found = this.ambiguity(body, firstOf(body), node.node);
      // Named after the repeated group, which is what the author has to rewrite.
      if (found) return this.hazard(found.kind, node, `${found.why}: \`${this.source.slice(found.inner.from, found.inner.to)}\` in \`${this.source.slice(node.from, node.to)}\``);
    }
    return this.node(node.node, inRepeat || repeating);
  }

  /**
   * Within one repetition of a group: walks every sequence with what can follow each element
   * (`follow`, as atoms), and reports an inner repetition or an alternation that can consume the same
   * character two ways.
   */
  private ambiguity(branches: readonly (readonly Node[])[], follow: readonly Atom[], at?: Node): Ambiguity | null {
    if (branches.length > 1) {
      const firsts = branches.map((seq) => firstOfSeq(seq));
      for (let a = 0; a < firsts.length; a++) {
        for (let b = a + 1; b < firsts.length; b++) {
          if (this.overlap(firsts[a]!, firsts[b]!)) {
            return { kind: 'ALTERNATION', inner: at ?? branches[a]![0] ?? branches[b]![0]!, why: 'alternatives inside a repeated group can start with the same character, so the same text can be split between them in exponentially many ways' };
          }
        }
      }
    }
    for (const seq of branches) {
      for (let i = 0; i < seq.length; i++) {
        const rest = seq.slice(i + 1);
        const after = nullableSeq(rest) ? [...firstOfSeq(rest), ...follow] : firstOfSeq(rest);
        const found = this.element(seq[i]!, after);
        if (found) return found;
      }
    }
    return null;
  }

  private element(node: Node, follow: readonly Atom[]): Ambiguity | null {
    if (node.kind === 'group') return this.ambiguity(node.branches, follow, node);
    if (node.kind !== 'repeat') return null;
    if (node.max - node.min >= WIDE && this.overlap(atomsOf(node.node), follow)) {
      return { kind: 'NESTED', inner: node, why: 'a nested quantifier (a repeated part inside a repeated group can match the same characters as what follows it, so the text can be split in exponentially many ways)' };
    }
    const inner = node.node.kind === 'group' ? node.node.branches : [[node.node]];
    return this.ambiguity(inner, node.max >= 2 ? [...firstOf(inner), ...follow] : follow, node.node);
  }

  private overlap(a: readonly Atom[], b: readonly Atom[]): boolean {
    if (a.length === 0 || b.length === 0) return false;
    if (a.some((x) => x === ANY) || b.some((x) => x === ANY)) return true;
    const left = a.map((x) => this.matcher(x.src));
    const right = b.map((x) => this.matcher(x.src));
    for (const c of SAMPLE) if (left.some((r) => r.test(c)) && right.some((r) => r.test(c))) return true;
    return false;
  }

  private matcher(src: string): RegExp {
    let regex = this.matchers.get(src);
    if (!regex) {
      try {
        regex = new RegExp(`^(?:${src})$`, this.flags);
      } catch (_error) {
        regex = /^[\s\S]$/u;
      }
      this.matchers.set(src, regex);
    }
    return regex;
  }

  private hazard(kind: RegexHazard['kind'], node: Node, why: string): RegexHazard {
    const fragment = this.source.slice(node.from, node.to);
    return { kind, fragment, message: `it can backtrack catastrophically: ${why}` };
  }
}

type Atom = { readonly src: string };
interface Ambiguity {
  readonly kind: 'NESTED' | 'ALTERNATION';
  readonly inner: Node;
  readonly why: string;
}
/** A backreference: could be any text. */
const ANY: Atom = { src: '[\\s\\S]' };

function firstOf(branches: readonly (readonly Node[])[]): Atom[] {
  return branches.flatMap((seq) => firstOfSeq(seq));
}

function firstOfSeq(seq: readonly Node[]): Atom[] {
  const atoms: Atom[] = [];
  for (const node of seq) {
    atoms.push(...firstOfNode(node));
    if (!nullable(node)) break;
  }
  return atoms;
}

function firstOfNode(node: Node): Atom[] {
  switch (node.kind) {
    case 'atom':
      return [{ src: node.src }];
    case 'backref':
      return [ANY];
    case 'assert':
      return [];
    case 'group':
      return firstOf(node.branches);
    case 'repeat':
      return node.max === 0 ? [] : firstOfNode(node.node);
  }
}

/** Every character-consuming atom anywhere inside. */
function atomsOf(node: Node): Atom[] {
  switch (node.kind) {
    case 'atom':
      return [{ src: node.src }];
    case 'backref':
      return [ANY];
    case 'assert':
      return [];
    case 'group':
      return node.branches.flatMap((seq) => seq.flatMap(atomsOf));
    case 'repeat':
      return atomsOf(node.node);
  }
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case 'atom':
      return false;
    case 'backref':
    case 'assert':
      return true;
    case 'group':
      return node.branches.some(nullableSeq);
    case 'repeat':
      return node.min === 0 || nullable(node.node);
  }
}

function nullableSeq(seq: readonly Node[]): boolean {
  return seq.every(nullable);
}

const SAMPLE: readonly string[] = (() => {
  const chars = new Set<string>();
  for (let c = 0; c < 0x180; c++) chars.add(String.fromCharCode(c));
  for (let c = 0x180; c < 0xd800; c += 61) chars.add(String.fromCharCode(c));
  for (let c = 0xe000; c < 0x10000; c += 61) chars.add(String.fromCharCode(c));
  for (const c of ['\u212a', '\u212b', '\u017f', '\u0130', '\u0131', '\u1e9e', '\u00df', '\u03c2', '\u2028', '\u2029', '\u3000', '\u4e2d', '\u0416', '\u05d0', '\u0627', '\ud83d\ude00']) chars.add(c);
  return [...chars];
})();
