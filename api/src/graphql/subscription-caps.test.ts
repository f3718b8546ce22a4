import { describe, expect, it } from 'vitest';
import { SubscriptionCaps, type Connection } from './subscription-caps';

/** A graphql-ws connection as the caps see it: the ids it still runs. */
const connection = () => ({ subscriptions: {} as Record<string, unknown> });
const subscribe = (caps: SubscriptionCaps, c: ReturnType<typeof connection>, id: string, token: string | null) => {
  c.subscriptions[id] = null;
  caps.acquire(c as Connection, id, token);
};

describe('subscription caps', () => {
  it('refuses past the per-connection cap, naming it, and counts again after a release', () => {
    const caps = new SubscriptionCaps({ subscriptionsPerConnection: 2, subscriptionsPerToken: 10 });
    const c = connection();
    subscribe(caps, c, 'a', null);
    subscribe(caps, c, 'b', null);
    expect(() => subscribe(caps, c, 'c', null)).toThrow(expect.objectContaining({ limit: 'subscriptionsPerConnection', max: 2, category: 'RATE_LIMITED' }));
    caps.release(c, 'a');
    caps.release(c, 'a'); // idempotent: onComplete and onError may both come
    subscribe(caps, c, 'c', null);
  });

  it("refuses past the per-token cap across connections; another token's are separate", () => {
    const caps = new SubscriptionCaps({ subscriptionsPerConnection: 10, subscriptionsPerToken: 3 });
    const [one, two, other] = [connection(), connection(), connection()];
    subscribe(caps, one, '1', 'tok');
    subscribe(caps, one, '2', 'tok');
    subscribe(caps, two, '1', 'tok');
    expect(() => subscribe(caps, two, '2', 'tok')).toThrow(expect.objectContaining({ limit: 'subscriptionsPerToken', max: 3 }));
    subscribe(caps, other, '1', 'other');
    caps.releaseConnection(one);
    subscribe(caps, two, '2', 'tok');
  });

  it('frees a slot graphql-ws no longer lists before its onComplete arrives', () => {
    const caps = new SubscriptionCaps({ subscriptionsPerConnection: 1, subscriptionsPerToken: 1 });
    const c = connection();
    subscribe(caps, c, 'a', 'tok');
    delete c.subscriptions.a; // the client completed it; the stream is still winding down
    subscribe(caps, c, 'b', 'tok');
  });
});
