/** The persistence adapters main.ts wires into the domain ports. */
export { openDatabase, migrate, type Database, type DatabaseLogger, type OpenDatabaseOptions } from './data-source';
export { TypeOrmDocumentStore } from './typeorm-document-store';
export { TypeOrmIdentityStore } from './typeorm-identity-store';
export { TypeOrmSettingsStore } from './typeorm-settings-store';
export { PgEventBus, EventPayloadTooLargeError, channelName, type PgEventBusOptions } from './pg-event-bus';
export { TypeOrmProcessStore } from './typeorm-process-store';
export { PgLeaseLock, laneLockFor, DEFAULT_LEASE_MS, type PgLeaseLockOptions } from './pg-lease-lock';
export { LeaseLostError, laneFence, fenceTokenFor } from './lane-fence';
export { TypeOrmTurnStore } from './typeorm-turn-store';
export { TypeOrmClientToolStore } from './typeorm-client-tool-store';
export { inProcessNotifier, type CommitNotifier } from './commit-notifier';
export { isConnectionLoss } from './connection-loss';
