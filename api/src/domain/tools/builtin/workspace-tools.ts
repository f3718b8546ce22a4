/**
 * `workspace_read/write/list/delete` (seed 004 §6b "Delimitation"): the project's working files,
 * stored as PROJECT-layer documents under `workspace/` of the process's project, with the process
 * owner's rights (DocumentService applies the ACL: writing needs write access to the project).
 * The `path` argument is relative to `workspace/`; absolute paths, drive letters and `..` are refused
 * rather than "fixed", so a tool call can never reach a document outside the workspace.
 */
import { normalizeDocumentPath, normalizePathPrefix } from '../../cascade/document-path';
import type { DocumentService } from '../../documents/document-service';
import { InvalidInputError } from '../../errors';
import { objectSchema, type JsonSchema } from './json-schema';
import { json, ok, optionalStr, projectNameOf, refuse, str, type BuiltinTool, type ProjectNames } from './tool-support';

export const WORKSPACE_FOLDER = 'workspace/';
/** Entries returned by one workspace_list call. */
export const MAX_LIST_ENTRIES = 500;
/** What one workspace_write may send (the document service also enforces its byte limit). */
export const MAX_WRITE_CHARS = 1_000_000;

export interface WorkspaceToolDeps {
  readonly documents: DocumentService;
  readonly identity: ProjectNames;
}

export class WorkspacePathError extends InvalidInputError {
  constructor(raw: string, reason: string) {
    super('INVALID_WORKSPACE_PATH', `Invalid workspace path '${raw}': ${reason}. Paths are relative to workspace/, e.g. "notes/summary.md".`, 'path');
  }
}

function checkRelative(raw: string): string {
  const slashed = raw.trim().replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~')) throw new WorkspacePathError(raw, 'absolute paths are not allowed');
  if (/^[a-zA-Z]:/.test(slashed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(slashed)) throw new WorkspacePathError(raw, 'drive letters and URLs are not allowed');
  if (slashed.split('/').some((segment) => segment === '..')) throw new WorkspacePathError(raw, "'..' is not allowed");
  if (/\p{Cc}/u.test(slashed)) throw new WorkspacePathError(raw, 'control characters are not allowed');
  return slashed;
}

/** The document path of a workspace file: `workspace/<relative>`. */
export function workspaceDocumentPath(raw: string): string {
  const relative = checkRelative(raw);
  const path = normalizeDocumentPath(`${WORKSPACE_FOLDER}${relative}`);
  if (!path.startsWith(WORKSPACE_FOLDER) || path.length === WORKSPACE_FOLDER.length) throw new WorkspacePathError(raw, 'a file name is required');
  return path;
}

/** The listing prefix of a workspace folder: `workspace/<prefix>` (empty: the whole workspace). */
export function workspacePrefix(raw: string | null): string {
  if (raw === null || raw.trim() === '') return WORKSPACE_FOLDER;
  const prefix = normalizePathPrefix(`${WORKSPACE_FOLDER}${checkRelative(raw)}`);
  if (!prefix.startsWith(WORKSPACE_FOLDER)) throw new WorkspacePathError(raw, 'outside the workspace');
  return prefix;
}

const relativeOf = (path: string): string => path.slice(WORKSPACE_FOLDER.length);

const PATH: JsonSchema = { type: 'string', minLength: 1, maxLength: 1000, description: 'File path relative to workspace/, e.g. "notes/summary.md"' };

export function workspaceTools(deps: WorkspaceToolDeps): BuiltinTool[] {
  const read: BuiltinTool = {
    name: 'workspace_read',
    labels: ['read', 'workspace'],
    description:
      'Read a file from the project workspace (files uploaded by the user or written by workers). The path is relative ' +
      'to the workspace, e.g. "notes/summary.md". Returns the file text; a missing file is an error. Use workspace_list to find files.',
    parameters: objectSchema({ path: PATH }, ['path']),
    async invoke(args, ctx) {
      const path = workspaceDocumentPath(str(args, 'path'));
      const doc = await deps.documents.get(ctx.principal, 'PROJECT', await projectNameOf(deps.identity, ctx), path);
      if (!doc) return refuse(`No workspace file '${relativeOf(path)}'. Use workspace_list to see the files.`);
      return ok(doc.content);
    },
  };

  const list: BuiltinTool = {
    name: 'workspace_list',
    labels: ['read', 'workspace'],
    description:
      'List the files of the project workspace, optionally only those under a folder or name prefix (relative to the ' +
      `workspace, e.g. "notes/"). Returns JSON { files: [{ path, version, updatedAt, chars }], count } with at most ${MAX_LIST_ENTRIES} files.`,
    parameters: objectSchema({
      prefix: { type: 'string', maxLength: 1000, description: 'Optional folder or name prefix relative to workspace/' },
    }),
    async invoke(args, ctx) {
      const prefix = workspacePrefix(optionalStr(args, 'prefix'));
      const docs = await deps.documents.list(ctx.principal, 'PROJECT', await projectNameOf(deps.identity, ctx), prefix);
      const files = docs.slice(0, MAX_LIST_ENTRIES).map((d) => ({
        path: relativeOf(d.path), version: d.version, updatedAt: d.updatedAt?.toISOString() ?? null, chars: d.content.length,
      }));
      return json({ files, count: docs.length, ...(docs.length > files.length ? { truncated: true } : {}) });
    },
  };

  const write: BuiltinTool = {
    name: 'workspace_write',
    labels: ['write', 'workspace'],
    description:
      'Create or overwrite a text file in the project workspace. The path is relative to the workspace, e.g. ' +
      '"reports/findings.md"; folders need not exist. Returns the path and the new version. Overwriting replaces the whole file.',
    parameters: objectSchema({
      path: PATH,
      content: { type: 'string', maxLength: MAX_WRITE_CHARS, description: 'The complete new file text' },
    }, ['path', 'content']),
    async invoke(args, ctx) {
      const path = workspaceDocumentPath(str(args, 'path'));
      const doc = await deps.documents.put(ctx.principal, 'PROJECT', await projectNameOf(deps.identity, ctx), path, str(args, 'content'));
      return json({ written: relativeOf(doc.path), version: doc.version });
    },
  };

  const remove: BuiltinTool = {
    name: 'workspace_delete',
    labels: ['write', 'destructive', 'workspace'],
    description:
      'Delete a file from the project workspace (path relative to the workspace). The deletion is kept in the document ' +
      'history, but the file is gone for everyone. A missing file is an error.',
    parameters: objectSchema({ path: PATH }, ['path']),
    async invoke(args, ctx) {
      const path = workspaceDocumentPath(str(args, 'path'));
      const deleted = await deps.documents.delete(ctx.principal, 'PROJECT', await projectNameOf(deps.identity, ctx), path);
      if (!deleted) return refuse(`No workspace file '${relativeOf(path)}'.`);
      return json({ deleted: relativeOf(path) });
    },
  };

  return [read, list, write, remove];
}
