import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../domain/errors';
import type { DocumentValidator } from '../domain/documents/document-validator';
import { findDocuments, type FoundDocument } from './find-documents';

export interface LintedFile {
  readonly file: string;
  readonly kind: FoundDocument['kind'];
  readonly name: string;
  readonly diagnostics: readonly Diagnostic[];
}

export interface LintReport {
  readonly files: readonly LintedFile[];
  readonly errors: number;
  readonly warnings: number;
}

/** Loads every skill and recipe under `roots` through the validator `putDocument` uses. */
export async function lint(roots: readonly string[], validator: DocumentValidator): Promise<LintReport> {
  const files: LintedFile[] = [];
  for (const doc of await findDocuments(roots)) {
    const content = await readFile(doc.file, 'utf8');
    files.push({ file: doc.file, kind: doc.kind, name: doc.name, diagnostics: validator.validate(doc.documentPath, content) });
  }
  const all = files.flatMap((f) => f.diagnostics);
  return { files, errors: all.filter((d) => d.severity === 'ERROR').length, warnings: all.filter((d) => d.severity === 'WARNING').length };
}

/** `file:line:col severity message (field)`, the shape editors and CI annotators understand. */
export function formatText(report: LintReport, cwd = process.cwd()): string {
  const lines: string[] = [];
  for (const file of report.files) {
    const shown = path.relative(cwd, file.file) || file.file;
    for (const d of file.diagnostics) {
      const field = d.field ? ` (${d.field})` : '';
      lines.push(`${shown}:${d.line ?? 1}:${d.column ?? 1} ${d.severity.toLowerCase()} ${d.message}${field}`);
    }
  }
  const skills = report.files.filter((f) => f.kind === 'skill').length;
  const recipes = report.files.filter((f) => f.kind === 'recipe').length;
  lines.push(`${report.files.length} files (${skills} skills, ${recipes} recipes): ${report.errors} errors, ${report.warnings} warnings`);
  return lines.join('\n');
}

export function formatJson(report: LintReport): string {
  return JSON.stringify(report, null, 2);
}
