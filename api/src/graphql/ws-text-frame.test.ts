import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { nextOutlet, SerializedPayload } from './ws-transport';
import { textFrame } from './ws-text-frame';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
  }
});

/** A real `ws` server and client on loopback; resolves with the server's side of the connection. */
async function pair(): Promise<{ server: WebSocket; client: WebSocket; received: string[] }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(wss);
  await once(wss, 'listening');
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const received: string[] = [];
  client.on('message', (data, isBinary) => received.push(isBinary ? '(binary)' : String(data)));
  const [server] = (await once(wss, 'connection')) as [WebSocket];
  await once(client, 'open');
  return { server, client, received };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('direct next frames written on the raw socket', () => {
  it('arrive at a ws client as the very text graphql-ws would send, at every length form of the frame header', async () => {
    const { server, received } = await pair();
    const outlet = nextOutlet(server, 'sub-"é"');
    // 7-bit, 16-bit and 64-bit payload lengths (RFC 6455 §5.2), with multi-byte characters: bytes, not chars, count.
    const payloads = ['{"data":null}', JSON.stringify({ data: { text: 'ü€'.repeat(40) } }), JSON.stringify({ data: { text: 'x'.repeat(70_000) } })];
    for (const json of payloads) expect(outlet.write(new SerializedPayload(json))).toBe(true);
    await until(() => received.length === payloads.length);
    expect(received).toEqual(payloads.map((json) => JSON.stringify({ id: 'sub-"é"', type: 'next', payload: JSON.parse(json) as unknown })));
  });

  it('keep their order with messages ws sends itself on the same socket', async () => {
    const { server, received } = await pair();
    const outlet = nextOutlet(server, '1');
    outlet.write(new SerializedPayload('{"n":1}'));
    server.send('{"id":"1","type":"complete"}');
    outlet.write(new SerializedPayload('{"n":2}'));
    await until(() => received.length === 3);
    expect(received).toEqual(['{"id":"1","type":"next","payload":{"n":1}}', '{"id":"1","type":"complete"}', '{"id":"1","type":"next","payload":{"n":2}}']);
  });

  it('encodes the header lengths at their boundaries (125, 126, 65535, 65536 bytes)', () => {
    const frame = (n: number) => textFrame(Buffer.from('a'), Buffer.alloc(n - 1, 0x62));
    expect([...frame(125).subarray(0, 2)]).toEqual([0x81, 125]);
    expect([...frame(126).subarray(0, 4)]).toEqual([0x81, 126, 0, 126]);
    expect([...frame(65535).subarray(0, 4)]).toEqual([0x81, 126, 0xff, 0xff]);
    expect([...frame(65536).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(frame(65536).length).toBe(65536 + 10);
  });
});
