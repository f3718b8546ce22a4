/** The virtual tool of a skill script (seed 000 §13.2): `skill_<skillname>__<scriptname>`. */
export function scriptToolName(skill: string, script: string): string {
  return `skill_${skill}__${script}`;
}
