/**
 * Manuals (seed 004 §6b): `manual_list` / `manual_read` read the folders of `params.manualPaths`
 * through the cascade (project → _tenant → bundled per folder), merge the folders in path order and
 * keep the first hit per `<name>` (the file name without `.md`), so a specific folder listed first
 * overrides a general one. Only files directly in a folder count; `manuals/web/` is its own path.
 * Paths are sanitised: `\` → `/`, a leading `/` dropped, `..` refused (the entry is skipped and reported).
 * `manual_read` also reaches a file below a folder by its path (see manual-name.ts).
 */
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import type { DocumentCascade } from '../cascade/document-cascade';
import { normalizePathPrefix } from '../cascade/document-path';
import { InvalidDocumentPathError } from '../cascade/errors';
import { MANUAL_EXTENSION, manualCandidates, parseManualName } from './manual-name';

export interface ManualEntry {
  readonly name: string;
  readonly path: string;
  /** The sanitised manualPaths entry it was found under. */
  readonly folder: string;
  readonly source: Layer;
}

export interface Manual extends ManualEntry {
  readonly content: string;
  /** UTF-8 bytes of `content`. */
  readonly size: number;
}

export type ManualLookup =
  | { readonly kind: 'found'; readonly manual: Manual }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'missing' };

export interface SanitisedManualPaths {
  /** Folders with a trailing `/`, duplicates dropped, in the given order. */
  readonly folders: readonly string[];
  readonly rejected: readonly string[];
}

export function sanitiseManualPaths(paths: readonly unknown[]): SanitisedManualPaths {
  const folders: string[] = [];
  const rejected: string[] = [];
  for (const raw of paths) {
    if (typeof raw !== 'string') {
      rejected.push(String(raw));
      continue;
    }
    try {
      const prefix = normalizePathPrefix(raw.trim().replace(/\\/g, '/').replace(/^\/+/, ''));
      if (prefix === '') throw new InvalidDocumentPathError(raw, 'empty');
      const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
      if (!folders.includes(folder)) folders.push(folder);
    } catch (error) {
      if (!(error instanceof InvalidDocumentPathError)) throw error;
      rejected.push(raw);
    }
  }
  return { folders, rejected };
}

export class Manuals {
  constructor(private readonly cascade: DocumentCascade) {}

  /** First hit per name across the folders, in folder order, then by name within a folder. */
  async listManuals(scope: CascadeScope, manualPaths: readonly unknown[]): Promise<ManualEntry[]> {
    const { folders } = sanitiseManualPaths(manualPaths);
    const perFolder = await Promise.all(folders.map((folder) => this.cascade.listByPrefixCascade(scope, folder)));
    const seen = new Set<string>();
    const entries: ManualEntry[] = [];
    folders.forEach((folder, index) => {
      for (const hit of perFolder[index] ?? []) {
        const name = manualName(folder, hit.document.path);
        if (name === null || seen.has(name)) continue;
        seen.add(name);
        entries.push({ name, path: hit.document.path, folder, source: hit.source });
      }
    });
    return entries;
  }

  /** The first `<folder><name>.md` the cascade provides, walking the folders in order; null if none or invalid. */
  async readManual(scope: CascadeScope, manualPaths: readonly unknown[], rawName: string): Promise<Manual | null> {
    const lookup = await this.findManual(scope, manualPaths, rawName);
    return lookup.kind === 'found' ? lookup.manual : null;
  }

  /** Like readManual, but tells an invalid name (and why) from one that names no manual. */
  async findManual(scope: CascadeScope, manualPaths: readonly unknown[], rawName: string): Promise<ManualLookup> {
    const parsed = parseManualName(rawName);
    if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
    for (const candidate of manualCandidates(sanitiseManualPaths(manualPaths).folders, parsed.path)) {
      const hit = await this.cascade.lookupCascade(scope, candidate.path);
      if (!hit) continue;
      const name = hit.document.path.slice(candidate.folder.length, -MANUAL_EXTENSION.length);
      const content = hit.document.content;
      return {
        kind: 'found',
        manual: { name, path: hit.document.path, folder: candidate.folder, source: hit.source, content, size: new TextEncoder().encode(content).length },
      };
    }
    return { kind: 'missing' };
  }
}

function manualName(folder: string, path: string): string | null {
  const rest = path.slice(folder.length);
  if (rest.includes('/') || !rest.toLowerCase().endsWith(MANUAL_EXTENSION)) return null;
  const name = rest.slice(0, -MANUAL_EXTENSION.length);
  return name === '' ? null : name;
}
