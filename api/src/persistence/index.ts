/** The persistence adapters main.ts wires into the domain ports. */
export { openDatabase, migrate, type Database, type DatabaseLogger, type OpenDatabaseOptions } from './data-source';
export { TypeOrmDocumentStore } from './typeorm-document-store';
export { TypeOrmIdentityStore } from './typeorm-identity-store';
export { TypeOrmSettingsStore } from './typeorm-settings-store';
export { PgEventBus, EventPayloadTooLargeError, channelName, type PgEventBusOptions } from './pg-event-bus';
export { TypeOrmProcessStore } from './typeorm-process-store';
export { PgLaneLock, laneLockFor, LANE_LOCK_NAMESPACE, type PgLaneLockOptions } from './pg-lane-lock';
export { TypeOrmTurnStore } from './typeorm-turn-store';
export { TypeOrmClientToolStore } from './typeorm-client-tool-store';
