/**
 * One pass over a text that finds which of many literals occur in it (Aho–Corasick), so the trigger
 * index runs only the PATTERN regexes whose required literal is present (trigger-index.ts). Built once
 * per skill set; `scan` costs O(text length + hits), whatever the number of literals.
 *
 * Literals are any UTF-16 strings: printable ASCII for the regex prefilter (required-literals.ts),
 * normalised keywords for substring keywords (`matchWholeWords: false`, issue 8). When every literal is
 * ASCII, any other character of the text resets to the root without a lookup. The automaton is packed
 * into flat arrays (a dense root row for ASCII, sorted edge lists elsewhere) so a few hundred thousand
 * literal characters stay a few megabytes.
 */
export class LiteralScanner {
  /** Root transitions by character code (0 = stay at the root). */
  private readonly rootNext = new Int32Array(128);
  /** Edges of node n are edgeChar/edgeTarget[edgeStart[n] .. edgeStart[n + 1]). */
  private readonly edgeStart: Int32Array;
  private readonly edgeChar: Uint16Array;
  /** Every literal is ASCII: a non-ASCII text character can only reset to the root. */
  private readonly asciiOnly: boolean;
  private readonly edgeTarget: Int32Array;
  private readonly fail: Int32Array;
  /** The literal ending at a node, or -1. */
  private readonly own: Int32Array;
  /** The nearest node on the fail chain that ends a literal, or 0. */
  private readonly dict: Int32Array;

  constructor(literals: readonly string[]) {
    const children: Map<number, number>[] = [new Map()];
    const ownList: number[] = [-1];
    let asciiOnly = true;
    literals.forEach((literal, id) => {
      let node = 0;
      for (let i = 0; i < literal.length; i++) {
        const code = literal.charCodeAt(i);
        if (code >= 128) asciiOnly = false;
        let next = children[node]!.get(code);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          ownList.push(-1);
          children[node]!.set(code, next);
        }
        node = next;
      }
      // Duplicates are the caller's business (it dedupes); the first id wins here.
      if (ownList[node] === -1) ownList[node] = id;
    });
    const count = children.length;
    this.asciiOnly = asciiOnly;
    this.own = Int32Array.from(ownList);
    this.fail = new Int32Array(count);
    this.dict = new Int32Array(count);
    this.edgeStart = new Int32Array(count + 1);
    let edges = 0;
    children.forEach((map, node) => {
      this.edgeStart[node] = edges;
      edges += map.size;
    });
    this.edgeStart[count] = edges;
    this.edgeChar = new Uint16Array(edges);
    this.edgeTarget = new Int32Array(edges);
    children.forEach((map, node) => {
      let at = this.edgeStart[node]!;
      for (const [code, target] of [...map].sort((a, b) => a[0] - b[0])) {
        this.edgeChar[at] = code;
        this.edgeTarget[at++] = target;
      }
    });
    for (const [code, target] of children[0]!) if (code < 128) this.rootNext[code] = target;
    this.linkFailures(children);
  }

  /** Calls `onLiteral(id)` for every occurrence of every literal in `text`. */
  scan(text: string, onLiteral: (id: number) => void): void {
    // Locals, not `this.` loads, in the one loop of the hot path.
    const { rootNext, edgeStart, edgeChar, edgeTarget, fail, own, dict, asciiOnly } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 128 && asciiOnly) {
        state = 0;
        continue;
      }
      let next = 0;
      while (state !== 0) {
        for (let e = edgeStart[state]!, end = edgeStart[state + 1]!; e < end; e++) {
          if (edgeChar[e] === code) {
            next = edgeTarget[e]!;
            break;
          }
        }
        if (next !== 0) break;
        state = fail[state]!;
      }
      state = next !== 0 ? next : code < 128 ? rootNext[code]! : this.edge(0, code);
      if (state === 0) continue;
      for (let hit = own[state]! >= 0 ? state : dict[state]!; hit !== 0; hit = dict[hit]!) onLiteral(own[hit]!);
    }
  }

  private step(from: number, code: number): number {
    let state = from;
    while (state !== 0) {
      const next = this.edge(state, code);
      if (next !== 0) return next;
      state = this.fail[state]!;
    }
    return code < 128 ? this.rootNext[code]! : this.edge(0, code);
  }

  private edge(node: number, code: number): number {
    for (let e = this.edgeStart[node]!, end = this.edgeStart[node + 1]!; e < end; e++) {
      const c = this.edgeChar[e]!;
      if (c === code) return this.edgeTarget[e]!;
      if (c > code) return 0;
    }
    return 0;
  }

  /** Breadth-first: a node's failure is the longest proper suffix of its path that is also a path. */
  private linkFailures(children: readonly Map<number, number>[]): void {
    const queue: number[] = [...children[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [code, child] of children[node]!) {
        const fallback = this.step(this.fail[node]!, code);
        this.fail[child] = fallback === child ? 0 : fallback;
        const f = this.fail[child]!;
        this.dict[child] = this.own[f]! >= 0 ? f : this.dict[f]!;
        queue.push(child);
      }
    }
  }
}
