import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { startVance, type RunningVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { OfflineProvider } from '../../api/src/llm/offline-provider';
import type { Principal } from '../../api/src/domain/identity/principal';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { ADMIN_TOKEN } from './harness';

/**
 * What a warm turn costs the database (issue 13's turn rows, issue 18 item 1): sendMessage through
 * TurnFinished, counted as the statements TypeORM sends. Before: 35 (7 reads of the process, 4 of the
 * owner's identity, a transaction per turn request, one INSERT per event). Lane-lock and bus
 * statements of PostgreSQL are not the turn's own and are left out.
 */
describe.each(testDatabases())('statements of a warm turn ($name)', (driver) => {
  let database: Database;
  let vance: RunningVance;
  let admin: Principal;
  let processId: string;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await driver.open();
    // No requested-turn sweep: its query would be counted with the turn's.
    const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', VANCE_TURN_SWEEP_MS: '3600000' });
    // The identity cache outlives the test however slow the machine (what is measured is a warm turn).
    vance = await startVance({ config, logger: pino({ level: 'silent' }), database, runTurns: true, identityCacheTtlMs: 600_000, modelProvider: new OfflineProvider({ chunkDelayMs: 0 }) });
    const { services } = vance;
    admin = await services.identity.authenticate(ADMIN_TOKEN);
    await services.documents.put(admin, 'VANCE', null, '_vance/recipes/quick.yaml', 'description: Quick\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\n');
    await services.identity.createProject(admin, 'stmts', 'NORMAL');
    processId = (await services.processes.spawn(admin, { project: 'stmts', recipe: 'quick', name: 'w' })).id;
  });
  afterAll(async () => {
    await vance?.close();
    await database?.close();
  });

  const turn = async (text: string): Promise<string> => {
    const ended = new Promise<string>((resolve) => {
      const off = vance.services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
        if (e.processId === processId && (e.type === 'TurnFinished' || e.type === 'TurnFailed')) {
          off();
          resolve(e.type);
        }
      });
    });
    await vance.services.activation.sendMessage(admin, processId, text);
    return ended;
  };

  it('sendMessage → TurnFinished sends at most 16 statements, none of them an identity read', async () => {
    for (let i = 0; i < 2; i++) expect(await turn(`warm up ${i}`)).toBe('TurnFinished');
    const dataSource = database.dataSource;
    const logger = dataSource.logger;
    const logging = dataSource.options.logging;
    const counting: TypeOrmLogger = {
      logQuery: (query) => void statements.push(query.replace(/\s+/g, ' ')),
      logQueryError: () => undefined, logQuerySlow: () => undefined, logSchemaBuild: () => undefined, logMigration: () => undefined, log: () => undefined,
    };
    Object.assign(dataSource, { logger: counting });
    Object.assign(dataSource.options, { logging: true });
    try {
      expect(await turn('hello there')).toBe('TurnFinished');
    } finally {
      Object.assign(dataSource, { logger });
      Object.assign(dataSource.options, { logging });
    }
    const own = statements.filter((q) => !/pg_(try_)?advisory|pg_notify|^(LISTEN|UNLISTEN)\b|^(INSERT INTO|DELETE FROM) lane_leases|^WITH up AS \(UPDATE lane_leases/i.test(q));
    expect(own.length, own.join('\n')).toBeGreaterThan(5);
    expect(own.length, own.join('\n')).toBeLessThanOrEqual(16);
    expect(own.filter((q) => /FROM "?(users|tenants|projects|api_tokens)"?/i.test(q)), 'identity reads').toEqual([]);
    expect(own.filter((q) => /^(START TRANSACTION|BEGIN)/i.test(q)), 'transactions').toEqual([]);
  });
});
