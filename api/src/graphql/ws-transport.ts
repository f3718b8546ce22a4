/**
 * graphql-ws's server core (`makeServer`) on a `ws` server, as graphql-ws's own `useServer` does it
 * (protocol negotiation, keep-alive pings, close on a handler error), with one change: a socket's
 * messages reach the core through a MessagePacer, so one socket's burst of frames cannot hold the
 * event loop (ws-message-pacer.ts says why). `useServer` hands each frame over as `ws` emits it
 * and offers no hook for that.
 */
import { randomUUID } from 'node:crypto';
import { CloseCode, handleProtocols, makeServer, type Disposable, type ServerOptions } from 'graphql-ws';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import type { NextOutlet } from './direct-next';
import { MessagePacer } from './ws-message-pacer';
import { textFrame } from './ws-text-frame';

export interface PacedTransportOptions {
  /** Messages of one socket handed to graphql-ws per event-loop turn. */
  readonly messagesPerTurn: number;
  /** Waiting messages at which the socket is paused (TCP backpressure) until half have gone. */
  readonly pauseAt: number;
  /** Ping interval; a socket that has not answered the previous ping by the next is terminated. */
  readonly keepAliveMs: number;
  readonly logger: Logger;
  /** false: a close reason says "Internal server error" instead of the exception's message. */
  readonly devErrors: boolean;
}

/** What graphql-ws's `ctx.extra` holds for each socket (as with `useServer`). */
export interface WsExtra {
  readonly socket: WebSocket;
  readonly request: import('node:http').IncomingMessage;
}

/**
 * A `next` message's payload already encoded as JSON (shared-subscription-results.ts), for onNext
 * to return: the socket gets the encoded text, not a fresh encoding of the result per subscriber.
 * graphql-ws encodes the message `{ id, type, payload }` itself and hands the text to `send` in the
 * same synchronous step; `toJSON` leaves the encoded payload in `spliced` and a marker in the
 * message, and `send` puts the payload in the marker's place. The marker holds a random id, so no
 * data a client sent can look like it.
 */
export class SerializedPayload {
  private tailBytes: Buffer | null = null;

  constructor(readonly json: string) {}

  /** The end of every `next` message of this payload, `<json>}` in UTF-8: encoded once, for all its subscribers. */
  get tail(): Buffer {
    return (this.tailBytes ??= Buffer.from(`${this.json}}`));
  }

  toJSON(): string {
    spliced = this.json;
    return MARKER;
  }
}

const MARKER = `vance-serialized-payload-${randomUUID()}`;
const MARKED_END = `"payload":"${MARKER}"}`;
let spliced: string | null = null;

/** `data` with a SerializedPayload's marker replaced by its JSON. */
export function withSplicedPayload(data: string): string {
  const json = spliced;
  spliced = null;
  if (json === null || !data.endsWith(MARKED_END)) return data;
  return `${data.slice(0, data.length - MARKER.length - 3)}${json}}`;
}

/**
 * Where subscription `id`'s `next` messages go straight onto `socket` (direct-next.ts): the message
 * is the payload encoded once with the id spliced in, byte for byte what graphql-ws would send,
 * framed here from the payload's bytes shared by all its subscribers (ws-text-frame.ts).
 * A socket with more than DIRECT_WRITE_LIMIT bytes waiting takes nothing here: its messages go
 * graphql-ws's way, which waits for each write, so a slow reader cannot make us buffer without bound.
 */
export function nextOutlet(socket: WebSocket, id: string): NextOutlet {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  let headBytes: Buffer | null = null;
  return {
    write: (payload) => {
      if (socket.readyState !== socket.OPEN || socket.bufferedAmount > DIRECT_WRITE_LIMIT) return false;
      corkForThisTurn(socket);
      // Without extensions (permessage-deflate is off: ws-server.ts) ws's sender queues nothing and
      // frames nothing differently, so a whole frame written on its socket is what send would write.
      const raw = rawSocketOf(socket);
      if (raw && socket.extensions === '') raw.write(textFrame(headBytes ??= Buffer.from(head), payload.tail));
      else socket.send(`${head}${payload.json}}`);
      return true;
    },
  };
}

const DIRECT_WRITE_LIMIT = 1 << 20;

/**
 * Several events for one socket in one event-loop turn (a burst of TextDeltas, a batch of NOTIFYs)
 * leave in one write system call: the socket is corked at its first message of the turn and uncorked
 * in the check phase. On loopback the write is most of a delivery's cost (a CPU profile of 1,000
 * subscribers: writev 12.5 % of the server's time, more than the rest of the path together).
 * `_socket` is ws's own net.Socket (private in its types, stable across ws 8).
 */
function corkForThisTurn(socket: WebSocket): void {
  const raw = rawSocketOf(socket);
  if (!raw || corked.has(raw)) return;
  raw.cork();
  corked.add(raw);
  if (corked.size === 1) setImmediate(uncorkAll);
}

const corked = new Set<import('node:net').Socket>();

function rawSocketOf(socket: WebSocket): import('node:net').Socket | undefined {
  return (socket as unknown as { _socket?: import('node:net').Socket })._socket;
}

function uncorkAll(): void {
  for (const raw of corked) raw.uncork();
  corked.clear();
}

export function servePaced<E extends Record<PropertyKey, unknown>>(options: ServerOptions<Record<string, unknown> | undefined, E & WsExtra>, wss: WebSocketServer, transport: PacedTransportOptions): Disposable {
  const server = makeServer(options);
  const { logger } = transport;
  const reason = (err: unknown): string =>
    transport.devErrors ? (err instanceof Error ? err.message : String(err)).slice(0, 120) : 'Internal server error';
  wss.options.handleProtocols = handleProtocols;
  wss.once('error', (err) => {
    logger.error({ err }, 'the WebSocket server failed');
    for (const client of wss.clients) client.close(CloseCode.InternalServerError, reason(err));
  });

  wss.on('connection', (socket, request) => {
    socket.once('error', (err) => {
      logger.warn({ err }, 'a WebSocket failed');
      socket.close(CloseCode.InternalServerError, reason(err));
    });
    let pongWait: NodeJS.Timeout | null = null;
    const pingInterval = transport.keepAliveMs > 0
      ? setInterval(() => {
        if (socket.readyState !== socket.OPEN) return;
        pongWait = setTimeout(() => socket.terminate(), transport.keepAliveMs);
        socket.once('pong', () => {
          if (pongWait) clearTimeout(pongWait);
          pongWait = null;
        });
        socket.ping();
      }, transport.keepAliveMs)
      : null;

    let onMessage: ((data: string) => Promise<void>) | null = null;
    const deliver = (data: string): void => {
      onMessage?.(data).catch((err: unknown) => {
        logger.error({ err }, 'a graphql-ws message handler failed');
        socket.close(CloseCode.InternalServerError, reason(err));
      });
    };
    const pacer = new MessagePacer(socket, deliver, transport.messagesPerTurn, transport.pauseAt);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (text) => {
          const data = withSplicedPayload(text);
          return new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => (err ? reject(err) : resolve()));
          });
        },
        close: (code, why) => socket.close(code, why),
        onMessage: (cb) => {
          onMessage = cb;
          socket.on('message', (data) => pacer.push(String(data)));
        },
      },
      { socket, request } as unknown as E & WsExtra,
    );
    socket.once('close', (code, why) => {
      pacer.stop();
      if (pongWait) clearTimeout(pongWait);
      if (pingInterval) clearInterval(pingInterval);
      void closed(code, String(why));
    });
  });

  return {
    dispose: async () => {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
