import { buildSchema, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { PushIterator } from '../domain/shared/push-iterator';
import type { NextOutlet } from './direct-next';
import { sharedRoots, SharedSubscriptionResults } from './shared-subscription-results';
import { nextOutlet } from './ws-transport';

const schema = buildSchema(`
  type Query { ok: Boolean }
  type Subscription { turnEvents(processId: ID!): Ev }
  type Ev { id: ID!, text: String! }
`);
const EVENTS = parse('subscription S($p: ID!) { turnEvents(processId: $p) { id text } }');

/** A socket that records what is sent on it; `backedUp` makes it report a full send buffer. */
function fakeSocket() {
  const sent: string[] = [];
  const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (text: string) => void sent.push(text) };
  return { sent, socket, backUp: () => void (socket.bufferedAmount = 1 << 30) };
}

/** A subscription with id `id` on `socket`, through `shared`, fed by its own source. */
async function subscription(shared: SharedSubscriptionResults, outlets: Map<object, NextOutlet>, socket: object, id: string) {
  const source = new PushIterator<unknown>();
  const args = {
    schema, document: EVENTS, variableValues: { p: '1' }, contextValue: { source },
    subscribeFieldResolver: (_root: unknown, _args: unknown, ctx: { source: PushIterator<unknown> }) => ctx.source,
  };
  outlets.set(args, nextOutlet(socket as unknown as WebSocket, id));
  const results = await shared.subscribe(args);
  if (!('next' in results)) throw new Error(`not a stream: ${JSON.stringify(results)}`);
  return { source, results };
}

function setup() {
  const outlets = new Map<object, NextOutlet>();
  return { outlets, shared: new SharedSubscriptionResults((args) => outlets.get(args)) };
}

const root = sharedRoots('turnEvents');
/** graphql-ws's own encoding of a next message (its stringifyMessage), to compare bytes with. */
const graphqlWsNext = (id: string, payload: ExecutionResult) => JSON.stringify({ id, type: 'next', payload });

describe('direct next messages', () => {
  it('writes each subscriber its own id and its own view of one event, byte for byte what graphql-ws sends', async () => {
    const { outlets, shared } = setup();
    const a = fakeSocket();
    const b = fakeSocket();
    const owner = await subscription(shared, outlets, a.socket, 'sub-"1"');
    const other = await subscription(shared, outlets, b.socket, 'sub-2');
    const event = { id: '1', text: 'secret "quoted"' };
    const redacted = { id: '1', text: '(hidden)' };
    owner.source.push(root(event));
    other.source.push(root(redacted));
    expect(a.sent).toEqual([graphqlWsNext('sub-"1"', { data: { turnEvents: event } })]);
    expect(b.sent).toEqual([graphqlWsNext('sub-2', { data: { turnEvents: redacted } })]);
    expect(shared.executions).toBe(2);
  });

  it('sends an error the ordinary way, and the events after it wait behind it until graphql-ws has sent it', async () => {
    const { outlets, shared } = setup();
    const s = fakeSocket();
    const sub = await subscription(shared, outlets, s.socket, 'x');
    const waiting = sub.results.next(); // graphql-ws's loop waits for a result
    sub.source.push(root({ id: '1', text: 'first' }));
    sub.source.push(root({ id: '2' })); // text is non-null: an error result, handed to the waiting loop
    sub.source.push(root({ id: '3', text: 'after the error' }));
    expect(s.sent).toEqual([graphqlWsNext('x', { data: { turnEvents: { id: '1', text: 'first' } } })]);
    const error = (await waiting).value as ExecutionResult;
    expect(error.errors?.length).toBe(1);
    // Still on graphql-ws's path while it sends the error: the next event queues behind it.
    expect(((await sub.results.next()).value as ExecutionResult).data).toEqual({ turnEvents: { id: '3', text: 'after the error' } });
    expect(s.sent).toHaveLength(1);
    // graphql-ws asks for more once it has sent that: from then on events go straight out again.
    const more = sub.results.next();
    sub.source.push(root({ id: '4', text: 'direct again' }));
    expect(s.sent[1]).toBe(graphqlWsNext('x', { data: { turnEvents: { id: '4', text: 'direct again' } } }));
    await sub.results.return!();
    expect((await more).done).toBe(true);
  });

  it('leaves a backed-up socket\'s messages to graphql-ws, which waits for each write', async () => {
    const { outlets, shared } = setup();
    const s = fakeSocket();
    const sub = await subscription(shared, outlets, s.socket, 'x');
    s.backUp();
    sub.source.push(root({ id: '1', text: 't' }));
    expect(s.sent).toEqual([]);
    expect(((await sub.results.next()).value as ExecutionResult).data).toEqual({ turnEvents: { id: '1', text: 't' } });
  });

  it('stops one subscription mid-stream (complete) while another on the same event goes on', async () => {
    const { outlets, shared } = setup();
    const s = fakeSocket();
    const first = await subscription(shared, outlets, s.socket, 'one');
    const second = await subscription(shared, outlets, s.socket, 'two');
    const e1 = root({ id: '1', text: 'a' });
    first.source.push(e1);
    second.source.push(e1);
    const pending = first.results.next();
    await first.results.return!();
    expect(first.source.closed).toBe(true);
    expect((await pending).done).toBe(true);
    const e2 = root({ id: '2', text: 'b' });
    first.source.push(e2);
    second.source.push(e2);
    expect(s.sent.map((t) => (JSON.parse(t) as { id: string; payload: ExecutionResult }).id)).toEqual(['one', 'two', 'two']);
    expect((await first.results.next()).done).toBe(true);
  });

  it('hands over what the source buffered before the switch, in order, then the live events', async () => {
    const { outlets, shared } = setup();
    const s = fakeSocket();
    const source = new PushIterator<unknown>();
    source.push(root({ id: '1', text: 'backlog' }));
    const args = {
      schema, document: EVENTS, variableValues: { p: '1' }, contextValue: {},
      subscribeFieldResolver: () => source,
    };
    outlets.set(args, nextOutlet(s.socket as unknown as WebSocket, 'x'));
    await shared.subscribe(args);
    source.push(root({ id: '2', text: 'live' }));
    expect(s.sent.map((t) => (JSON.parse(t) as { payload: { data: { turnEvents: { id: string } } } }).payload.data.turnEvents.id)).toEqual(['1', '2']);
  });
});
