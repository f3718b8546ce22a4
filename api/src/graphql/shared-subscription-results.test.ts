import { buildSchema, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PushIterator } from '../domain/shared/push-iterator';
import { sharedRoots, SharedSubscriptionResults } from './shared-subscription-results';
import { withSplicedPayload } from './ws-transport';

const schema = buildSchema(`
  type Query { ok: Boolean }
  type Subscription { turnEvents(processId: ID!, afterEventId: ID): Ev, other(processId: ID!): Ev }
  type Ev { id: ID!, text: String!, note: String }
`);

interface Ev { id: string; text: string; note?: string }

/** One subscription through `shared`, fed by its own source of root values. */
async function subscriber(shared: SharedSubscriptionResults, query: string, variables: Record<string, unknown> = { p: '1' }) {
  const source = new PushIterator<unknown>();
  const results = await shared.subscribe({
    schema, document: documents(query), variableValues: variables, contextValue: { source },
    subscribeFieldResolver: (_root: unknown, _args: unknown, ctx: { source: PushIterator<unknown> }) => ctx.source,
  });
  if (!('next' in results)) throw new Error(`not a stream: ${JSON.stringify(results)}`);
  return { source, next: async () => (await results.next()).value as ExecutionResult, stop: () => results.return!() };
}

// ws-server.ts keeps one parsed document per query text.
const parsed = new Map<string, ReturnType<typeof parse>>();
const documents = (query: string) => parsed.get(query) ?? parsed.set(query, parse(query)).get(query)!;

const EVENTS = 'subscription S($p: ID!, $after: ID) { turnEvents(processId: $p, afterEventId: $after) { id text } }';

describe('SharedSubscriptionResults', () => {
  it('executes and encodes an event once for N subscribers with the same query and the same view', async () => {
    const shared = new SharedSubscriptionResults();
    const root = sharedRoots('turnEvents');
    // Different afterEventId values: they chose the stream, not what an event shows.
    const subs = await Promise.all(Array.from({ length: 5 }, (_, i) => subscriber(shared, EVENTS, { p: '1', after: String(i) })));
    const events: Ev[] = [{ id: '1', text: 'a' }, { id: '2', text: 'b' }, { id: '3', text: 'c' }];
    for (const e of events) for (const s of subs) s.source.push(root(e));
    for (const e of events) {
      const results = await Promise.all(subs.map((s) => s.next()));
      expect(results.every((r) => r === results[0])).toBe(true);
      expect(results[0]).toEqual({ data: { turnEvents: { id: e.id, text: e.text } } });
      const payloads = results.map((r) => shared.serializedOf(r));
      expect(payloads.every((p) => p === payloads[0])).toBe(true);
      expect(JSON.parse(payloads[0]!.json)).toEqual(results[0]);
    }
    expect(shared.executions).toBe(3);
    expect(shared.serializations).toBe(3);
  });

  it('keeps apart subscribers whose views of an event are different objects, and different selections', async () => {
    const shared = new SharedSubscriptionResults();
    const root = sharedRoots('turnEvents');
    const owner = await subscriber(shared, EVENTS);
    const other = await subscriber(shared, EVENTS);
    const noted = await subscriber(shared, 'subscription S($p: ID!) { turnEvents(processId: $p) { id note } }');
    const event: Ev = { id: '1', text: 'secret', note: 'n' };
    const redacted: Ev = { id: '1', text: '(hidden)' };
    owner.source.push(root(event));
    other.source.push(root(redacted));
    noted.source.push(root(event));
    expect((await owner.next()).data).toEqual({ turnEvents: { id: '1', text: 'secret' } });
    expect((await other.next()).data).toEqual({ turnEvents: { id: '1', text: '(hidden)' } });
    expect((await noted.next()).data).toEqual({ turnEvents: { id: '1', note: 'n' } });
    expect(shared.executions).toBe(3);
  });

  it('keys by the variables the selection uses', async () => {
    const shared = new SharedSubscriptionResults();
    const root = sharedRoots('turnEvents');
    const query = 'subscription S($p: ID!, $full: Boolean!) { turnEvents(processId: $p) { id text @include(if: $full) } }';
    const full = await subscriber(shared, query, { p: '1', full: true });
    const short = await subscriber(shared, query, { p: '1', full: false });
    const event: Ev = { id: '1', text: 't' };
    full.source.push(root(event));
    short.source.push(root(event));
    expect((await full.next()).data).toEqual({ turnEvents: { id: '1', text: 't' } });
    expect((await short.next()).data).toEqual({ turnEvents: { id: '1' } });
    expect(shared.executions).toBe(2);
  });

  it('executes a field outside SHARED_FIELDS per subscriber, and leaves its encoding to graphql-ws', async () => {
    const shared = new SharedSubscriptionResults();
    const root = sharedRoots('other');
    const query = 'subscription S($p: ID!) { other(processId: $p) { id } }';
    const a = await subscriber(shared, query);
    const b = await subscriber(shared, query);
    const event: Ev = { id: '1', text: 't' };
    a.source.push(root(event));
    b.source.push(root(event));
    const [ra, rb] = [await a.next(), await b.next()];
    expect(ra).toEqual(rb);
    expect(ra).not.toBe(rb);
    expect(shared.executions).toBe(0);
    expect(shared.serializedOf(ra)).toBeNull();
  });

  it('ends the source when the subscription is returned while it waits for an event', async () => {
    const shared = new SharedSubscriptionResults();
    const s = await subscriber(shared, EVENTS);
    const waiting = s.next();
    await s.stop();
    expect(s.source.closed).toBe(true);
    await waiting;
  });
});

describe('the encoded payload in a graphql-ws message', () => {
  it('is spliced into the message graphql-ws encoded, in the payload\'s place', async () => {
    const shared = new SharedSubscriptionResults();
    const s = await subscriber(shared, EVENTS);
    s.source.push(sharedRoots('turnEvents')({ id: '7', text: 'he said "hi"' }));
    const payload = shared.serializedOf(await s.next())!;
    const text = withSplicedPayload(JSON.stringify({ id: 'sub-1', type: 'next', payload }));
    expect(JSON.parse(text)).toEqual({ id: 'sub-1', type: 'next', payload: { data: { turnEvents: { id: '7', text: 'he said "hi"' } } } });
    // Another message after it is sent as it is.
    const plain = JSON.stringify({ id: 'sub-2', type: 'next', payload: { data: null } });
    expect(withSplicedPayload(plain)).toBe(plain);
  });
});
