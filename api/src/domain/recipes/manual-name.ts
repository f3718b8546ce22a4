/**
 * The name a model passes to `manual_read`: `git`, `git.md`, a path below a manual folder
 * (`essay/STYLE.md`) or the full document path (`_vance/manuals/essay/STYLE.md`), with `/` or `\`.
 * Names that climb out (`..`), are absolute or blank are invalid — a different answer from "no such
 * manual", so the model fixes the argument instead of guessing other names.
 */
import { normalizeDocumentPath } from '../cascade/document-path';
import { InvalidDocumentPathError } from '../cascade/errors';

export const MANUAL_EXTENSION = '.md';

export type ParsedManualName =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string };

/** The canonical relative path with `.md`, or why the name is invalid. */
export function parseManualName(raw: string): ParsedManualName {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: false, reason: 'the name is blank' };
  const slashed = trimmed.replace(/\\/g, '/');
  if (slashed.startsWith('/')) return { ok: false, reason: 'absolute paths are not allowed; give the name from manual_list or a path below a manual folder' };
  if (/^[a-zA-Z]:/.test(slashed)) return { ok: false, reason: 'drive letters are not allowed; give the name from manual_list or a path below a manual folder' };
  if (slashed.split('/').includes('..')) return { ok: false, reason: "'..' segments are not allowed; manuals are read only from the manual folders" };
  if (slashed.split('/').every((s) => s === '' || s === '.')) return { ok: false, reason: 'the name is blank' };
  let path: string;
  try {
    path = normalizeDocumentPath(slashed);
  } catch (error) {
    if (!(error instanceof InvalidDocumentPathError)) throw error;
    return { ok: false, reason: error.message.replace(/^Invalid document path '.*?': /s, '') };
  }
  return { ok: true, path: path.toLowerCase().endsWith(MANUAL_EXTENSION) ? path : `${path}${MANUAL_EXTENSION}` };
}

/**
 * Where `path` may live, in the order to try: the full document path when it lies in a folder, then
 * `<folder><path>` per folder in path order (first hit per name, as the listing), then a path whose
 * leading folders repeat the end of a folder (`essay/STYLE.md` in `_vance/manuals/essay/`).
 * Every candidate lies inside a folder, so no form reaches another document.
 */
export function manualCandidates(folders: readonly string[], path: string): { folder: string; path: string }[] {
  const out: { folder: string; path: string }[] = [];
  const add = (folder: string, candidate: string) => {
    if (!out.some((c) => c.path === candidate)) out.push({ folder, path: candidate });
  };
  for (const folder of folders) if (path.startsWith(folder) && path.length > folder.length) add(folder, path);
  for (const folder of folders) add(folder, `${folder}${path}`);
  const segments = path.split('/');
  for (const folder of folders) {
    for (let k = segments.length - 1; k >= 1; k -= 1) {
      const head = `${segments.slice(0, k).join('/')}/`;
      if (folder === head || folder.endsWith(`/${head}`)) add(folder, `${folder}${segments.slice(k).join('/')}`);
    }
  }
  return out;
}
