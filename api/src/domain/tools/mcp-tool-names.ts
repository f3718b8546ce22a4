/**
 * The catalog names of a pack's tools (issue 19 part 2). OpenAI and Anthropic accept tool names of
 * `^[a-zA-Z0-9_-]{1,64}$` only, while an MCP server may name a tool anything (dots, slashes, 100
 * characters). A tool is offered as `<pack>_<tool>` with every other character replaced by `_`;
 * a name still too long is cut and ends in `_` + an 8-hex hash of the server's name. Two server
 * names that end up equal are told apart the same way: the server's names in code-point order,
 * the first keeps the plain name, every later one gets the hashed form. Deterministic, so a name
 * the model saw in one turn means the same tool in the next.
 */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

/** server tool name → catalog name, for every name of `serverNames`. */
export function mcpToolNames(pack: string, serverNames: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const original of [...new Set(serverNames)].sort()) {
    const plain = `${pack}_${original.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
    let name = plain.length <= MAX && !taken.has(plain) ? plain : hashed(plain, original);
    // Only a hash collision is left; extend it with the position until free (never seen in practice).
    for (let i = 2; taken.has(name); i++) name = hashed(plain, `${original}\u0000${i}`);
    taken.add(name);
    names.set(original, name);
  }
  return names;
}

function hashed(plain: string, original: string): string {
  const suffix = `_${fnv1a(original)}`;
  return plain.slice(0, MAX - suffix.length) + suffix;
}

/** FNV-1a, 32 bits, as 8 hex digits: a stable short tag, not a security measure. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
