import { isMap, isScalar, isSeq, LineCounter, parseDocument, Parser, type Document, type Node, type YAMLError } from 'yaml';
import { checkYamlStructure } from './yaml-structure';

/**
 * A YAML text parsed with node positions, so every diagnostic can say where (line, column, 1-based)
 * a field is. `lineOffset` shifts positions when the YAML is embedded (SKILL.md frontmatter starts
 * after the opening fence). Parsed as YAML 1.2 (a `description: no` stays a string); boolean fields go through parseBooleanish.
 */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

export interface YamlSyntaxProblem extends YamlPosition {
  readonly message: string;
}

export class YamlSource {
  readonly document: Document.Parsed;
  readonly errors: readonly YamlSyntaxProblem[];
  private readonly lines = new LineCounter();

  constructor(readonly text: string, private readonly lineOffset = 0) {
    // uniqueKeys: false — the library's check is quadratic; yaml-structure.ts does it in one pass.
    this.document = parseDocument(text, { lineCounter: this.lines, uniqueKeys: false, prettyErrors: false, merge: true });
    const openers = unclosedOpeners(this.document, text);
    const syntax = this.document.errors.map((e) => ({ message: syntaxMessage(e.message), ...this.positionOf(openerOf(e, openers) ?? e.pos[0]) }));
    this.errors = syntax.length > 0
      ? syntax
      : checkYamlStructure(this.document, true).map((p) => ({ message: p.message, ...this.positionOf(p.offset) }));
  }

  /** The plain JavaScript value (maps → objects, YAML 1.1 booleans → booleans). */
  toJS(): unknown {
    return this.document.toJS({ maxAliasCount: 100 });
  }

  /**
   * Where the node at `path` starts (a key path like ['triggers', 0, 'pattern']); for a map entry
   * whose value is missing, the key's position; falls back to the nearest existing parent.
   */
  locate(path: readonly (string | number)[]): YamlPosition {
    for (let depth = path.length; depth >= 0; depth--) {
      const prefix = path.slice(0, depth);
      const node = prefix.length === 0 ? this.document.contents : this.document.getIn(prefix, true);
      const position = this.nodePosition(node as Node | undefined) ?? (prefix.length > 0 ? this.keyPosition(prefix) : undefined);
      if (position) return position;
    }
    return { line: 1 + this.lineOffset, column: 1 };
  }

  /** The position of the key of the last path segment in its parent map (for "unknown key" warnings). */
  keyPosition(path: readonly (string | number)[]): YamlPosition | undefined {
    const parentPath = path.slice(0, -1);
    const parent = parentPath.length === 0 ? this.document.contents : this.document.getIn(parentPath, true);
    if (!isMap(parent)) return undefined;
    const last = path[path.length - 1];
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
    return pair && isScalar(pair.key) ? this.nodePosition(pair.key) : undefined;
  }

  private nodePosition(node: Node | null | undefined): YamlPosition | undefined {
    if (!node || !(isMap(node) || isSeq(node) || isScalar(node)) || !node.range) return undefined;
    return this.positionOf(node.range[0]);
  }

  private positionOf(offset: number): YamlPosition {
    const { line, col } = this.lines.linePos(offset);
    return { line: line + this.lineOffset, column: col };
  }
}

/** The first line of the library's message; its recursion limit said as what it means. */
function syntaxMessage(message: string): string {
  if (/Maximum call stack size exceeded/.test(message)) return 'The YAML nests too deeply to be read';
  return message.split('\n')[0] ?? message;
}

/** A `[`, `{` or quote that the text never closes: where the parser started the node, and what it wanted. */
interface Opener {
  readonly offset: number;
  readonly closer: ']' | '}' | '"' | "'";
  used: boolean;
}

/**
 * The library reports an unclosed `[`, `{` or quote where it gives up — the first token after it,
 * usually the next line or the end of the text — which points authors one line (or more) past their
 * mistake (issue 15). The concrete syntax tree still knows where each one opened and whether its
 * closer came; read only when there are errors (a second, lexical pass).
 */
function unclosedOpeners(document: Document.Parsed, text: string): Opener[] {
  const openers: Opener[] = [];
  if (!document.errors.some((e) => closerWanted(e) !== null)) return openers;
  // An explicit stack: the tree may nest as deep as the text does (a recursion overflowed at 100,000 `[`).
  const stack: unknown[] = [...new Parser().parse(text)];
  while (stack.length > 0) {
    const token = stack.pop();
    if (token === null || typeof token !== 'object') continue;
    if (Array.isArray(token)) {
      stack.push(...token);
      continue;
    }
    const t = token as { type?: string; offset?: number; start?: { type?: string }; end?: { type?: string }[]; source?: string };
    if (t.type === 'flow-collection' && t.offset !== undefined) {
      const seq = t.start?.type === 'flow-seq-start';
      const closed = (t.end ?? []).some((e) => e.type === (seq ? 'flow-seq-end' : 'flow-map-end'));
      if (!closed) openers.push({ offset: t.offset, closer: seq ? ']' : '}', used: false });
    } else if ((t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && t.offset !== undefined) {
      const quote = t.type === 'double-quoted-scalar' ? '"' : "'";
      const written = (t.source ?? '').trimEnd();
      if (written.length < 2 || !written.endsWith(quote)) openers.push({ offset: t.offset, closer: quote, used: false });
    }
    for (const value of Object.values(t)) if (value !== null && typeof value === 'object') stack.push(value);
  }
  return openers.sort((a, b) => a.offset - b.offset);
}

/** What an error says was never closed, or null for other errors. */
function closerWanted(error: YAMLError): Opener['closer'] | null {
  if (error.code === 'MISSING_CHAR' && /closing "quote/.test(error.message)) return '"';
  if (error.code === 'MISSING_CHAR' && /closing 'quote/.test(error.message)) return "'";
  if (/^Flow sequence\b.*end with a \]/.test(error.message)) return ']';
  if (/^Flow map\b.*end with a \}/.test(error.message)) return '}';
  return null;
}

/** The opener an "unclosed" error is about: the innermost one of its kind not yet claimed by another error. */
function openerOf(error: YAMLError, openers: Opener[]): number | undefined {
  const closer = closerWanted(error);
  if (closer === null) return undefined;
  const candidates = openers.filter((o) => o.closer === closer && !o.used && o.offset < error.pos[0]);
  const opener = candidates[candidates.length - 1];
  if (!opener) return undefined;
  opener.used = true;
  return opener.offset;
}
