/**
 * The EventBus across instances on one PostgreSQL (DESIGN §7): LISTEN/NOTIFY on a dedicated
 * pg.Client. PGlite is single-instance and uses the domain's InProcessEventBus instead.
 *
 * One channel per namespace (the schema, so test suites or deployments sharing a database do not
 * hear each other), with the topic inside the JSON payload. Why not a channel per topic: LISTEN is
 * asynchronous but `subscribe` is synchronous, so a per-topic LISTEN would miss events published
 * elsewhere between subscribe() and the LISTEN landing; the one channel is listened to before
 * `connect` resolves, so a subscription is effective the moment subscribe() returns.
 *
 * Local subscribers are called during publish() (a write's own instance sees the invalidation
 * before the write returns); the NOTIFY echo of our own events is recognised by `origin` and
 * skipped — except for `ordered` subscribers (event streams), which take this instance's events
 * from their echo, in the commit order of all instances, and not during publish. Every subscriber
 * gets the JSON round-trip of the payload, the same on every instance.
 *
 * NOTIFY goes out on a connection of its own (`vance-notify`, one, so an instance's events keep
 * their order), not on the LISTEN one (issue 14): while LISTEN reconnects, publishing still reaches
 * the other instances, and a write that committed is not reported as failed because its listener
 * was down. A notify connection found dead is replaced once per publish.
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EventBus, SubscribeOptions, Unsubscribe } from '../domain/events/event-bus';
import { TopicHandlers } from '../domain/events/topic-handlers';
import type { CommitNotifier } from './commit-notifier';
import { isConnectionLoss } from './connection-loss';
import { GuardedClient } from './guarded-client';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (the default page size). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;

export class EventPayloadTooLargeError extends Error {
  constructor(readonly topic: string, readonly bytes: number) {
    super(`Event on '${topic}' is ${bytes} bytes as JSON; PostgreSQL NOTIFY allows at most ${MAX_NOTIFY_PAYLOAD_BYTES}. Publish an id and let subscribers load the rest.`);
    this.name = 'EventPayloadTooLargeError';
  }
}

export interface EventBusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface PgEventBusOptions {
  readonly logger?: EventBusLogger;
  /** First reconnect delay after the connection is lost; doubles up to 30 s. */
  readonly reconnectDelayMs?: number;
}

interface Envelope {
  readonly t: string;
  readonly o: string;
  readonly p: unknown;
}

type Handler = (payload: unknown) => void;

/** A valid, unquoted-safe channel name: lower-case [a-z0-9_], at most 63 bytes (NAMEDATALEN). */
export function channelName(namespace?: string): string {
  const raw = namespace ? `vance_events_${namespace}` : 'vance_events';
  const name = raw.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (name.length <= 63 && name === raw) return name;
  // Sanitising or truncating could map two namespaces to one name; a hash of the original keeps them apart.
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${name.slice(0, 54)}_${hash}`;
}

const consoleLogger: EventBusLogger = {
  info: () => {},
  warn: (obj, msg) => console.warn(`[PgEventBus] ${msg ?? ''}`, obj),
};

export class PgEventBus implements EventBus, CommitNotifier {
  private readonly handlers = new Map<string, TopicHandlers<Handler>>();
  /** Handlers that take this instance's own events only (subscribe's `localOnly`). */
  private readonly localOnly = new WeakSet<Handler>();
  /** Handlers that take every event in commit order (subscribe's `ordered`): own events from their echo. */
  private readonly ordered = new WeakSet<Handler>();
  private readonly gapHandlers = new Set<() => void>();
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private readonly notifier: pg.Pool;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly connectionString: string,
    readonly channel: string,
    private readonly logger: EventBusLogger,
    private readonly reconnectDelayMs: number,
  ) {
    this.notifier = new pg.Pool({ connectionString, max: 1, application_name: 'vance-notify', Client: GuardedClient });
    // An idle notify connection that the server ends is dropped by the pool; the next publish opens another.
    this.notifier.on('error', (err) => this.logger.warn({ err, channel }, 'event bus notify connection lost'));
  }

  /** Connects and LISTENs before resolving. `namespace` is usually the database schema. */
  static async connect(connectionString: string, namespace?: string, options: PgEventBusOptions = {}): Promise<PgEventBus> {
    const bus = new PgEventBus(connectionString, channelName(namespace), options.logger ?? consoleLogger, options.reconnectDelayMs ?? 1000);
    try {
      bus.client = await bus.listen();
    } catch (err) {
      await bus.notifier.end().catch(() => {});
      throw err;
    }
    return bus;
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    if (this.closed) throw new Error('The event bus is closed');
    const message = JSON.stringify({ t: topic, o: this.origin, p: payload } satisfies Envelope);
    const bytes = Buffer.byteLength(message, 'utf8');
    if (bytes > MAX_NOTIFY_PAYLOAD_BYTES) throw new EventPayloadTooLargeError(topic, bytes);
    this.deliver(JSON.parse(message) as Envelope);
    await this.notify(message);
  }

  /** A committed event whose NOTIFY went out with its write (commit-notifier.ts): this instance's subscribers. */
  deliverLocal(topic: string, payload: unknown): void {
    if (this.closed) return;
    this.deliver(JSON.parse(JSON.stringify({ t: topic, o: this.origin, p: payload })) as Envelope);
  }

  private async notify(message: string): Promise<void> {
    try {
      await this.notifier.query('SELECT pg_notify($1, $2)', [this.channel, message]);
    } catch (err) {
      // A connection that died since its last use fails its first query and leaves the pool; one more try gets a new one.
      if (this.closed || !isConnectionLoss(err)) throw err;
      await this.notifier.query('SELECT pg_notify($1, $2)', [this.channel, message]);
    }
  }

  subscribe<T>(topic: string, handler: (payload: T) => void, options: SubscribeOptions = {}): Unsubscribe {
    const handlers = this.handlers.get(topic) ?? new TopicHandlers<Handler>();
    this.handlers.set(topic, handlers);
    // A wrapper of its own per subscription: one function may be subscribed twice, once local only.
    const h: Handler = (payload) => handler(payload as T);
    if (options.localOnly) this.localOnly.add(h);
    if (options.ordered && !options.localOnly) this.ordered.add(h);
    const remove = handlers.add(h, options.route);
    return () => {
      remove();
      if (handlers.size === 0 && this.handlers.get(topic) === handlers) this.handlers.delete(topic);
    };
  }

  /** The backend pid of the LISTEN connection, null while it reconnects (diagnostics, fault tests). */
  get listenerPid(): number | null {
    return (this.client as (pg.Client & { processID?: number }) | null)?.processID ?? null;
  }

  hearsOthers(): boolean {
    return this.client !== null;
  }

  onMissedEvents(handler: () => void): Unsubscribe {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  /**
   * A write of this instance may have committed events unheard here (commit-notifier.ts): the
   * missed-events handlers run now, and once more after the reconnect delay — a COMMIT that was
   * still on its way when the connection broke becomes visible only then.
   */
  mayHaveMissed(): void {
    if (this.closed) return;
    this.tellMissed();
    setTimeout(() => {
      if (!this.closed) this.tellMissed();
    }, this.reconnectDelayMs).unref();
  }

  private tellMissed(): void {
    for (const handler of [...this.gapHandlers]) {
      try {
        handler();
      } catch (err) {
        this.logger.warn({ err }, 'missed-events handler threw');
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.handlers.clear();
    const client = this.client;
    this.client = null;
    await Promise.all([client?.end().catch(() => {}), this.notifier.end().catch(() => {})]);
  }

  private async listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'vance-events' });
    client.on('notification', (msg) => {
      if (msg.channel === this.channel && msg.payload !== undefined) this.onNotification(msg.payload);
    });
    client.on('error', (err) => this.connectionLost(client, err));
    client.on('end', () => this.connectionLost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    return client;
  }

  private onNotification(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch (err) {
      this.logger.warn({ err, channel: this.channel }, 'ignored a NOTIFY payload that is not JSON');
      return;
    }
    if (typeof envelope.t === 'string') this.deliver(envelope, envelope.o === this.origin ? 'echo' : 'remote');
  }

  /**
   * `local`: during publish / after this instance's commit; `echo`: our own event back from the
   * database; `remote`: another instance's. Ordered handlers take remote and echo (own events
   * locally only while the echo cannot come); the others local and remote.
   */
  private deliver(envelope: Envelope, via: 'local' | 'echo' | 'remote' = 'local'): void {
    for (const handler of this.handlers.get(envelope.t)?.for(envelope.p) ?? []) {
      if (this.ordered.has(handler) ? via === 'local' && this.client !== null : via === 'echo') continue;
      if (via === 'remote' && this.localOnly.has(handler)) continue;
      try {
        handler(envelope.p);
      } catch (err) {
        // A failing subscriber must neither fail the publisher nor crash the listening client.
        this.logger.warn({ err, topic: envelope.t }, 'event subscriber threw');
      }
    }
  }

  private connectionLost(client: pg.Client, err: Error | null): void {
    if (this.closed || client !== this.client) return;
    this.client = null;
    this.logger.warn({ err, channel: this.channel }, 'event bus connection lost; reconnecting');
    this.scheduleReconnect(this.reconnectDelayMs);
  }

  private scheduleReconnect(delayMs: number): void {
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().then(
        async (client) => {
          if (this.closed) return void (await client.end().catch(() => {}));
          this.client = client;
          this.logger.info({ channel: this.channel }, 'event bus reconnected; events published meanwhile were missed');
          this.tellMissed();
        },
        (err: unknown) => {
          if (this.closed) return;
          this.logger.warn({ err }, 'event bus reconnect failed');
          this.scheduleReconnect(Math.min(delayMs * 2, 30_000));
        },
      );
    }, delayMs);
    this.reconnectTimer.unref();
  }
}

