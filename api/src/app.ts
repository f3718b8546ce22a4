import 'reflect-metadata';
import type { Logger } from 'pino';
import { loadResourceLayer } from './bundled';
import { REPO_ROOT, type VanceConfig } from './config';
import type { DocumentCacheOptions } from './domain/cascade';
import { InProcessEventBus } from './domain/events/in-process-event-bus';
import type { EventBus } from './domain/events/event-bus';
import { buildSchema } from './graphql/schema';
import { createGraphQLServer } from './graphql/server';
import { NunjucksTemplateEngine, type TemplateLimits } from './templates';
import { createDocumentValidator } from './validation/document-validators';
import { LARGE_DOCUMENT_MIN_CHARS, LARGE_JSON_MIN_CHARS, ValidationPool } from './validation/validation-pool';
import {
  inProcessNotifier, isConnectionLoss, laneLockFor, openDatabase, PgEventBus, TypeOrmDocumentStore, TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmSettingsStore, TypeOrmTurnStore, TypeOrmClientToolStore,
  type Database,
} from './persistence';
import { createServices, type Services } from './services';
import { FetchHttpToolCaller } from './server-tools/fetch-http-tool-caller';
import type { PgliteDriver } from './persistence/pglite-pool';
import { DEFAULT_TEMPLATE_ROOT } from './persistence/pglite-template';
import type { ModelProvider } from './domain/llm/model-provider';
import type { ServerTool } from './domain/tools/server-tool';
import { ProviderRegistry } from './llm/provider-registry';
import { ScriptSandbox } from './sandbox/script-sandbox';
import { loadIsolatedVm } from './sandbox/isolated-vm';
import { McpConnectionPool, McpPackSource, type McpPoolOptions } from './mcp-client';

export interface RunningVance {
  readonly url: string;
  readonly services: Services;
  readonly database: Database;
  /** The admin token generated on first start (null when configured or not first start). */
  readonly generatedAdminToken: string | null;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly config: VanceConfig;
  readonly logger: Logger;
  /** An already opened database (tests); otherwise opened from the config. */
  readonly database?: Database;
  /** Seconds identity lookups may be reused (tests set 0 to see writes of other instances at once). */
  readonly identityCacheTtlMs?: number;
  /** Benchmarks turn the document cache off to measure the naive path. */
  readonly documentCache?: DocumentCacheOptions;
  /** The model provider turns call (default: the provider registry; offline when nothing is configured). */
  readonly modelProvider?: ModelProvider;
  /** Server tools registered beside the built-in ones (tests). */
  readonly extraTools?: readonly ServerTool[];
  /** How long a turn's composition events may wait for its next write (ms, default 50; a test counting statements lifts it). */
  readonly heldEventsMaxDelayMs?: number;
  /** false: scheduled turns are not run (tests that inspect the inbox); default true. */
  readonly runTurns?: boolean;
  /**
   * Overrides of the template limits (default DEFAULT_TEMPLATE_LIMITS). Tests that are not about the
   * render time cap lift its wall-clock limits, so a busy machine cannot cut an ordinary prompt.
   */
  readonly templateLimits?: Partial<TemplateLimits>;
  /** The embedded database's driver, already being opened (main.ts); otherwise opened from the config. */
  readonly embedded?: Promise<PgliteDriver>;
  /** The MCP pack connection pool's limits (tests shorten the idle time). */
  readonly mcpPool?: McpPoolOptions;
}

/**
 * The composition root: config → database → adapters → services → HTTP/WS server. Returns a handle
 * whose close() shuts down in reverse order (server drain, bus, database).
 */
export async function startVance(options: StartOptions): Promise<RunningVance> {
  const { config, logger } = options;
  // First, before anything is opened: without a sandbox build for this Node, Vance cannot run safely.
  const sandbox = loadIsolatedVm();
  logger.debug({ isolatedVm: `${sandbox.packageName} (isolated-vm ${sandbox.version})`, node: process.version }, 'sandbox loaded');
  // The database opens (PGlite on its thread, then the migrations check) while this thread does what
  // needs no database: the bundled layer, the template isolate and the GraphQL schema (issue 18).
  const opening = options.database ? Promise.resolve(options.database) : openDatabase({
    databaseUrl: config.databaseUrl ?? undefined, schema: config.databaseSchema ?? undefined, dataDir: config.dataDir, logger,
    templateRoot: DEFAULT_TEMPLATE_ROOT, embedded: options.embedded,
  });
  opening.catch(() => {}); // awaited below
  const templates = new NunjucksTemplateEngine(options.templateLimits ? { limits: options.templateLimits } : {});
  let resources: Awaited<ReturnType<typeof loadResourceLayer>>;
  let schema: ReturnType<typeof buildSchema>;
  let database: Database;
  try {
    resources = await loadResourceLayer(config.defaultsDir);
    // The template isolate boots now, not inside the first turn (a synchronous ~30 ms that every request would wait behind).
    templates.warmUp();
    schema = buildSchema(REPO_ROOT);
    database = await opening;
  } catch (err) {
    templates.dispose();
    // A database that did open is closed again; one that failed was closed by openDatabase.
    if (!options.database) await opening.then((db) => db.close(), () => {});
    throw err;
  }
  const bus: EventBus = database.driver === 'postgres' && database.connectionString
    ? await PgEventBus.connect(database.connectionString, database.schema, { logger: logger.child({ component: 'event-bus' }) })
    : new InProcessEventBus();
  // Events are announced by the statements that store them (issue 14); this instance hears them after the commit.
  const notifier = bus instanceof PgEventBus ? bus : inProcessNotifier(bus as InProcessEventBus, (err) => logger.warn({ err }, 'an event subscriber failed'));
  const regexCheck = { timeoutMs: config.regexCheckTimeoutMs, budgetMsPerMinute: config.regexCheckBudgetMs };
  const validation = new ValidationPool({
    validator: createDocumentValidator(),
    workerData: { templateLimits: templates.limits, regexCheck },
    // The catalog the turns use (services.ts), read when a document is validated, after services exist.
    tools: { list: () => services.tools.list() },
    timeoutMs: config.validationTimeoutMs,
    ...(config.validationThreads > 0 ? { threads: config.validationThreads } : {}),
    onWorkerError: (err) => logger.error({ err }, 'a validation worker failed'),
  });
  // MCP tool packs (issue 19): the pool is a few maps; the SDK loads with the first pack a turn meets.
  const mcpPool = new McpConnectionPool(options.mcpPool);
  const scriptRunner = new ScriptSandbox({ memoryLimitMb: config.scriptMemoryMb, defaultTimeoutMs: config.scriptTimeoutMs, maxHostCalls: config.scriptMaxHostCalls });
  const services = createServices({
    scriptRunner,
    // MCP tool packs (issue 19): read through the services' cascade and settings once they exist.
    toolSources: [new McpPackSource({
      cascade: { listByPrefixCascade: (scope, prefix) => services.cascade.listByPrefixCascade(scope, prefix) },
      settings: (tenantId, projectId) => services.settings.reader(tenantId, projectId),
      pool: mcpPool,
    })],
    clientToolStore: new TypeOrmClientToolStore(database.dataSource),
    clientToolTimeoutMs: config.clientToolTimeoutMs,
    turnSlots: config.turnSlots,
    scriptCpuTimeoutMs: config.scriptTimeoutMs,
    identityStore: new TypeOrmIdentityStore(database.dataSource),
    documentStore: new TypeOrmDocumentStore(database.dataSource, notifier),
    settingsStore: new TypeOrmSettingsStore(database.dataSource),
    processStore: new TypeOrmProcessStore(database.dataSource, notifier),
    laneLock: laneLockFor(database, { leaseMs: config.laneLeaseMs }),
    turnStore: new TypeOrmTurnStore(database.dataSource, notifier),
    turnRetry: config.turnRetry,
    isTransientError: isConnectionLoss,
    ...(options.heldEventsMaxDelayMs !== undefined ? { heldEventsMaxDelayMs: options.heldEventsMaxDelayMs } : {}),
    // Call warnings (an unsupported setting, a key withheld from an inner layer's endpoint) go to the log.
    modelProvider: options.modelProvider ?? new ProviderRegistry({
      aiSdk: { onWarnings: (provider, model, warnings) => logger.warn({ provider, model, warnings }, `model call warnings (${provider})`) },
    }),
    ...(options.extraTools ? { extraTools: options.extraTools } : {}),
    httpToolCaller: new FetchHttpToolCaller({ privateNetwork: config.toolHttpPrivateNetwork }),
    onTurnError: (err, context) => logger.error({ err }, `turn error: ${context}`),
    defaultSettings: config.defaultSettings,
    templates,
    documentChecker: validation,
    largeDocuments: { skills: validation.skillParser(LARGE_DOCUMENT_MIN_CHARS), recipes: validation.recipeParser(LARGE_DOCUMENT_MIN_CHARS) },
    recipeAudit: (entry) => logger.info({ audit: 'recipe-override', ...entry }, `recipe '${entry.recipe ?? entry.engine}' override applied`),
    bus,
    resources,
    maxDocumentBytes: config.maxDocumentBytes,
    ...(options.identityCacheTtlMs !== undefined ? { identityCacheTtlMs: options.identityCacheTtlMs } : {}),
    ...(options.documentCache ? { documentCache: options.documentCache } : {}),
  });
  const server = await createGraphQLServer({
    schema,
    services,
    logger,
    maxRequestBytes: config.maxRequestBytes,
    maxAnonymousRequestBytes: config.maxAnonymousRequestBytes,
    largeJson: validation.jsonParser(LARGE_JSON_MIN_CHARS),
    operationLimits: config.operationLimits,
    introspection: config.introspection,
    budgets: config.budgets,
    devErrors: config.devErrors,
    healthCheck: async () => void (await database.dataSource.query('SELECT 1')),
    mcp: config.mcp,
  });
  // Bind the port before bootstrapping, so a busy port cannot swallow the one-time admin token.
  const url = await server.listen(config.port, config.host);
  const { generatedToken } = await services.identity.bootstrap(config.adminToken ?? undefined);
  if (generatedToken) {
    // Printed once, on the first start of an empty database; only its hash is stored.
    logger.warn({ adminToken: generatedToken }, 'created user admin; this is its API token, shown only now (set VANCE_ADMIN_TOKEN to choose one)');
  }
  // Turns: react to scheduled turns; interrupted turns (server killed mid-turn) run again.
  let recovering: Promise<void> = Promise.resolve();
  if (options.runTurns !== false) {
    services.turnRunner.start(config.turnSweepMs);
    recovering = services.turnRunner.recover().catch((err: unknown) => logger.error({ err }, 'turn recovery failed'));
  }
  logger.info({ url, database: database.driver, resources: resources.size }, 'Vance is listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    services,
    database,
    generatedAdminToken: generatedToken,
    close: () =>
      (closing ??= (async () => {
        await server.close();
        logger.debug('server drained');
        services.turnRunner.stop();
        await recovering;
        await services.turnRunner.idle();
        services.dispose();
        await mcpPool.close();
        await bus.close();
        templates.dispose();
        await validation.close();
        scriptRunner.dispose();
        if (!options.database) await database.close();
        logger.info('stopped');
      })()),
  };
}
