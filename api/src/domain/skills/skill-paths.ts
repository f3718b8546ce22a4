import { normalizeDocumentPath, normalizePathPrefix } from '../cascade/document-path';
import { InvalidDocumentPathError } from '../cascade/errors';

/**
 * Where skills live in every layer (seed 000 §2, DESIGN §1): `_vance/skills/<name>/SKILL.md` plus
 * sibling files. The constants are the only place these strings are spelled.
 */
export const SKILLS_PREFIX = '_vance/skills/';
export const SKILL_FILE_NAME = 'SKILL.md';

/**
 * A skill name is one folder name: letters, digits, `.`, `_`, `-`, starting with a letter or digit,
 * at most 64 characters (the Agent Skills limit). No `/`, no `..`, no whitespace, so a name can never
 * address another folder and `skill_<name>__<script>` stays a valid tool name (seed 000 §13.2).
 */
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The reason a name is invalid, or null when it is fine. */
export function skillNameProblem(name: string): string | null {
  if (typeof name !== 'string' || name === '') return 'the name is empty';
  if (SKILL_NAME.test(name)) return null;
  if (name.length > 64) return 'longer than 64 characters';
  return "use 1–64 characters of A-Z, a-z, 0-9, '.', '_', '-', starting with a letter or digit";
}

export function skillDocumentPath(name: string): string {
  return `${SKILLS_PREFIX}${name}/${SKILL_FILE_NAME}`;
}

/** A file of the skill subtree (`references/…`, `scripts/…`), same layer as the SKILL.md (seed 000 §8). */
export function skillSiblingPath(name: string, relativeFile: string): string {
  return `${SKILLS_PREFIX}${name}/${relativeFile}`;
}

/** The folder name if `path` is exactly `_vance/skills/<name>/SKILL.md`, else null (siblings, deeper files). */
export function skillNameOfPath(path: string): string | null {
  if (!path.startsWith(SKILLS_PREFIX) || !path.endsWith(`/${SKILL_FILE_NAME}`)) return null;
  const name = path.slice(SKILLS_PREFIX.length, -(SKILL_FILE_NAME.length + 1));
  return name !== '' && !name.includes('/') ? name : null;
}

export type SanitizedPath = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

/**
 * A file relative to the skill folder (`referenceDocs[].file`, `scripts[].file`): sanitised like a
 * document path (`\` → `/`, `.` segments collapse; no leading `/`, no `..`, no drive letter).
 */
export function sanitizeSkillFile(raw: string): SanitizedPath {
  return sanitize(() => normalizeDocumentPath(raw));
}

/** A `manualPaths` folder (seed 000 §2: "sanitization like manual_read"); keeps a trailing `/`. */
export function sanitizeManualPath(raw: string): SanitizedPath {
  return sanitize(() => normalizePathPrefix(raw));
}

function sanitize(normalize: () => string): SanitizedPath {
  try {
    const path = normalize();
    return path === '' ? { ok: false, reason: 'the path is empty' } : { ok: true, path };
  } catch (error) {
    if (error instanceof InvalidDocumentPathError) return { ok: false, reason: error.message.replace(/^Invalid document path '.*?': /s, '') };
    throw error;
  }
}
