/**
 * Size and depth caps on JSON that crosses a boundary (DESIGN §6: copies with size and depth caps):
 * checked by linear scans that stop as soon as a cap is passed, before anything parses, copies,
 * stringifies or stores the data. A 50 MB tool-call argument grew the server by up to 870 MB, and a
 * 100,000-deep one failed the turn with "Maximum call stack size exceeded" (issue 13).
 */

/**
 * Whether a JSON text nests arrays/objects deeper than `maxDepth`, by a scan (so JSON.parse never
 * sees a text deeper than the cap; the scan stops as soon as the cap is passed).
 */
export function jsonDepthExceeds(json: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** What is wrong with a JSON text against the caps, or null when it is within them. */
export function jsonTextProblem(json: string, maxChars: number, maxDepth: number): string | null {
  if (json.length > maxChars) return `are ${json.length} characters of JSON, over the limit of ${maxChars}`;
  if (jsonDepthExceeds(json, maxDepth)) return `nest deeper than the limit of ${maxDepth} levels`;
  return null;
}

/**
 * The same caps on an already parsed value (a provider SDK hands over objects): an iterative walk
 * that estimates the JSON size and stops at the first cap passed, so neither a huge nor a deep
 * value is ever stringified or recursed into.
 */
export function jsonValueProblem(value: unknown, maxChars: number, maxDepth: number): string | null {
  let chars = 0;
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') {
      chars += typeof current === 'string' ? current.length + 2 : 5;
    } else {
      if (depth + 1 > maxDepth) return `nest deeper than the limit of ${maxDepth} levels`;
      chars += 2;
      if (Array.isArray(current)) {
        for (const item of current) stack.push({ value: item, depth: depth + 1 });
        chars += current.length;
      } else {
        for (const key of Object.keys(current)) {
          chars += key.length + 4;
          stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
          if (chars > maxChars) break;
        }
      }
    }
    if (chars > maxChars) return `are more than ${maxChars} characters of JSON, the limit`;
  }
  return null;
}
