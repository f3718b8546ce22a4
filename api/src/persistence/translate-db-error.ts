/**
 * Turns constraint violations into domain errors. Both drivers raise pg's DatabaseError (PGlite
 * speaks the wire protocol to a real pg.Client); TypeORM wraps it in QueryFailedError (`driverError`).
 * Constraints have explicit names in the migrations, so callers map them by name.
 */
import { NameTakenError, NotFoundError, type DomainError } from '../domain/errors';

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** Constraint name → [kind, key] of the thing that is taken (unique) or missing (foreign key). */
export type ConstraintNames = Readonly<Record<string, readonly [kind: string, key: string]>>;

/** The SQLSTATE and constraint name of a (possibly TypeORM-wrapped) database error. */
export function dbErrorInfo(err: unknown): { code: string; constraint: string | undefined } | null {
  if (typeof err !== 'object' || err === null) return null;
  const driverError = (err as { driverError?: unknown }).driverError;
  const source = (typeof driverError === 'object' && driverError !== null ? driverError : err) as {
    code?: unknown;
    constraint?: unknown;
  };
  if (typeof source.code !== 'string') return null;
  return { code: source.code, constraint: typeof source.constraint === 'string' ? source.constraint : undefined };
}

/**
 * A unique violation of a named constraint becomes NameTakenError(kind, key), a foreign-key
 * violation NotFoundError(kind, key) (the referenced row is missing). Anything else comes back
 * unchanged, so callers write `catch (e) { throw translateDbError(e, {...}) }`.
 */
export function translateDbError(err: unknown, names: ConstraintNames): unknown {
  const info = dbErrorInfo(err);
  const name = info?.constraint === undefined ? undefined : names[info.constraint];
  if (!info || !name) return err;
  const error: DomainError | null =
    info.code === UNIQUE_VIOLATION ? new NameTakenError(name[0], name[1])
    : info.code === FOREIGN_KEY_VIOLATION ? new NotFoundError(name[0], name[1])
    : null;
  return error ?? err;
}
