/**
 * The packaged template of an embedded data directory: a migrated, empty PGlite cluster made at
 * build time (`npm run build`, build-pglite-template.ts) and copied into a fresh data directory on
 * its first start, instead of initdb and every migration (6–11 s, and ~500 MB that PGlite's
 * WebAssembly memory keeps for the life of the process: issue 18). Templates live in folders named
 * by a key of the PGlite version and the migrations' code, so a template made for other migrations
 * is never used: without one that fits, the first start runs initdb as before.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from '../../../migrations';
import { copyTemplate, MARKER } from './pglite-template-copy';

/** Where `npm run build` puts the template: api/dist/pglite-template (from api/dist/api/src/persistence). */
export const DEFAULT_TEMPLATE_ROOT = path.resolve(__dirname, '../../../pglite-template');

const FORMAT = 'v1';

export function isInitialised(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, MARKER));
}

/** The template folder for this build: PGlite's version and each migration's name and code. */
export function templateDir(root: string): string {
  const hash = createHash('sha256').update(FORMAT).update(pgliteVersion());
  for (const migration of MIGRATIONS) {
    hash.update(migration.name).update(String(migration.prototype.up)).update(String(migration.prototype.down));
  }
  return path.join(root, hash.digest('hex').slice(0, 16));
}

/** The template to copy into `dataDir`: none when the directory holds a cluster already or no template fits these migrations. */
export function templateFor(dataDir: string, root: string): string | null {
  if (isInitialised(dataDir)) return null;
  const template = templateDir(root);
  return isInitialised(template) ? template : null;
}

/**
 * Copies the template into `dataDir` when the directory holds no cluster yet and a template for
 * these migrations exists; returns whether it did (pglite-template-copy.ts).
 */
export function seedFromTemplate(dataDir: string, root: string): boolean {
  const template = templateFor(dataDir, root);
  if (template) copyTemplate(template, dataDir);
  return template !== null;
}

function pgliteVersion(): string {
  // Walk up from the resolved entry to the package's own package.json (its exports hide it).
  for (let dir = path.dirname(require.resolve('@electric-sql/pglite')); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === '@electric-sql/pglite') return `${manifest.name}@${manifest.version}`;
  }
  return '@electric-sql/pglite@unknown';
}
