import { InvalidDocumentPathError } from './errors';

/**
 * Document paths are relative, `/`-separated and canonical, so one document has one key:
 * `\` becomes `/`, `.` and empty segments collapse; absolute paths, `..`, control characters and
 * drive letters are rejected (never silently "fixed" into another location).
 */
const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;
const CONTROL_CHARS = /\p{Cc}/u;

/**
 * Paths normalized lately, by their raw text: every cascade lookup normalizes its path, mostly one
 * of a few (a skill's, a recipe's), and the checks cost more than the lookup (issue 18). Only valid
 * paths are kept; the map starts afresh when full.
 */
const NORMALIZED = new Map<string, string>();
const MAX_NORMALIZED = 1_024;

export function normalizeDocumentPath(raw: string): string {
  const known = NORMALIZED.get(raw);
  if (known !== undefined) return known;
  const path = normalizeSegments(raw, false);
  if (path === '') throw new InvalidDocumentPathError(raw, 'the path is empty');
  if (NORMALIZED.size >= MAX_NORMALIZED) NORMALIZED.clear();
  NORMALIZED.set(raw, path);
  return path;
}

/** A listing prefix: like a path, but may be empty ("everything") and keeps a trailing `/`. */
export function normalizePathPrefix(raw: string): string {
  if (raw === '') return '';
  const trailingSlash = /[\\/]$/.test(raw);
  const path = normalizeSegments(raw, true);
  return path !== '' && trailingSlash ? `${path}/` : path;
}

function normalizeSegments(raw: string, allowEmpty: boolean): string {
  if (typeof raw !== 'string') throw new InvalidDocumentPathError(String(raw), 'not a string');
  if (raw.length > MAX_PATH_LENGTH) throw new InvalidDocumentPathError(raw.slice(0, 64) + '…', `longer than ${MAX_PATH_LENGTH} characters`);
  if (CONTROL_CHARS.test(raw)) throw new InvalidDocumentPathError(raw, 'control characters are not allowed');
  const slashed = raw.replace(/\\/g, '/');
  if (slashed.startsWith('/')) throw new InvalidDocumentPathError(raw, 'absolute paths are not allowed');
  if (/^[a-zA-Z]:/.test(slashed)) throw new InvalidDocumentPathError(raw, 'drive letters are not allowed');
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw new InvalidDocumentPathError(raw, "'..' segments are not allowed");
    if (segment.length > MAX_SEGMENT_LENGTH) throw new InvalidDocumentPathError(raw, `a segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
    if (segment.trim() !== segment) throw new InvalidDocumentPathError(raw, 'segments may not start or end with whitespace');
    segments.push(segment);
  }
  if (segments.length === 0 && !allowEmpty) return '';
  return segments.join('/');
}
