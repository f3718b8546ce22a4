import { InvalidInputError } from '../errors';

/**
 * Names of tenants, users and projects. A leading `_` is reserved for system projects
 * (`_tenant`, `_user_<login>`), so user-chosen names cannot collide with them.
 */
const NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function check(pattern: RegExp, value: string, field: string, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new InvalidInputError(
      'INVALID_NAME',
      `Invalid ${what} '${value}': use 1–63 characters of ${pattern === NAME ? 'a-z' : 'A-Z, a-z'}, 0-9, '.', '_', '-', starting with a letter or digit`,
      field,
    );
  }
  return value;
}

export const validateTenantName = (name: string): string => check(NAME, name, 'name', 'tenant name');
export const validateLogin = (login: string): string => check(NAME, login, 'login', 'login');
export const validateProjectName = (name: string): string => check(PROJECT_NAME, name, 'name', 'project name');
