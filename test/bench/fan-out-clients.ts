/**
 * The client side of the turns bench's fan-out (turns.ts, part 2): graphql-ws subscribers on one
 * process's turnEvents over loopback, the turns that sync them, and the per-(client, TextDelta)
 * receipt times — in a file of its own so that turns.ts stays one concept (the runs and their tables).
 */
import WebSocket from 'ws';
import { performance } from 'node:perf_hooks';
import { rawWebSocket, type RawWs } from './raw-ws-client';
import type { ServerHandle, Settings } from './turns';

export const TOKEN = 'bench-admin-token-0123456789';
export const BATCH = 100;
/** Sync turns before the measured ones, until every subscriber has seen one (see syncTurns). */
/** The long message of a fan-out turn: the offline answer echoes it in many TextDelta batches. */
function longText(chars: number): string {
  const words = 'fan out latency check over loopback with many subscribers on one process turn events stream'.split(' ');
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const w = words[i % words.length]!;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

export const SYNC_TURNS = 5;

export const now = (): number => performance.timeOrigin + performance.now();
/**
 * The system's monotonic clock in ms (CLOCK_MONOTONIC, one for every process of the machine): the
 * server's publish time and a client's receipt compared without the skew of two processes'
 * `performance.timeOrigin`, which was off by milliseconds (a 1-subscriber p50 of -5 ms).
 */
export const mono = (): number => Number(process.hrtime.bigint()) / 1e6;
/** This process's CPU time in ms (user + system): the fan-out's cost, which a loaded machine's waits do not blur. */
export const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;
const EVENTS = `subscription E($id: ID!) { turnEvents(processId: $id) { id turnId type at } }`;

export async function gql(url: string, query: string, variables: Record<string, unknown>): Promise<void> {
  // Generous: with many subscriptions still being set up, the mutation queues behind their access checks.
  const res = await withTimeout(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query, variables }) }), 60_000, 'sendMessage');
  const body = (await res.json()) as { errors?: unknown };
  if (body.errors) throw new Error(`sendMessage: ${JSON.stringify(body.errors)}`);
}

export interface Received { id: string; turnId: string; type: string; at: number; recv: number; recvMono: number }

export interface Subscriber {
  /** Closes the socket (the server completes the subscription). */
  close: () => void;
  /** Settles when the server acknowledged the connection (authenticated). */
  connected: Promise<void>;
  events: Received[];
  finished: number;
  onFinish: (() => void) | null;
  error: unknown;
}

/**
 * One graphql-ws subscriber speaking the graphql-transport-ws protocol (connection_init →
 * connection_ack → subscribe → next…, pings answered) on a real WebSocket. The clients share the
 * server's two cores, so they are as cheap as is honest: a minimal client (raw-ws-client.ts) by
 * default, `ws`'s with BENCH_FANOUT_CLIENT=ws.
 */
export function subscribe(url: string, processId: string): Subscriber {
  return process.env.BENCH_FANOUT_CLIENT === 'ws' ? subscribeWs(url, processId) : subscribeRaw(url, processId);
}

/** The settling of a subscriber's `connected` and its failure, shared by both clients. */
function subscriberState(close: () => void): { sub: Subscriber; acked: () => void; fail: (error: unknown) => void } {
  let acked: () => void = () => undefined;
  let refused: (error: unknown) => void = () => undefined;
  // A socket that fails before its ack says so at once (an earlier client waited out the whole
  // connect timeout for a connection that had already failed, and said only that it was not acked).
  const connected = new Promise<void>((resolve, reject) => {
    acked = resolve;
    refused = reject;
  });
  connected.catch(() => undefined);
  const sub: Subscriber = { close, connected, events: [], finished: 0, onFinish: null, error: null };
  const fail = (error: unknown) => {
    refused(error);
    if (sub.error) return;
    sub.error = error;
    sub.onFinish?.();
  };
  return { sub, acked, fail };
}

type Message = { type: string; payload?: { data?: { turnEvents?: { id: string; turnId: string; type: string; at: string } } } };

/**
 * One subscriber on raw-ws-client.ts: its receipt time is taken once per socket read, when the
 * read's frames reach this process (they were all read at that moment), before any is decoded;
 * the wall-clock receipt is the monotonic one plus the offset between the clocks, taken once.
 */
function subscribeRaw(url: string, processId: string): Subscriber {
  let socket: RawWs;
  let isAcked = false;
  const { sub, acked, fail } = subscriberState(() => socket.close(1000));
  const protocol: Protocol = { sub, processId, send: (text) => socket.send(text), acked: () => { isAcked = true; acked(); }, fail };
  const open = (attempt: number): void => {
    const retry = retrier(attempt, () => isAcked, fail, open);
    socket = rawWebSocket(url, 'graphql-transport-ws', {
      open: () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${TOKEN}` } })),
      error: (err) => (isAcked ? fail(err) : retry(err)),
      close: (code, reason) => {
        if (code !== 1000) retry(new Error(`socket closed ${code} ${reason}`));
      },
      messages: (buf, starts, ends) => {
        const recvMono = mono();
        const recv = recvMono + WALL_MINUS_MONO;
        for (let i = 0; i < starts.length; i++) {
          const msg = JSON.parse(buf.toString('utf8', starts[i], ends[i])) as Message;
          onProtocolMessage(msg, recv, recvMono, protocol);
        }
      },
    });
  };
  open(1);
  return sub;
}

const WALL_MINUS_MONO = now() - mono();

function onNext(sub: Subscriber, msg: Message, recv: number, recvMono: number): void {
  const e = msg.payload?.data?.turnEvents;
  if (!e) return;
  if (e.type === 'TextDelta') sub.events.push({ id: e.id, turnId: e.turnId, type: e.type, at: Date.parse(e.at), recv, recvMono });
  if (e.type === 'TurnFinished' || e.type === 'TurnFailed') {
    sub.finished++;
    sub.onFinish?.();
  }
}

/**
 * One graphql-ws subscriber on a `ws` WebSocket (BENCH_FANOUT_CLIENT=ws: the earlier client, for
 * comparison): the graphql-transport-ws protocol (connection_init → connection_ack → subscribe →
 * next…, pings answered), without graphql-ws's client around it, which took 25–40 µs of this
 * process per message.
 */
function subscribeWs(url: string, processId: string): Subscriber {
  let socket: WebSocket;
  let isAcked = false;
  const { sub, acked, fail } = subscriberState(() => socket.close(1000));
  const protocol: Protocol = { sub, processId, send: (text) => socket.send(text), acked: () => { isAcked = true; acked(); }, fail };
  const open = (attempt: number): void => {
    socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', { perMessageDeflate: false });
    const retry = retrier(attempt, () => isAcked, fail, open);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${TOKEN}` } })));
    socket.on('error', (err) => (isAcked ? fail(err) : retry(err)));
    socket.on('close', (code, reason) => {
      if (code !== 1000) retry(new Error(`socket closed ${code} ${String(reason)}`));
    });
    socket.on('message', (data) => onMessage(data));
  };
  const onMessage = (data: WebSocket.RawData): void => {
    const recv = now();
    const recvMono = mono();
    onProtocolMessage(JSON.parse(String(data)) as Message, recv, recvMono, protocol);
  };
  open(1);
  return sub;
}

/** What the graphql-transport-ws protocol needs of a subscriber's connection, whichever client carries it. */
interface Protocol {
  readonly sub: Subscriber;
  readonly processId: string;
  send(text: string): void;
  acked(): void;
  fail(error: unknown): void;
}

/** One server message: a `next` is recorded, the ack answered with the subscription, a ping with a pong. */
function onProtocolMessage(msg: Message, recv: number, recvMono: number, protocol: Protocol): void {
  switch (msg.type) {
    case 'next':
      return onNext(protocol.sub, msg, recv, recvMono);
    case 'connection_ack':
      protocol.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: EVENTS, variables: { id: protocol.processId } } }));
      return protocol.acked();
    case 'ping':
      return protocol.send('{"type":"pong"}');
    case 'error':
      return protocol.fail(msg.payload);
    default:
      return undefined;
  }
}

const CONNECT_ATTEMPTS = 5;

/**
 * Before its ack a connection is tried again, as graphql-ws's client does with retries: on a
 * machine at load 15–25, the server's 3 s connection_init wait (graphql-ws's default) closed
 * sockets with 4408 while their init was queued, and a few connects were reset. Once per attempt.
 */
function retrier(attempt: number, isAcked: () => boolean, fail: (error: unknown) => void, open: (attempt: number) => void): (error: unknown) => void {
  let retried = false;
  return (error) => {
    if (retried) return;
    retried = true;
    if (isAcked() || attempt >= CONNECT_ATTEMPTS) return fail(error);
    setTimeout(() => open(attempt + 1), 200 * attempt);
  };
}

/** Resolves once `done()` holds, checked whenever a subscriber sees a turn finish; rejects when one fails. */
export async function waitFor(subs: Subscriber[], done: () => boolean, ms: number, what: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what()}`)), ms); // what() says how far they got
      const check = () => {
        const failed = subs.find((s) => s.error);
        if (failed) reject(new Error(`subscriber failed: ${failed.error instanceof Error ? failed.error.message : JSON.stringify(failed.error)}`));
        else if (done()) resolve();
      };
      for (const s of subs) s.onFinish = check;
      check();
    });
  } finally {
    clearTimeout(timer);
    for (const s of subs) s.onFinish = null;
  }
}

/** Resolves when every subscriber has seen `counts[i]` finished turns. */
export function allFinished(subs: Subscriber[], counts: readonly number[], ms: number, what: string): Promise<void> {
  const behind = () => subs.filter((s, i) => s.finished < counts[i]!).length;
  return waitFor(subs, () => behind() === 0, ms, () => `${what}: ${behind()} of ${subs.length} subscribers did not see TurnFinished`);
}

/**
 * A subscription is known to be live only once it delivered an event, and one whose subscribe was
 * still queued on the server misses the turn. So short sync turns run (up to SYNC_TURNS) until every
 * subscriber has seen one finish; each waits for the turn itself to end (its first subscriber), then
 * briefly for the rest.
 */
export async function syncTurns(url: string, processId: string, subs: Subscriber[]): Promise<void> {
  for (let turn = 1; subs.some((s) => s.finished === 0); turn++) {
    if (turn > SYNC_TURNS) throw new Error(`${subs.filter((s) => s.finished === 0).length} of ${subs.length} subscribers saw none of ${SYNC_TURNS} sync turns`);
    await gql(url, SEND, { id: processId, text: `sync turn ${turn}, short answer` });
    await waitFor(subs, () => subs.some((s) => s.finished >= turn), 60_000, () => `sync turn ${turn} did not finish for any subscriber`);
    await waitFor(subs, () => subs.every((s) => s.finished > 0), 5_000, () => '').catch(() => undefined);
  }
}

export interface FanOutResult {
  subscribers: number; deltas: number; atLat: number[]; pubLat: number[]; turnMs: number;
  /** CPU ms of the server and of the clients' process over the measured turns. */
  serverCpuMs: number; clientCpuMs: number;
  /** TextDeltas published per event-loop turn that published any (the server's batching). */
  deltasPerPublishTurn: number;
}

export async function fanOut(s: Settings, server: ServerHandle, n: number, processId: string, measuredTurns: number): Promise<FanOutResult> {
  const { url } = server.info;
  const subs: Subscriber[] = [];
  try {
    // A batch opens when the one before is acknowledged: opened on a timer (100 per 100 ms), 5,000
    // connections outran a loaded server's accepts, its listen queue (511) overflowed (the kernel's
    // ListenOverflows counter grew), and connections were dropped or reset — which graphql-ws's
    // client, not retrying, left unreported until the 200 s connect timeout.
    for (let i = 0; i < n; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, n - i) }, () => subscribe(url, processId));
      subs.push(...batch);
      await withTimeout(Promise.all(batch.map((x) => x.connected)), 60_000, `subscribers ${i + 1}–${i + batch.length} of ${n} connecting`);
    }
    await syncTurns(url, processId, subs);
    for (const x of subs) x.events.length = 0;
    // Drops the sync turns' publish times; CPU is counted from here.
    const { cpuMs: serverCpu0 } = JSON.parse(await server.request('times')) as { cpuMs: number };
    const clientCpu0 = cpuMs();

    const seen = subs.map((x) => x.finished);
    const t0 = now();
    for (let t = 0; t < measuredTurns; t++) {
      await gql(url, SEND, { id: processId, text: longText(s.longChars) });
      await allFinished(subs, seen.map((k) => k + t + 1), Math.max(90_000, n * 60), `measured turn ${t + 1} with ${n} subscribers`);
    }
    const turnMs = (now() - t0) / measuredTurns;
    const clientCpuMs = cpuMs() - clientCpu0;
    const { published, publishTurns, cpuMs: serverCpu1 } = JSON.parse(await server.request('times')) as { published: Record<string, number>; publishTurns: number; cpuMs: number };
    const atLat: number[] = [];
    const pubLat: number[] = [];
    for (const x of subs) {
      for (const e of x.events) {
        atLat.push(e.recv - e.at);
        const p = published[e.id];
        if (p !== undefined) pubLat.push(e.recvMono - p);
      }
    }
    const deltas = subs[0]!.events.length / measuredTurns;
    return { subscribers: n, deltas, atLat, pubLat, turnMs, serverCpuMs: serverCpu1 - serverCpu0, clientCpuMs, deltasPerPublishTurn: Object.keys(published).length / Math.max(1, publishTurns) };
  } finally {
    for (const x of subs) x.close();
  }
}


