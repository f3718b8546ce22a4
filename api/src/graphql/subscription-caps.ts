/**
 * Caps on open subscriptions (issue 13): per WebSocket connection and per token, so one client
 * cannot make every document write fan out to thousands of its own streams (5,000 from one token
 * made a write take 4 s to deliver, and everyone else waited). Counted per instance, like the rate
 * budgets (`principal-budgets.ts`).
 *
 * `acquire` runs in graphql-ws's onSubscribe. A slot is free again once graphql-ws no longer lists
 * the subscription in its connection's `subscriptions` (it drops it synchronously when the client
 * completes it or the socket closes); the onComplete/onError/onClose hooks come later, after the
 * stream has wound down, so `acquire` prunes by that list first — a client that completes one
 * subscription and at once opens another is not refused.
 */
import type { BudgetsConfig } from '../config';
import { LimitExceededError } from '../domain/errors';

type Caps = Pick<BudgetsConfig, 'subscriptionsPerConnection' | 'subscriptionsPerToken'>;

/** A graphql-ws connection context: the operations it runs, by id. */
export interface Connection {
  readonly subscriptions: Readonly<Record<string, unknown>>;
}

interface Counted {
  /** A connection has one token (its connectionParams), or none. */
  readonly tokenKey: string | null;
  readonly ids: Set<string>;
}

export class SubscriptionCaps {
  private readonly open = new Map<Connection, Counted>();
  /** token key → the connections holding its subscriptions. */
  private readonly byToken = new Map<string, Set<Connection>>();

  constructor(private readonly caps: Caps) {}

  /** Counts subscription `id` of `connection`, or throws LimitExceededError naming the cap. */
  acquire(connection: Connection, id: string, tokenKey: string | null): void {
    if (this.atLeast(connection, this.caps.subscriptionsPerConnection)) throw this.refusal('subscriptionsPerConnection', 'per connection');
    if (tokenKey !== null) {
      const connections = () => [...(this.byToken.get(tokenKey) ?? [])];
      const sum = (count: (c: Connection) => number) => connections().reduce((n, c) => n + count(c), 0);
      // The counted ids bound the open ones from above: pruned only when they reach the cap.
      if (sum((c) => this.open.get(c)?.ids.size ?? 0) >= this.caps.subscriptionsPerToken && sum((c) => this.count(c)) >= this.caps.subscriptionsPerToken) {
        throw this.refusal('subscriptionsPerToken', 'per token');
      }
      this.byToken.set(tokenKey, (this.byToken.get(tokenKey) ?? new Set()).add(connection));
    }
    const counted = this.open.get(connection) ?? { tokenKey, ids: new Set<string>() };
    counted.ids.add(id);
    this.open.set(connection, counted);
  }

  /**
   * Whether `connection` already holds its cap: then graphql-ws's onSubscribe refuses a new operation
   * before parsing or validating it, so a burst of thousands of subscribe messages on one socket
   * costs a map lookup each, not a validation each (5,000 at once held the event loop 660 ms).
   */
  full(connection: Connection): LimitExceededError | null {
    return this.atLeast(connection, this.caps.subscriptionsPerConnection) ? this.refusal('subscriptionsPerConnection', 'per connection') : null;
  }

  /** Whether the connection holds at least `cap` open subscriptions; prunes only when the counted ids reach it (one lookup per frame otherwise). */
  private atLeast(connection: Connection, cap: number): boolean {
    return (this.open.get(connection)?.ids.size ?? 0) >= cap && this.count(connection) >= cap;
  }

  release(connection: Connection, id: string): void {
    const counted = this.open.get(connection);
    if (!counted?.ids.delete(id) || counted.ids.size > 0) return;
    this.open.delete(connection);
    if (counted.tokenKey === null) return;
    const connections = this.byToken.get(counted.tokenKey);
    connections?.delete(connection);
    if (connections?.size === 0) this.byToken.delete(counted.tokenKey);
  }

  releaseConnection(connection: Connection): void {
    for (const id of [...(this.open.get(connection)?.ids ?? [])]) this.release(connection, id);
  }

  /** The connection's open subscriptions, after releasing what graphql-ws no longer runs. */
  private count(connection: Connection): number {
    for (const id of [...(this.open.get(connection)?.ids ?? [])]) {
      if (!(id in connection.subscriptions)) this.release(connection, id);
    }
    return this.open.get(connection)?.ids.size ?? 0;
  }

  private refusal(limit: keyof Caps, per: string): LimitExceededError {
    const max = this.caps[limit];
    return new LimitExceededError('TOO_MANY_SUBSCRIPTIONS', limit, max, null,
      `Subscription limit ${limit} reached: at most ${max} open subscriptions ${per}; complete one first`);
  }
}
