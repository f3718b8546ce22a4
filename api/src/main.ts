import './main-compile-cache'; // first: the modules below load through the code cache
import { loadLateModules } from './bundle-files';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './persistence/data-dir-lock';
import type { PgliteDriver } from './persistence/pglite-pool';
import { startPglite, type StartedPglite } from './persistence/pglite-start';
import { DEFAULT_TEMPLATE_ROOT } from './persistence/pglite-template';
import { checkDatabaseReachable, checkPortFree, lockEmbeddedDataDir, StartError } from './preflight';
import { loadIsolatedVm, SandboxUnavailableError } from './sandbox/isolated-vm';
import { ShutdownOnSignal } from './shutdown-on-signal';

/**
 * `npm start`: read the config, check what the user can get wrong (preflight.ts), start, and shut
 * down gracefully on SIGTERM/SIGINT. The embedded database starts opening on its own thread before
 * the rest of Vance is loaded, so the two overlap (issue 18: the start's time): this module imports
 * only what the checks and that thread need; pg, pino, TypeORM and the rest are required after it
 * (late-modules.ts; from one bundled file after `npm run build`).
 */
async function main(): Promise<void> {
  // Listened to before anything is opened: a signal during the start closes it cleanly (shutdown-on-signal.ts).
  const shutdown = new ShutdownOnSignal().listen();
  const config = loadConfig();
  loadIsolatedVm(); // without a sandbox build for this Node, Vance cannot run safely
  await checkPortFree(config.host, config.port);
  let started: StartedPglite | undefined;
  let embedded: Promise<PgliteDriver> | undefined;
  if (config.databaseUrl) {
    await checkDatabaseReachable(config.databaseUrl);
  } else {
    lockEmbeddedDataDir(config.dataDir);
    started = startPglite({ dataDir: config.dataDir, templateRoot: DEFAULT_TEMPLATE_ROOT });
  }
  // Loaded only now (a second or more of modules), while PGlite's thread starts.
  const { startVance, createLogger, openPglite } = loadLateModules();
  if (started) {
    embedded = openPglite({ started });
    embedded.catch(() => {}); // reported by startVance, which awaits it
  }
  const logger = createLogger(config.logLevel);
  shutdown.logTo((message, signal) => logger.info({ signal }, message));
  // From the lock on, nothing above awaited: a signal can only arrive once the start is registered.
  await shutdown.starting(startVance({ config, logger, embedded }));
}

/** Errors the user can fix: one line that says what to do, no stack trace. */
function isUserError(err: unknown): err is Error {
  return err instanceof ConfigError || err instanceof StartError || err instanceof DataDirInUseError || err instanceof SandboxUnavailableError;
}

main().catch((err: unknown) => {
  if (isUserError(err)) console.error(`Vance failed to start: ${err.message.replace(/\s*\n\s*/g, ' ')}`);
  else console.error('Vance failed to start:', err);
  process.exit(1);
});
