import type { SkillArgument } from '../skills/skill';

/**
 * The JSON schema of a script's virtual tool (seed 000 §13.7): one property per declared param with
 * its type and description, required ones listed, `additionalProperties: true` so scripts may still
 * read undeclared optional args; without a params block a free-form object.
 */
export function scriptParamsSchema(params: readonly SkillArgument[] | null): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const param of params ?? []) {
    properties[param.name] = param.description ? { type: param.type, description: param.description } : { type: param.type };
    if (param.required) required.push(param.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: true };
}
