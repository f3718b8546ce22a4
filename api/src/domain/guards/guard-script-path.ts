import { normalizeDocumentPath } from '../cascade/document-path';
import { InvalidDocumentPathError } from '../cascade/errors';
import { validateProjectName } from '../identity/names';
import { InvalidInputError } from '../errors';

/**
 * Where a guard script lives (seed 004 §6d, issue 16): a cascade document path in the process's own
 * scope (`_vance/guards/x.js`), or one naming another project of the same tenant
 * (`//other-project/_vance/guards/x.js`), resolved in that project's cascade. The `//` form is how
 * the path is written and stored; the project name follows the rules of project names, the path
 * those of document paths, and it must name a `.js` document. Who may use the other project is
 * decided where it is installed (the caller) and where it runs (the process's owner), not here.
 */
export interface GuardScriptPath {
  /** Another project's name; null: the process's own scope. */
  readonly project: string | null;
  /** The normalised document path inside that scope. */
  readonly path: string;
}

/** Why a path was refused; the message reads on its own (`… needs a .js document, got 'x.ts'`). */
export class InvalidGuardPathError extends InvalidInputError {
  constructor(message: string) {
    super('INVALID_GUARD_PATH', message, 'path');
  }
}

const OTHER_PROJECT = '//';

/** Parses and normalises a written path; throws InvalidGuardPathError. */
export function parseGuardScriptPath(text: string): GuardScriptPath {
  let project: string | null = null;
  let rest = text;
  if (text.startsWith(OTHER_PROJECT)) {
    const body = text.slice(OTHER_PROJECT.length);
    const slash = body.search(/[\\/]/);
    const name = slash < 0 ? body : body.slice(0, slash);
    try {
      project = validateProjectName(name);
    } catch (error) {
      if (error instanceof InvalidInputError) throw new InvalidGuardPathError(`'${name}' after '//' is not a project name: ${error.message}; write //<project>/<path.js>`);
      throw error;
    }
    rest = slash < 0 ? '' : body.slice(slash + 1);
    if (rest.trim() === '') throw new InvalidGuardPathError(`'//${name}' needs a document path after the project, e.g. //${name}/_vance/guards/x.js`);
  }
  let path: string;
  try {
    path = normalizeDocumentPath(rest);
  } catch (error) {
    if (error instanceof InvalidDocumentPathError) throw new InvalidGuardPathError(error.message);
    throw error;
  }
  if (!path.endsWith('.js') || path.endsWith('/.js') || path === '.js') throw new InvalidGuardPathError(`needs a .js document, got '${path.length > 60 ? `${path.slice(0, 60)}…` : path}'`);
  return { project, path };
}

/** A stored path (already normalised) split into its project and document path. */
export function splitGuardScriptPath(stored: string): GuardScriptPath {
  if (!stored.startsWith(OTHER_PROJECT)) return { project: null, path: stored };
  const body = stored.slice(OTHER_PROJECT.length);
  const slash = body.indexOf('/');
  return slash < 0 ? { project: body, path: '' } : { project: body.slice(0, slash), path: body.slice(slash + 1) };
}

/** The written form: `path` or `//project/path`. */
export function formatGuardScriptPath(where: GuardScriptPath): string {
  return where.project === null ? where.path : `${OTHER_PROJECT}${where.project}/${where.path}`;
}
