/**
 * Starts a real Vance (HTTP + WebSocket on an ephemeral port) over a test database and speaks
 * GraphQL to it the way clients do: fetch for HTTP, graphql-ws (with the `ws` implementation,
 * Node 20 has no global WebSocket) for subscriptions.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import pino from 'pino';
import { startVance, type RunningVance, type StartOptions } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { EventBus, SubscribeOptions } from '../../api/src/domain/events/event-bus';
import type { Database } from '../../api/src/persistence';
import { NO_TIME_CAP } from '../../api/src/templates/testing';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface GraphQLResult<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface TestVance {
  readonly vance: RunningVance;
  readonly url: string;
  /** The subscriptions on this instance's bus, for waiting on a positive signal instead of sleeping. */
  readonly bus: BusWatch;
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GraphQLResult<T>>;
  ws(token?: string | null): Client;
  close(): Promise<void>;
}

/**
 * Counts the live subscriptions per topic on an instance's bus. A GraphQL subscription is
 * registered on the server once its resolver subscribed to the bus; `listening()` waits for exactly
 * that. It replaces the old "sleep 100–300 ms and hope it registered", which a loaded machine
 * could outlast, so the event the test then caused was missed.
 */
export interface BusWatch {
  /** Live subscriptions on `topic` made since the instance started (internal ones made at start are not counted). */
  count(topic: string): number;
  /** Resolves once `test(count(topic))` holds; bounded by the test timeout. */
  until(topic: string, test: (count: number) => boolean): Promise<void>;
  /** Runs `open` (which starts a subscription) and resolves with its result once one more subscription on `topic` is live. */
  listening<T>(topic: string, open: () => T): Promise<T>;
}

export function watchBus(bus: EventBus): BusWatch {
  const live = new Map<string, number>();
  let wake: () => void = () => undefined;
  let changed = new Promise<void>((resolve) => (wake = resolve));
  const bump = (topic: string, by: number) => {
    live.set(topic, (live.get(topic) ?? 0) + by);
    const woken = wake;
    changed = new Promise<void>((resolve) => (wake = resolve));
    woken();
  };
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = <T>(topic: string, handler: (payload: T) => void, options?: SubscribeOptions) => {
    const unsubscribe = subscribe(topic, handler, options);
    bump(topic, 1);
    let ended = false;
    return () => {
      unsubscribe();
      if (ended) return;
      ended = true;
      bump(topic, -1);
    };
  };
  const count = (topic: string) => live.get(topic) ?? 0;
  const until = async (topic: string, test: (n: number) => boolean) => {
    while (!test(count(topic))) await changed;
  };
  return {
    count,
    until,
    async listening(topic, open) {
      const before = count(topic);
      const opened = open();
      await until(topic, (n) => n > before);
      return opened;
    },
  };
}

/** Polls `check` until it holds (bounded by the test timeout), for effects that announce nothing. */
export async function eventually(check: () => boolean | Promise<boolean>, intervalMs = 25): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, intervalMs));
}

export async function startTestVance(database: Database, env: Record<string, string> = {}, options: Pick<StartOptions, 'runTurns' | 'modelProvider' | 'extraTools'> = {}): Promise<TestVance> {
  // The requested-turn sweep only where a test asks for it: elsewhere its queries would land in counted windows.
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', VANCE_TURN_SWEEP_MS: '3600000', ...env });
  // Load: no test over GraphQL is about the template time cap; with the 100 ms default a busy
  // machine could cut an ordinary prompt (the completion-guard judge then lost its prompt).
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, identityCacheTtlMs: 0, templateLimits: NO_TIME_CAP, ...options });
  const bus = watchBus(vance.services.bus);
  const clients: Client[] = [];
  return {
    vance,
    url: vance.url,
    bus,
    gql: async (query, variables = {}, token = ADMIN_TOKEN) => {
      const res = await fetch(vance.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as GraphQLResult<any>;
    },
    ws: (token = ADMIN_TOKEN) => {
      const client = createClient({
        url: vance.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
        retryAttempts: 0,
        lazy: true,
      });
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.dispose()));
      await vance.close();
    },
  };
}

/** The first error's GraphQL code, for `expect(codeOf(r)).toBe('NOT_FOUND')`. */
export function codeOf(result: GraphQLResult): string | undefined {
  return result.errors?.[0]?.extensions?.code;
}

/** Subscribes and collects events; `next()` waits for the next one (with a timeout). */
export function collect<T>(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const events: GraphQLResult<T>[] = [];
  const waiters: (() => void)[] = [];
  let error: unknown;
  let unsubscribe = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    unsubscribe = client.subscribe<T>({ query, variables }, {
      next: (value) => { events.push(value as GraphQLResult<T>); waiters.shift()?.(); },
      error: (err) => { error = err; waiters.splice(0).forEach((w) => w()); resolve(); },
      complete: () => { waiters.splice(0).forEach((w) => w()); resolve(); },
    });
  });
  let read = 0;
  return {
    events,
    done,
    /** Completes the subscription from the client's side. */
    stop: () => unsubscribe(),
    get error() { return error; },
    // Load: a generous default; it only bounds how long a lost event takes to fail the test.
    async next(timeoutMs = 20_000): Promise<GraphQLResult<T>> {
      const deadline = Date.now() + timeoutMs;
      while (events.length <= read) {
        if (error) throw error;
        if (Date.now() > deadline) throw new Error('timed out waiting for a subscription event');
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 50); });
      }
      return events[read++]!;
    },
  };
}

export interface ProbedAbuse<T> {
  readonly result: T;
  /** How long the abusive request took to answer. */
  readonly abuseMs: number;
  /** Each probe's round trip, for the probes sent while the abusive request was unanswered. */
  readonly probeMs: readonly number[];
}

/**
 * Issue 13: one tenant's costly request must not stall the others. Runs `abuse` and, while it is
 * unanswered, `probe` (another tenant's trivial request) again and again, one at a time. If the
 * server's event loop were held for most of the abuse, a probe sent meanwhile would wait about as
 * long as the abuse itself; `expectServedDuring` asserts that none did — a ratio of two times
 * measured in the same run, so a loaded machine, which slows both, keeps it true.
 */
export async function probeDuring<T>(abuse: () => Promise<T>, probe: () => Promise<void>): Promise<ProbedAbuse<T>> {
  const started = performance.now();
  let answeredAt: number | null = null;
  const pending = abuse().finally(() => { answeredAt = performance.now(); });
  const probeMs: number[] = [];
  while (answeredAt === null) {
    const sent = performance.now();
    await probe();
    if (sent < (answeredAt ?? Infinity)) probeMs.push(performance.now() - sent);
  }
  const result = await pending;
  return { result, abuseMs: answeredAt! - started, probeMs };
}

export function expectServedDuring(probed: ProbedAbuse<unknown>): void {
  const slowest = Math.max(...probed.probeMs);
  const detail = `abuse ${probed.abuseMs.toFixed(0)} ms; ${probed.probeMs.length} probes, slowest ${slowest.toFixed(0)} ms`;
  if (!(probed.probeMs.length >= 3 && slowest < probed.abuseMs / 2)) {
    throw new Error(`another tenant was not served while the abuse ran (${detail})`);
  }
}
