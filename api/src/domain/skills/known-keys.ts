/**
 * The frontmatter vocabulary: Vance's fields (seed 000 §2, §2a–§2c, §13), the invocation-policy keys
 * (seed 002), and the keys of the Claude-compatible formats that Vance accepts silently and keeps as
 * `extra` — the Agent Skills specification (`name`, `description`, `license`, `compatibility`,
 * `metadata`, `allowed-tools`) and Claude Code's additions (`argument-hint`, `when_to_use`, `model`,
 * `effort`, `context`, `agent`, `hooks`, `paths`, `shell`). Claude Code's own `arguments` shares
 * Vance's key and is parsed as Vance's (parse-arguments.ts accepts its name-list form).
 */
/** Issue 8 (seed 003): `when` and the trigger controls, read by parse-activation.ts. */
export const ACTIVATION_KEYS = [
  'when',
  'secondaryTriggers',
  'selectiveLogic',
  'caseSensitive',
  'matchWholeWords',
  'scanDepth',
  'frequency',
  'probability',
  'closeWhenUnmentioned',
] as const;

export const VANCE_KEYS = [
  'name',
  'title',
  'description',
  'version',
  'triggers',
  'tools',
  'manualPaths',
  'referenceDocs',
  'tags',
  'enabled',
  'lifecycle',
  'run',
  'arguments',
  'activate',
  'deactivate',
  'action',
  'scripts',
  ...ACTIVATION_KEYS,
] as const;

export const DISABLE_MODEL_INVOCATION = 'disable-model-invocation';
export const USER_INVOCABLE = 'user-invocable';
export const INVOCATION_KEYS = [DISABLE_MODEL_INVOCATION, USER_INVOCABLE] as const;

export const CLAUDE_EXTRA_KEYS = [
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'argument-hint',
  'when_to_use',
  'model',
  'effort',
  'context',
  'agent',
  'hooks',
  'paths',
  'shell',
] as const;

export const ALL_TOP_LEVEL_KEYS: readonly string[] = [...VANCE_KEYS, ...INVOCATION_KEYS, ...CLAUDE_EXTRA_KEYS];

/**
 * A close known key for a misspelt one: the same word up to case and `-`/`_` (`manual_paths`,
 * `ReferenceDocs`), or within two edits for keys of four or more characters (`trigers`).
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const exact = known.find((k) => squash(k) === squash(key));
  if (exact) return exact;
  if (key.length < 4) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}
