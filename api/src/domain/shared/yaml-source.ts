import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
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
    const syntax = this.document.errors.map((e) => ({ message: syntaxMessage(e.message), ...this.positionOf(e.pos[0]) }));
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
