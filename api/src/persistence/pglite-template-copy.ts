/**
 * Copies a packaged template cluster (pglite-template.ts) into a data directory. Its own file, free
 * of the migrations that name a template, because it runs on the PGlite thread (pglite-thread.ts):
 * there the ~1,000 small files are written while the server's thread loads its modules.
 */
import fs from 'node:fs';
import path from 'node:path';

/** PGlite takes a directory holding PG_VERSION for a complete cluster (and runs initdb otherwise). */
export const MARKER = 'PG_VERSION';
/** The data-dir lock (data-dir-lock.ts): never part of a template. */
const LOCK_FILE = 'vance.lock';

/** PG_VERSION is copied last, so a copy cut short (a crash) leaves no marker and is simply copied again at the next start. */
export function copyTemplate(template: string, dataDir: string): void {
  for (const entry of fs.readdirSync(template)) {
    if (entry === MARKER || entry === LOCK_FILE) continue;
    fs.cpSync(path.join(template, entry), path.join(dataDir, entry), { recursive: true, force: true });
  }
  fs.copyFileSync(path.join(template, MARKER), path.join(dataDir, MARKER));
}
