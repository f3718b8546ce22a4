import { SKILL_FILE_NAME } from '../domain/skills/skill-paths';

/**
 * `skill://<name>/<file>` (the MCP Skills extension's resource mapping): Vance's skills are flat, so
 * the skill path is the skill's name alone and the authority is that name; `<file>` is relative to
 * the skill folder. The authority is never resolved (the SEP forbids it).
 */
export const SKILL_SCHEME = 'skill://';

export function skillUri(name: string, file: string = SKILL_FILE_NAME): string {
  return `${SKILL_SCHEME}${name}/${file}`;
}

export interface SkillUriParts {
  readonly name: string;
  /** Relative to the skill folder; '' for the folder itself. */
  readonly file: string;
}

/** null when `uri` is not a `skill://` URI with a skill name. */
export function parseSkillUri(uri: string): SkillUriParts | null {
  if (!uri.startsWith(SKILL_SCHEME)) return null;
  const rest = uri.slice(SKILL_SCHEME.length);
  const slash = rest.indexOf('/');
  const name = slash < 0 ? rest : rest.slice(0, slash);
  if (name === '') return null;
  return { name, file: slash < 0 ? '' : rest.slice(slash + 1) };
}
