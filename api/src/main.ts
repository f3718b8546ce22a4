import 'reflect-metadata';
import { startVance } from './app';
import { loadConfig } from './config';
import { createLogger } from './logger';

/** `npm start`: read the config, start, and shut down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const vance = await startVance({ config, logger });
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    vance.close().then(
      () => { clearTimeout(force); process.exit(0); },
      (err: unknown) => { logger.error({ err }, 'shutdown failed'); process.exit(1); },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('Vance failed to start:', err);
  process.exit(1);
});
