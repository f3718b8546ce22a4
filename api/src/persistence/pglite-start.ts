/**
 * Starts the embedded PGlite's thread on a data directory — mkdir, the directory's lock, the choice
 * of a packaged template — with nothing heavier loaded than the thread's own client (issue 18: the
 * start's time). main.ts calls it before it loads pg, pino and the rest of Vance, so the thread
 * boots WebAssembly and opens the cluster meanwhile; pglite-pool.ts then connects pg to it.
 */
import fs from 'node:fs';
import { lockDataDir } from './data-dir-lock';
import { isInitialised, templateFor } from './pglite-template';
import { RemotePglite } from './pglite-remote';

export interface PgliteOptions {
  /** File-backed data directory (created if missing); undefined or 'memory://' = in memory. */
  readonly dataDir?: string | undefined;
  /** Start from this `dumpDataDir()` tar instead of running initdb (only into an empty data dir). */
  readonly loadDataDir?: Blob | undefined;
  /** A fresh data directory starts as a copy of the packaged template under this root, when one fits (pglite-template.ts). */
  readonly templateRoot?: string | undefined;
}

/** A PGlite thread being started; its directory is locked until `unlock` (the pool's close calls it). */
export interface StartedPglite {
  /** Resolves when PGlite is ready; on a failure the lock is already released. */
  readonly ready: Promise<RemotePglite>;
  /** Whether this start runs initdb on a file-backed directory (openDatabase then reopens: see there). */
  readonly ranInitdb: boolean;
  readonly unlock: () => void;
}

/** Locks the directory and starts the thread; throws at once when the directory is locked or not writable. */
export function startPglite(options: PgliteOptions = {}): StartedPglite {
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? options.dataDir : undefined;
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const seedFrom = dataDir && !options.loadDataDir && options.templateRoot ? templateFor(dataDir, options.templateRoot) : null;
    const ranInitdb = dataDir !== undefined && !options.loadDataDir && !seedFrom && !isInitialised(dataDir);
    const ready = RemotePglite.open({ dataDir, loadDataDir: options.loadDataDir, ...(seedFrom ? { seedFrom } : {}) });
    ready.catch(() => unlock());
    return { ready, ranInitdb, unlock };
  } catch (err) {
    unlock();
    throw err;
  }
}
