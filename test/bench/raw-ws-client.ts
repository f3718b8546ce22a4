/**
 * A minimal WebSocket client on a plain TCP socket, for the fan-out bench's subscribers
 * (fan-out-clients.ts): the HTTP upgrade, a frame reader and masked frames out — no more. The
 * clients share the server's two cores, and `ws`'s client cost ≈ 14–24 µs of their process per
 * message (its Receiver is a Writable stream per socket, UTF-8 validation, an event per message);
 * that time queued the clients' reads and was measured as the server's latency.
 *
 * It reads what the server sends as RFC 6455 says (unmasked frames, 7/16/64-bit lengths, ping →
 * pong, close) and handles only what a graphql-ws server sends: whole text frames, no extensions
 * (permessage-deflate is off on our server), no fragmentation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawWsHandlers {
  /** The socket is upgraded: text can be sent. */
  open: () => void;
  /**
   * Text frames of one read: `buf` holds them between `starts[i]` and `ends[i]`, all read at the
   * same moment (the caller takes its receipt time once per read).
   */
  messages: (buf: Buffer, starts: readonly number[], ends: readonly number[]) => void;
  close: (code: number, reason: string) => void;
  error: (err: Error) => void;
}

export interface RawWs {
  send: (text: string) => void;
  close: (code: number) => void;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export function rawWebSocket(url: string, protocol: string, on: RawWsHandlers): RawWs {
  const { hostname, port, pathname, search } = new URL(url);
  const key = randomBytes(16).toString('base64');
  const socket: Socket = connect({ host: hostname, port: Number(port), noDelay: true });
  let upgraded = false;
  let closed = false;
  let pending: Buffer | null = null;
  const starts: number[] = [];
  const ends: number[] = [];

  const fail = (err: Error): void => {
    if (closed) return;
    closed = true;
    socket.destroy();
    on.error(err);
  };
  const write = (opcode: number, payload: Buffer): void => {
    if (!socket.writable) return;
    socket.write(frame(opcode, payload));
  };

  socket.on('connect', () => {
    socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
      + `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`);
  });
  socket.on('error', fail);
  socket.on('close', () => {
    if (closed) return;
    closed = true;
    on.close(1006, 'connection closed');
  });
  socket.on('data', (chunk: Buffer) => {
    const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    let at = 0;
    if (!upgraded) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return void (pending = buf);
      const head = buf.toString('latin1', 0, end);
      const accept = createHash('sha1').update(key + GUID).digest('base64');
      if (!head.startsWith('HTTP/1.1 101') || !head.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`)) {
        return fail(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
      }
      upgraded = true;
      on.open();
      at = end + 4;
    }
    starts.length = 0;
    ends.length = 0;
    while (buf.length - at >= 2) {
      const opcode = buf[at]! & 0x0f;
      let length = buf[at + 1]! & 0x7f;
      let header = 2;
      if (length === 126) {
        if (buf.length - at < 4) break;
        length = buf.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (buf.length - at < 10) break;
        length = Number(buf.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (buf.length - at < header + length) break;
      const start = at + header;
      at = start + length;
      if (opcode === 0x1) {
        starts.push(start);
        ends.push(at);
      } else if (opcode === 0x9) {
        write(0xa, buf.subarray(start, at));
      } else if (opcode === 0x8) {
        const code = length >= 2 ? buf.readUInt16BE(start) : 1005;
        const reason = buf.toString('utf8', start + 2, at);
        if (!closed) write(0x8, buf.subarray(start, start + Math.min(2, length)));
        closed = true;
        socket.end();
        on.close(code, reason);
        return;
      } else if (opcode !== 0xa) {
        return fail(new Error(`unexpected frame opcode ${opcode}`));
      }
    }
    if (at < buf.length) pending = buf.subarray(at);
    if (starts.length > 0) on.messages(buf, starts, ends);
  });

  return {
    send: (text) => write(0x1, Buffer.from(text)),
    close: (code) => {
      if (closed) return;
      const payload = Buffer.alloc(2);
      payload.writeUInt16BE(code);
      write(0x8, payload);
      closed = true;
      socket.end();
    },
  };
}

/** A client frame: FIN, masked (RFC 6455 §5.3: every client frame is), with a random key. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(header + 4 + length);
  out[0] = 0x80 | opcode;
  if (length < 126) out[1] = 0x80 | length;
  else if (length < 65536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(length, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(out, header);
  for (let i = 0; i < length; i++) out[header + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return out;
}
