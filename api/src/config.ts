import path from 'node:path';
import { existsSync } from 'node:fs';

/**
 * The only reader of process.env: every setting typed, validated and frozen once at start,
 * then passed down. The README's configuration table and its "Limits and security" table mirror
 * this file.
 */
export interface VanceConfig {
  readonly host: string;
  readonly port: number;
  /** PostgreSQL connection string; unset → the embedded PGlite database under `dataDir`. */
  readonly databaseUrl: string | null;
  /** PostgreSQL only: the schema to work in (created if missing); null → the connection's search_path. */
  readonly databaseSchema: string | null;
  /** Turns running at once on this instance (VANCE_TURN_SLOTS) and of one tenant (VANCE_TURN_SLOTS_PER_TENANT). */
  readonly turnSlots: { readonly total: number; readonly perTenant: number };
  readonly dataDir: string;
  /** A fixed token for the bootstrap `admin` user; unset → a random one, printed once. */
  readonly adminToken: string | null;
  readonly maxDocumentBytes: number;
  readonly defaultsDir: string;
  readonly logLevel: string;
  /** Largest HTTP request body and largest WebSocket message accepted, in bytes. */
  readonly maxRequestBytes: number;
  /** Largest HTTP request body without an Authorization header (such a caller can only ask `me`, or fail). */
  readonly maxAnonymousRequestBytes: number;
  /** What one operation may ask for, checked before execution and before authentication (DESIGN §6). */
  readonly operationLimits: OperationLimitsConfig;
  /** Who may introspect the schema (`__schema`, `__type`). */
  readonly introspection: IntrospectionPolicy;
  /** Stack traces and internal messages in error responses (HTTP and WebSocket); off unless asked for. */
  readonly devErrors: boolean;
  /** Per-principal budgets: mutation and turn rates, open subscriptions. */
  readonly budgets: BudgetsConfig;
  /** How long a turn waits for a client (FOOT) tool's answer. */
  readonly clientToolTimeoutMs: number;
  /** HTTP tool documents may call loopback and private addresses (default false: tenants cannot probe the server's network). */
  readonly toolHttpPrivateNetwork: boolean;
  /** How often an instance looks for requested turns that nobody runs (a lost TURN_SCHEDULED event) and for turns whose instance died (issue 14). */
  readonly turnSweepMs: number;
  /** How long a process lane's lease lasts without a heartbeat (PostgreSQL): a dead instance's turns are taken over after it. */
  readonly laneLeaseMs: number;
  /** A failed turn's retry (issue 14): the first backoff (doubling per attempt), and the failures in a row after which a message is marked failed. */
  readonly turnRetry: { readonly baseDelayMs: number; readonly maxDelayMs: number; readonly maxAttempts: number };
  /** Time limit of one skill-script run in the sandbox. */
  readonly scriptTimeoutMs: number;
  /** Memory limit of one sandbox isolate. */
  readonly scriptMemoryMb: number;
  /** `vance.*` calls one script or guard run may make. */
  readonly scriptMaxHostCalls: number;
  /** The longest the save-time backtracking analysis of one trigger pattern may take; 0 turns it off (issue 13). */
  readonly regexCheckTimeoutMs: number;
  /** Backtracking-analysis time one instance spends per minute at most (the analysis blocks its event loop). */
  readonly regexCheckBudgetMs: number;
  /** A document validation's deadline on the validation pool; past it the write is refused (issue 13). */
  readonly validationTimeoutMs: number;
  /** Worker threads that validate documents; 0: the cores but one (1–4). */
  readonly validationThreads: number;
  /** The MCP endpoint (`/mcp`, issue 19): skills per `skills/list` page, open sessions per token (the oldest is closed). */
  readonly mcp: { readonly pageSize: number; readonly sessionsPerToken: number; readonly sessionIdleMs: number };
  /** The outermost settings layer (`VANCE_DEFAULT_SETTINGS`, a JSON object of strings). */
  readonly defaultSettings: Readonly<Record<string, string>>;
}

/** The README's "Limits and security" table lists each of these with its variable and default. */
export interface OperationLimitsConfig {
  /** Lexical tokens of the document (punctuators, names, values); counting stops at the first one over. */
  readonly maxTokens: number;
  /** Levels of nested fields (fragments flattened; introspection has graphql's own list-depth rule). */
  readonly maxDepth: number;
  readonly maxAliases: number;
  /** Fields selected, a fragment's fields counted where it is spread (introspection included). */
  readonly maxCost: number;
  readonly maxDirectives: number;
}

export type IntrospectionPolicy = 'authenticated' | 'all' | 'off';

/** Rates are per minute and per instance (memory store). */
export interface BudgetsConfig {
  readonly mutationsPerToken: number;
  readonly mutationsPerTenant: number;
  /** Mutations that start turns (sendMessage, spawnProcess, regenerateTurn, skillCommand, activateSkill). */
  readonly turnsPerToken: number;
  readonly turnsPerTenant: number;
  readonly subscriptionsPerConnection: number;
  readonly subscriptionsPerToken: number;
}

export class ConfigError extends Error {}

/** The repository root: where schema.graphql and vance-defaults/ live. */
export const REPO_ROOT = findRepoRoot(__dirname);

/** Turns at once per instance, and per tenant (default half, so one tenant leaves the rest to others). */
function turnSlotsSetting(env: NodeJS.ProcessEnv): { readonly total: number; readonly perTenant: number } {
  const total = intSetting(env, 'VANCE_TURN_SLOTS', 64, 1, 100_000);
  const perTenant = intSetting(env, 'VANCE_TURN_SLOTS_PER_TENANT', Math.max(1, Math.floor(total / 2)), 1, 100_000);
  if (perTenant > total) throw new ConfigError(`VANCE_TURN_SLOTS_PER_TENANT (${perTenant}) must not exceed VANCE_TURN_SLOTS (${total})`);
  return Object.freeze({ total, perTenant });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): VanceConfig {
  const maxDocumentBytes = intSetting(env, 'VANCE_MAX_DOCUMENT_BYTES', 1024 * 1024, 1);
  const adminToken = env.VANCE_ADMIN_TOKEN?.trim() || null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('VANCE_ADMIN_TOKEN must be at least 16 characters');
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return Object.freeze({
    host: env.HOST?.trim() || '127.0.0.1',
    port: intSetting(env, 'PORT', 4000, 0, 65535),
    databaseUrl,
    databaseSchema: env.VANCE_DATABASE_SCHEMA?.trim() || null,
    dataDir: path.resolve(env.VANCE_DATA_DIR?.trim() || './data'),
    adminToken,
    maxDocumentBytes,
    defaultsDir: path.resolve(env.VANCE_DEFAULTS_DIR?.trim() || path.join(REPO_ROOT, 'vance-defaults')),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    maxRequestBytes: requestBytesSetting(env, maxDocumentBytes),
    maxAnonymousRequestBytes: intSetting(env, 'VANCE_MAX_ANONYMOUS_REQUEST_BYTES', 64 * 1024, 1024),
    operationLimits: Object.freeze({
      maxTokens: intSetting(env, 'VANCE_MAX_TOKENS', 3_000, 100, 1_000_000),
      maxDepth: intSetting(env, 'VANCE_MAX_DEPTH', 12, 2, 1_000),
      maxAliases: intSetting(env, 'VANCE_MAX_ALIASES', 50, 0, 100_000),
      maxCost: intSetting(env, 'VANCE_MAX_COST', 1_000, 10, 1_000_000),
      maxDirectives: intSetting(env, 'VANCE_MAX_DIRECTIVES', 50, 0, 100_000),
    }),
    introspection: introspectionSetting(env.VANCE_INTROSPECTION),
    devErrors: booleanSetting(env, 'VANCE_DEV_ERRORS'),
    budgets: Object.freeze({
      mutationsPerToken: intSetting(env, 'VANCE_RATE_MUTATIONS_PER_TOKEN', 600, 1),
      mutationsPerTenant: intSetting(env, 'VANCE_RATE_MUTATIONS_PER_TENANT', 3_000, 1),
      turnsPerToken: intSetting(env, 'VANCE_RATE_TURNS_PER_TOKEN', 120, 1),
      turnsPerTenant: intSetting(env, 'VANCE_RATE_TURNS_PER_TENANT', 600, 1),
      subscriptionsPerConnection: intSetting(env, 'VANCE_MAX_SUBSCRIPTIONS_PER_CONNECTION', 100, 1),
      subscriptionsPerToken: intSetting(env, 'VANCE_MAX_SUBSCRIPTIONS_PER_TOKEN', 500, 1),
    }),
    clientToolTimeoutMs: intSetting(env, 'VANCE_CLIENT_TOOL_TIMEOUT_MS', 30_000, 100, 3_600_000),
    toolHttpPrivateNetwork: booleanSetting(env, 'VANCE_TOOL_HTTP_PRIVATE_NETWORK'),
    turnSweepMs: intSetting(env, 'VANCE_TURN_SWEEP_MS', 1_000, 100, 3_600_000),
    turnSlots: turnSlotsSetting(env),
    laneLeaseMs: intSetting(env, 'VANCE_LANE_LEASE_MS', 10_000, 200, 3_600_000),
    turnRetry: Object.freeze({
      baseDelayMs: intSetting(env, 'VANCE_TURN_RETRY_MS', 1_000, 10, 3_600_000),
      maxDelayMs: 60_000,
      maxAttempts: intSetting(env, 'VANCE_TURN_MAX_ATTEMPTS', 3, 1, 100),
    }),
    scriptTimeoutMs: intSetting(env, 'VANCE_SCRIPT_TIMEOUT_MS', 5_000, 10, 600_000),
    scriptMemoryMb: intSetting(env, 'VANCE_SCRIPT_MEMORY_MB', 32, 8, 1024),
    scriptMaxHostCalls: intSetting(env, 'VANCE_SCRIPT_MAX_HOST_CALLS', 10_000, 1, 10_000_000),
    regexCheckTimeoutMs: intSetting(env, 'VANCE_REGEX_CHECK_TIMEOUT_MS', 300, 0, 60_000),
    regexCheckBudgetMs: intSetting(env, 'VANCE_REGEX_CHECK_BUDGET_MS', 3_000, 0, 60_000),
    validationTimeoutMs: intSetting(env, 'VANCE_VALIDATION_TIMEOUT_MS', 20_000, 1, 600_000),
    validationThreads: intSetting(env, 'VANCE_VALIDATION_THREADS', 0, 0, 64),
    mcp: Object.freeze({
      pageSize: intSetting(env, 'VANCE_MCP_PAGE_SIZE', 1_000, 1, 10_000),
      sessionsPerToken: intSetting(env, 'VANCE_MCP_SESSIONS_PER_TOKEN', 16, 1, 1_000),
      sessionIdleMs: intSetting(env, 'VANCE_MCP_SESSION_IDLE_MS', 1_800_000, 1_000, 86_400_000),
    }),
    defaultSettings: Object.freeze({ ...BUILT_IN_SETTINGS, ...jsonSettings(env.VANCE_DEFAULT_SETTINGS) }),
  });
}

function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
  }
  return value;
}

/** JSON escaping can inflate a document several times over: the default leaves room for it. */
function requestBytesSetting(env: NodeJS.ProcessEnv, maxDocumentBytes: number): number {
  const value = intSetting(env, 'VANCE_MAX_REQUEST_BYTES', Math.max(8 * 1024 * 1024, maxDocumentBytes * 7), 1024);
  if (value < maxDocumentBytes) {
    throw new ConfigError(`VANCE_MAX_REQUEST_BYTES (${value}) must be at least VANCE_MAX_DOCUMENT_BYTES (${maxDocumentBytes})`);
  }
  return value;
}

function booleanSetting(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
}

const INTROSPECTION_POLICIES: readonly IntrospectionPolicy[] = ['authenticated', 'all', 'off'];

function introspectionSetting(raw: string | undefined): IntrospectionPolicy {
  const value = raw?.trim().toLowerCase() || 'authenticated';
  const policy = INTROSPECTION_POLICIES.find((p) => p === value);
  if (!policy) throw new ConfigError(`VANCE_INTROSPECTION must be one of ${INTROSPECTION_POLICIES.join(', ')}, got '${raw}'`);
  return policy;
}

/**
 * Without any configuration a fresh install runs on the offline provider (deterministic, no network),
 * so `default:*` model aliases resolve and a turn can run on a new machine.
 */
const BUILT_IN_SETTINGS: Readonly<Record<string, string>> = {
  'ai.default.provider': 'offline',
  'ai.default.model': 'offline-echo',
};

function jsonSettings(raw: string | undefined): Readonly<Record<string, string>> {
  if (!raw?.trim()) return Object.freeze({});
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('VANCE_DEFAULT_SETTINGS must be a JSON object, e.g. {"ai.default.provider":"openai"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError('VANCE_DEFAULT_SETTINGS must be a JSON object');
  const entries = Object.entries(parsed).map(([key, value]) => {
    if (typeof value !== 'string') throw new ConfigError(`VANCE_DEFAULT_SETTINGS: '${key}' must be a string`);
    return [key, value] as const;
  });
  return Object.freeze(Object.fromEntries(entries));
}

/** The folder holding the root package.json (works from src/ under tsx/vitest and from dist/). */
function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, 'vance-defaults'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
