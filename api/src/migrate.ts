import 'reflect-metadata';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { migrate } from './persistence';

/** `npm run migrate`: apply pending migrations to the configured database, then exit. */
const config = loadConfig();
const logger = createLogger(config.logLevel);
migrate({ databaseUrl: config.databaseUrl ?? undefined, schema: config.databaseSchema ?? undefined, dataDir: config.dataDir, logger }).then(
  () => logger.info('migrations are up to date'),
  (err: unknown) => {
    logger.error({ err }, 'migration failed');
    process.exit(1);
  },
);
