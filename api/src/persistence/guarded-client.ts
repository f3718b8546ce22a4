/**
 * A pool connection that never takes the process down (fault suite: a Vance process died with an
 * unhandled 'error' event while every backend was terminated). pg emits 'error' on a client that
 * the server ends while no query runs on it, and between the pool's idle listener and TypeORM's
 * own there are moments with no listener at all. The error reaches the pool anyway: the client is
 * no longer queryable, its pending queries fail, and the pool drops it when it is released. Used as
 * the `Client` of the data source's pool and of the event bus's notify pool.
 */
import pg from 'pg';

export class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}
