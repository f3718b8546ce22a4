import { InvalidInputError } from '../domain/errors';

/** A JSON argument that must be an object (or absent), e.g. caller `params`. */
export function jsonObject(value: unknown, field: string): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidInputError('INVALID_JSON_OBJECT', `'${field}' must be a JSON object`, field);
  return value as Record<string, unknown>;
}
