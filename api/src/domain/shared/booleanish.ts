/**
 * Booleans in frontmatter and recipes (DESIGN §10, seed 002): YAML booleans plus the spellings
 * true/false, yes/no, on/off, 1/0 in any case — whatever the YAML parser's version would say.
 * Returns undefined for anything else, so the caller can report the field.
 */
const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

export function parseBooleanish(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1) return true;
  if (value === 0) return false;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return undefined;
}
