import { InvalidInputError } from '../errors';

/** A skill name that cannot be a folder under `_vance/skills/` (see skill-paths.ts). */
export class InvalidSkillNameError extends InvalidInputError {
  constructor(readonly skillName: string, reason: string) {
    super('INVALID_SKILL_NAME', `Invalid skill name '${skillName}': ${reason}`, 'name');
  }
}
