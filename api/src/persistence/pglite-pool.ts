/**
 * A pg-compatible `Pool` over ONE embedded PGlite database, handed to TypeORM as its `driver`
 * (STACK.md §4). It replaces typeorm-pglite, which shares one session between all "connections"
 * (a rolled-back transaction can be committed by another one) and turns a failing callback-style
 * query into an unhandled rejection.
 *
 * Design: the only client is a real `pg.Client` speaking the wire protocol to PGlite through
 * PGlite's own `PglitePgConnection`. So parameter serialisation, result parsing (int8/count as
 * strings, exactly like pg), error objects (`code`, `constraint`) and callback/promise styles are
 * pg's own code, identical on both drivers. What this module adds is the pool: a FIFO mutex makes
 * a checked-out client exclusive until it is released, which gives each TypeORM QueryRunner (and
 * so each transaction) the session to itself. The pool is therefore of size 1: code inside
 * `dataSource.transaction(em => ...)` must use `em`, never a global repository (that would wait for
 * the lock its own transaction holds). PGlite itself runs on a worker thread (pglite-remote.ts), so
 * its statements never hold the server's event loop.
 */
import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { PglitePgConnection } from '@electric-sql/pglite/node-postgres';
import pg from 'pg';
import type { RemotePglite } from './pglite-remote';
import { startPglite, type PgliteOptions, type StartedPglite } from './pglite-start';
import { Mutex, type Release } from './mutex';

export type { PgliteOptions } from './pglite-start';

export interface PgliteDriver {
  /** What TypeORM instantiates (`new driver.Pool(options)`); every instance shares the one session. */
  readonly Pool: new (options?: unknown) => PglitePool;
  /** A tar of the data directory, taken while holding the session lock (test templates, backups). */
  dumpDataDir(): Promise<Blob>;
  /** Waits for the current holder, then ends the client and closes PGlite. Idempotent. */
  close(): Promise<void>;
  /** Whether this open ran initdb on a file-backed directory (its WebAssembly memory stays grown: see openDatabase). */
  readonly ranInitdb: boolean;
}

/** How long close() waits for a checked-out client to come back. */
const CLOSE_WAIT_MS = 5_000;

type ReleaseFn = (err?: unknown) => void;
type QueryCallback = (err: Error | null, result?: pg.QueryResult) => void;
type ConnectCallback = (err: Error | undefined, client?: pg.Client, release?: ReleaseFn) => void;
type PooledClient = pg.Client & { release?: ReleaseFn };

/** Opens PGlite (or takes the thread main.ts already started: pglite-start.ts) and connects the single pg client to it. */
export async function openPglite(options: PgliteOptions & { readonly started?: StartedPglite } = {}): Promise<PgliteDriver> {
  const { ready, ranInitdb, unlock } = options.started ?? startPglite(options);
  const pglite = await ready;
  // `connection` is an undocumented but supported pg.Client option (PGlite's node-postgres entry).
  // PglitePgConnection is typed for PGlite; RemotePglite has the part of it that the connection uses.
  const config = { connection: new PglitePgConnection({ pglite: pglite as unknown as PGlite }) } as pg.ClientConfig;
  const client: PooledClient = new pg.Client(config);
  await client.connect();
  const session = new PgliteSession(pglite, client);
  class BoundPool extends PglitePool {
    constructor() {
      super(session);
    }
  }
  return { Pool: BoundPool, dumpDataDir: () => session.dump(), close: () => session.close().finally(unlock), ranInitdb };
}

/** The shared state of every Pool of one driver: the PGlite instance, its client and the lock. */
export class PgliteSession extends EventEmitter {
  private readonly mutex = new Mutex();
  private closing: Promise<void> | null = null;
  private holders = 0;

  constructor(
    private readonly pglite: RemotePglite,
    private readonly client: PooledClient,
  ) {
    super();
    // Without a listener an 'error' event would throw; pools re-emit it to TypeORM's handler.
    client.on('error', (err) => this.emit('client-error', err));
  }

  get isIdle(): boolean {
    return this.holders === 0;
  }

  get waitingCount(): number {
    return this.mutex.waitingCount;
  }

  async acquire(): Promise<[PooledClient, ReleaseFn]> {
    if (this.closing) throw new Error('The PGlite pool is closed');
    const unlock = await this.mutex.lock();
    this.holders += 1;
    let released = false;
    const release: ReleaseFn = () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      void this.resetSession().finally(unlock);
    };
    this.client.release = release;
    return [this.client, release];
  }

  /** Runs `work` with the client checked out, releasing it even when `work` fails. */
  async run<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const [client, release] = await this.acquire();
    try {
      return await work(client);
    } finally {
      release();
    }
  }

  async dump(): Promise<Blob> {
    const [, release] = await this.acquire();
    try {
      return await this.pglite.dumpDataDir('none');
    } finally {
      release();
    }
  }

  /**
   * Waits for the current holder (up to CLOSE_WAIT_MS: a leaked checkout must not hang shutdown
   * for ever), then ends the client and closes PGlite. New checkouts fail from the first call on.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS, null)));
      const unlock: Release | null = await Promise.race([this.mutex.lock(), timeout]);
      clearTimeout(timer);
      try {
        await this.client.end();
      } finally {
        await this.pglite.close();
        unlock?.();
      }
    })();
    return this.closing;
  }

  /**
   * pg-pool would discard a connection released inside a transaction; we cannot discard our only
   * session, so we roll the transaction back before the next holder gets it.
   */
  private async resetSession(): Promise<void> {
    const status = this.client.getTransactionStatus();
    if (status !== 'T' && status !== 'E') return;
    try {
      await this.client.query('ROLLBACK');
    } catch (err) {
      this.emit('client-error', err);
    }
  }
}

/** The pg.Pool surface TypeORM and our code use: connect, query, end, 'error' events, counters. */
export class PglitePool extends EventEmitter {
  constructor(private readonly session: PgliteSession) {
    super();
    session.on('client-error', (err: unknown) => {
      if (this.listenerCount('error') > 0) this.emit('error', err);
    });
  }

  readonly totalCount = 1;
  get idleCount(): number {
    return this.session.isIdle ? 1 : 0;
  }
  get waitingCount(): number {
    return this.session.waitingCount;
  }

  connect(): Promise<PooledClient>;
  connect(callback: ConnectCallback): void;
  connect(callback?: ConnectCallback): Promise<PooledClient> | void {
    const acquired = this.session.acquire();
    if (!callback) return acquired.then(([client]) => client);
    // Errors go to the callback only: no promise is returned that could reject unhandled.
    acquired.then(
      ([client, release]) => process.nextTick(callback, undefined, client, release),
      (err: Error) => process.nextTick(callback, err),
    );
  }

  /** pg.Pool.query: (text | config, values?, callback?) — promise unless a callback is given. */
  query(...args: unknown[]): Promise<pg.QueryResult> | void {
    const last = args[args.length - 1];
    const callback = typeof last === 'function' ? (args.pop() as QueryCallback) : undefined;
    const result = this.session.run((client) => {
      const query = client.query.bind(client) as (...a: unknown[]) => Promise<pg.QueryResult>;
      return query(...args);
    });
    if (!callback) return result;
    result.then(
      (res) => process.nextTick(callback, null, res),
      (err: Error) => process.nextTick(callback, err),
    );
  }

  end(): Promise<void>;
  end(callback: (err?: Error) => void): void;
  end(callback?: (err?: Error) => void): Promise<void> | void {
    const closed = this.session.close();
    if (!callback) return closed;
    closed.then(
      () => process.nextTick(callback),
      (err: Error) => process.nextTick(callback, err),
    );
  }
}
