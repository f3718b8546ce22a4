import 'reflect-metadata';
import { startVance } from './app';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { SandboxUnavailableError } from './sandbox/isolated-vm';

/** `npm start`: read the config, start, and shut down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const vance = await startVance({ config, logger });
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

main().catch((err: unknown) => {
  // A missing sandbox build is the user's install, not a bug: its message says what to do, no stack.
  if (err instanceof SandboxUnavailableError) console.error(`Vance failed to start: ${err.message}`);
  else console.error('Vance failed to start:', err);
  process.exit(1);
});
