/**
 * A migrated, empty PGlite cluster as a tar, built once and cached on disk, so every test file
 * starts its in-memory PGlite with `loadDataDir` (~0.7 s) instead of initdb + migrations (3–9 s,
 * ~700 MB peak). The cache file name is a hash of the migrations and the PGlite/TypeORM versions;
 * any change builds a new template. Writes go to a temp file and are renamed into place, so test
 * processes racing to build it each get a complete file (the last rename wins; both are valid).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDatabase } from '../../api/src/persistence';

const REPO_ROOT = path.resolve(__dirname, '../..');
const CACHE_DIR = path.join(REPO_ROOT, '.vance-test');
const FORMAT = 'v1';

let template: Promise<Blob> | undefined;

/** The template tar for this process (built or read once, then shared). */
export function pgliteTemplate(): Promise<Blob> {
  template ??= loadOrBuild();
  return template;
}

async function loadOrBuild(): Promise<Blob> {
  const file = path.join(CACHE_DIR, `pglite-${templateKey()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const db = await openDatabase({}); // in memory: initdb + every migration
  let blob: Blob;
  try {
    blob = await db.dumpDataDir!();
  } finally {
    await db.close();
  }
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (const old of fs.readdirSync(CACHE_DIR)) {
    if (/^pglite-.*\.tar$/.test(old) && old !== path.basename(file)) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(tmp, file);
  return blob;
}

/** Throws the cached template away (a template that failed to load is rebuilt by the next call). */
export function forgetPgliteTemplate(): void {
  template = undefined;
  if (fs.existsSync(CACHE_DIR)) {
    for (const f of fs.readdirSync(CACHE_DIR)) if (f.startsWith('pglite-')) fs.rmSync(path.join(CACHE_DIR, f), { force: true });
  }
}

function templateKey(): string {
  const hash = createHash('sha256').update(FORMAT);
  const migrationsDir = path.join(REPO_ROOT, 'migrations');
  for (const name of fs.readdirSync(migrationsDir).sort()) {
    hash.update(name).update(fs.readFileSync(path.join(migrationsDir, name)));
  }
  const require = createRequire(path.join(REPO_ROOT, 'api', 'package.json'));
  for (const pkg of ['@electric-sql/pglite', 'typeorm']) hash.update(packageVersion(require, pkg));
  return hash.digest('hex').slice(0, 16);
}

function packageVersion(require: NodeJS.Require, pkg: string): string {
  // Walk up from the resolved entry to the package's own package.json (its exports may hide it).
  for (let dir = path.dirname(require.resolve(pkg)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === pkg) return `${pkg}@${manifest.version}`;
  }
  return `${pkg}@unknown`;
}
