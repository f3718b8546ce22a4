/**
 * What main.ts loads after PGlite's thread has started (issue 18: the start's time): the rest of
 * Vance. It is the entry of the bundled server (build-bundle.ts); main.ts and what it needs before
 * the thread starts stay tsc's own files, so the thread does not wait for the bundle to compile.
 */
export { startVance } from './app';
export { createLogger } from './logger';
export { openPglite } from './persistence/pglite-pool';
