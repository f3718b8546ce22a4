import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';

/**
 * The structural checks the YAML library would do quadratically, done in one pass (issue 13): the
 * library's own duplicate-key check compares every key with every earlier one (a 128 KB map took
 * 680 ms with it, 130 ms without; a 1 MB flow map, four minutes), so documents are parsed with
 * `uniqueKeys: false` and duplicates are found here with a Set per map. The same walk bounds the
 * nesting depth, so that no later recursive pass over the document (toJS, our readers) can run out
 * of stack; aliases are not followed (their anchors are walked where they are defined).
 */
export const MAX_YAML_DEPTH = 64;

export interface YamlStructureProblem {
  readonly message: string;
  /** Offset into the YAML text, for the caller to turn into line and column. */
  readonly offset: number;
}

export function checkYamlStructure(document: Document.Parsed, merge: boolean): YamlStructureProblem[] {
  const problems: YamlStructureProblem[] = [];
  const stack: { node: unknown; depth: number }[] = [{ node: document.contents, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_YAML_DEPTH) {
      problems.push({ message: `The YAML nests deeper than ${MAX_YAML_DEPTH} levels`, offset: offsetOf(node) });
      return problems;
    }
    const keys = new Set<unknown>();
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        const key = item.key;
        if (isScalar(key) && !(merge && key.value === '<<')) {
          if (keys.has(key.value)) problems.push({ message: 'Map keys must be unique', offset: offsetOf(key) });
          else keys.add(key.value);
        } else if (key !== null && !isScalar(key)) {
          stack.push({ node: key, depth: depth + 1 });
        }
        stack.push({ node: item.value, depth: depth + 1 });
      } else if (!isAlias(item)) {
        stack.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return problems;
}

function offsetOf(node: Node): number {
  return node.range?.[0] ?? 0;
}
