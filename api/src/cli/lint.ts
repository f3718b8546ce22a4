import { readFile } from 'node:fs/promises';
import type { Diagnostic } from '../domain/errors';
import type { DocumentValidator } from '../domain/documents/document-validator';
import { findDocuments, type FoundDocument, type UnreadableRoot } from './find-documents';

export interface LintedFile {
  /** The file as the command line named it (the root as given, then the path below it). */
  readonly file: string;
  readonly kind: FoundDocument['kind'];
  readonly name: string;
  readonly diagnostics: readonly Diagnostic[];
}

export interface LintReport {
  readonly files: readonly LintedFile[];
  /** Command-line paths that could not be read; each counts as one error. */
  readonly unreadable: readonly UnreadableRoot[];
  readonly errors: number;
  readonly warnings: number;
}

/** Loads every skill and recipe under `roots` through the validator `putDocument` uses. */
export async function lint(roots: readonly string[], validator: DocumentValidator): Promise<LintReport> {
  const files: LintedFile[] = [];
  const { found, unreadable } = await findDocuments(roots);
  for (const doc of found) {
    const content = await readFile(doc.file, 'utf8');
    files.push({ file: doc.shown, kind: doc.kind, name: doc.name, diagnostics: validator.validate(doc.documentPath, content) });
  }
  const all = files.flatMap((f) => f.diagnostics);
  return {
    files,
    unreadable,
    errors: unreadable.length + all.filter((d) => d.severity === 'ERROR').length,
    warnings: all.filter((d) => d.severity === 'WARNING').length,
  };
}

/**
 * `file:line:col severity message (field)`, the shape editors and CI annotators understand. A
 * warning said the same way in several files (a recipe pack written for another deployment) is
 * printed once, with `[n files]` and the other places indented below it, each as `file:line:col`.
 */
export function formatText(report: LintReport): string {
  const lines: string[] = report.unreadable.map((u) => `${u.root}: error ${u.problem}`);
  const places = repeatedWarnings(report);
  for (const file of report.files) {
    for (const d of file.diagnostics) {
      const at = `${file.file}:${d.line ?? 1}:${d.column ?? 1}`;
      const line = `${at} ${d.severity.toLowerCase()} ${d.message}${d.field ? ` (${d.field})` : ''}`;
      const repeated = d.severity === 'WARNING' ? places.get(keyOf(d)) : undefined;
      if (!repeated) {
        lines.push(line);
      } else if (repeated[0] === at) {
        lines.push(`${line} [${new Set(repeated.map(fileOf)).size} files]`, ...repeated.slice(1).map((place) => `  ${place}`));
      }
    }
  }
  const skills = report.files.filter((f) => f.kind === 'skill').length;
  const recipes = report.files.filter((f) => f.kind === 'recipe').length;
  const prompts = report.files.filter((f) => f.kind === 'engine-prompt').length;
  const tools = report.files.filter((f) => f.kind === 'tool').length;
  const packs = report.files.filter((f) => f.kind === 'mcp-pack').length;
  const evals = report.files.filter((f) => f.kind === 'skill-evals').length;
  const kinds = `${skills} skills, ${recipes} recipes${prompts > 0 ? `, ${prompts} engine prompts` : ''}${tools > 0 ? `, ${tools} tools` : ''}${packs > 0 ? `, ${packs} MCP packs` : ''}${evals > 0 ? `, ${evals} skill evals` : ''}`;
  lines.push(`${report.files.length} files (${kinds}): ${report.errors} errors, ${report.warnings} warnings`);
  return lines.join('\n');
}

export function formatJson(report: LintReport): string {
  return JSON.stringify(report, null, 2);
}

const keyOf = (d: Diagnostic) => `${d.message}\u0000${d.field ?? ''}`;
const fileOf = (place: string) => place.replace(/:\d+:\d+$/, '');

/** Warnings whose message and field occur in more than one file: their places (`file:line:col`) in order. */
function repeatedWarnings(report: LintReport): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const file of report.files) {
    for (const d of file.diagnostics) {
      if (d.severity !== 'WARNING') continue;
      const list = places.get(keyOf(d)) ?? [];
      list.push(`${file.file}:${d.line ?? 1}:${d.column ?? 1}`);
      places.set(keyOf(d), list);
    }
  }
  for (const [key, list] of places) if (new Set(list.map(fileOf)).size < 2) places.delete(key);
  return places;
}
