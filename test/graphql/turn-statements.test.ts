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
 * TurnFinished, counted as the statements TypeORM sends, exactly. Issue 13: 35 (7 reads of the process, 4 of
 * the owner's identity, a transaction per turn request, one INSERT per event); before issue 18: 12
 * (TurnStarted, the reply, its text and TurnFinished each a statement of their own); then 9; then 7 (the
 * lane's read of the process is beginTurn's, and a reply that ran no tool does not read it again); then 4
 * (sendMessage writes without reading the process first; the session's client tools and the chat log
 * come with beginTurn); now 3 (TurnStarted and the composition's events wait for the turn's next
 * write, here the end). The lane
 * lease's statements (PostgreSQL) are the lane's, not the turn's, and are left out; the bus's own
 * NOTIFYs go through its own pool and are not seen here.
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
    // The identity cache outlives the test however slow the machine (what is measured is a warm turn),
    // and so does the composition events' wait for the turn's next write (their own deadline write is the sink's test).
    vance = await startVance({
      config, logger: pino({ level: 'silent' }), database, runTurns: true, identityCacheTtlMs: 600_000, heldEventsMaxDelayMs: 600_000,
      modelProvider: new OfflineProvider({ chunkDelayMs: 0 }),
    });
    const { services } = vance;
    admin = await services.identity.authenticate(ADMIN_TOKEN);
    // One tool: the offline answer (which lists the tools) stays under one TextDelta batch of 200 characters.
    const others = services.tools.list().map((t) => t.name).filter((n) => n !== 'whoami');
    await services.documents.put(admin, 'VANCE', null, '_vance/recipes/quick.yaml',
      `description: Quick\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\nallowedToolsRemove: [${others.join(', ')}]\n`);
    await services.identity.createProject(admin, 'stmts', 'NORMAL');
    processId = (await services.processes.spawn(admin, { project: 'stmts', recipe: 'quick', name: 'w' })).id;
  });
  afterAll(async () => {
    await vance?.close();
    await database?.close();
  });

  /** The types of the last turn's events, as they came live. */
  let seen: string[] = [];
  const turn = async (text: string): Promise<string> => {
    seen = [];
    const ended = new Promise<string>((resolve) => {
      const off = vance.services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
        if (e.processId === processId) seen.push(e.type);
        if (e.processId === processId && (e.type === 'TurnFinished' || e.type === 'TurnFailed')) {
          off();
          resolve(e.type === 'TurnFailed' ? `${e.type} ${JSON.stringify(e.payload)}` : e.type);
        }
      });
    });
    await vance.services.activation.sendMessage(admin, processId, text);
    return ended;
  };

  /** What a statement is, by the table it reads or the turn-store statement it is. */
  const kind = (q: string): string => {
    if (q.startsWith('WITH fence AS')) return 'fence: SELECT events'; // appendEvents, fenced first
    const cte = /^WITH (\w+) AS \(\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT)\s+(\w+)/i.exec(q);
    if (cte) return `${cte[1]}: ${cte[2]!.toUpperCase()} ${cte[3]}`;
    const plain = /^(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b.*?\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?/i.exec(q);
    return plain ? `${plain[1]!.toUpperCase()} ${plain[2]}` : q.slice(0, 40);
  };

  it('sendMessage → TurnFinished: 3 statements, the chat log read with the turn, every event and the reply in 1 write', async () => {
    for (let i = 0; i < 2; i++) expect(await turn(`warm up ${i}`)).toBe('TurnFinished');
    const dataSource = database.dataSource;
    const logger = dataSource.logger;
    const logging = dataSource.options.logging;
    const counting: TypeOrmLogger = {
      // A named prepared statement (persistence/prepared.ts) comes as its pg query config.
      logQuery: (query: string | { text: string }) => void statements.push((typeof query === 'string' ? query : query.text).replace(/\s+/g, ' ').trim()),
      logQueryError: () => undefined, logQuerySlow: () => undefined, logSchemaBuild: () => undefined, logMigration: () => undefined, log: () => undefined,
    };
    Object.assign(dataSource, { logger: counting });
    Object.assign(dataSource.options, { logging: true });
    try {
      expect(await turn('hello there')).toBe('TurnFinished');
      await vance.services.turnRunner.idle();
    } finally {
      Object.assign(dataSource, { logger });
      Object.assign(dataSource.options, { logging });
    }
    const own = statements.filter((q) => !/^(INSERT INTO lane_leases|DELETE FROM lane_leases|WITH up AS \(UPDATE lane_leases)/.test(q));
    expect(own.map(kind), own.join('\n')).toEqual([
      // sendMessage: the message, the turn request and their events, only into the owner's IDLE process (no read before)
      'guard: SELECT id',
      'proc: SELECT id', // beginTurn: the process, its session's client tools and the chat log read, the inbox taken into a RUNNING turn, the input logged
      // (no read of the process after a reply that ran no tool and has no guards: it is the one read at the start)
      'done: UPDATE turns', // TurnStarted, SkillVerdicts, PromptComposed, the reply, its TextDelta, the final state and TurnFinished
    ]);
    expect(seen).toEqual(['TurnStarted', 'SkillVerdicts', 'PromptComposed', 'TextDelta', 'TurnFinished']);
  });
});
