import './main-compile-cache'; // first: the modules below load through the code cache
import type * as App from './app';
import { ConfigError, loadConfig } from './config';
import type * as Logging from './logger';
import { DataDirInUseError } from './persistence/data-dir-lock';
import type * as Pool from './persistence/pglite-pool';
import type { PgliteDriver } from './persistence/pglite-pool';
import { startPglite } from './persistence/pglite-start';
import { DEFAULT_TEMPLATE_ROOT } from './persistence/pglite-template';
import { checkDatabaseReachable, checkPortFree, lockEmbeddedDataDir, StartError } from './preflight';
import { loadIsolatedVm, SandboxUnavailableError } from './sandbox/isolated-vm';

/**
 * `npm start`: read the config, check what the user can get wrong (preflight.ts), start, and shut
 * down gracefully on SIGTERM/SIGINT. The embedded database starts opening on its own thread before
 * the rest of Vance is loaded, so the two overlap (issue 18: the start's time): this module imports
 * only what the checks and that thread need; pg, pino, TypeORM and the rest are required after it.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  loadIsolatedVm(); // without a sandbox build for this Node, Vance cannot run safely
  await checkPortFree(config.host, config.port);
  let embedded: Promise<PgliteDriver> | undefined;
  if (config.databaseUrl) {
    await checkDatabaseReachable(config.databaseUrl);
  } else {
    lockEmbeddedDataDir(config.dataDir);
    const started = startPglite({ dataDir: config.dataDir, templateRoot: DEFAULT_TEMPLATE_ROOT });
    // pg and PGlite's pg connection load while the thread boots.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    embedded = (require('./persistence/pglite-pool') as typeof Pool).openPglite({ started });
    embedded.catch(() => {}); // reported by startVance, which awaits it
  }
  // Loaded only now (a second or more of modules), while PGlite's thread starts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startVance } = require('./app') as typeof App;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const logger = (require('./logger') as typeof Logging).createLogger(config.logLevel);
  const vance = await startVance({ config, logger, embedded });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return; // a second signal while draining changes nothing; the 10 s cap still applies
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    vance.close().then(
      () => { clearTimeout(force); process.exit(0); },
      (err: unknown) => { logger.error({ err }, 'shutdown failed'); process.exit(1); },
    );
  };
  // `on`, not `once`: loaders such as tsx re-raise a signal that no listener is left for.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
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
