import type { ParsedSkill } from './parse-skill';
import { TriggerRegex } from './trigger-regex';

/**
 * A ParsedSkill that crossed a thread (structured clone) is plain data but for its PATTERN triggers:
 * a TriggerRegex arrives as its fields without its class or its compiled RE2 program. This compiles
 * them again from the source the parse already checked (large-document-parser.ts).
 */
export function reviveParsedSkill(cloned: ParsedSkill): ParsedSkill {
  if (!cloned.skill) return cloned;
  const triggers = cloned.skill.triggers.map((trigger) => {
    if (trigger.type !== 'PATTERN') return trigger;
    const { source, flags, analysis } = trigger.regex;
    return { ...trigger, regex: TriggerRegex.compile(source, flags, analysis) };
  });
  return { ...cloned, skill: { ...cloned.skill, triggers } };
}
