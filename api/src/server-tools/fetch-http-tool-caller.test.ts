import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretNotBoundError, ToolCallFailedError } from '../domain/tools/tool-call-errors';
import type { OutboundRequest } from '../domain/tools/http-tool-caller';
import { FetchHttpToolCaller } from './fetch-http-tool-caller';
import { isPrivateAddress } from './public-address';

describe('the HTTP adapter of tool documents', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(10_000));
      else if (req.url === '/loop') { res.statusCode = 302; res.setHeader('location', '/loop'); res.end(); }
      else if (req.url === '/elsewhere') { res.statusCode = 307; res.setHeader('location', 'http://localhost:1/x'); res.end(); }
      else res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => { server.close(); });

  const request = (path: string, more: Partial<OutboundRequest> = {}): OutboundRequest => ({
    method: 'GET', url: new URL(path, origin), headers: {}, body: null, timeoutMs: 10_000, maxResponseBytes: 1_000, secretOrigins: null, secretSettings: [], ...more,
  });

  it('refuses loopback and private addresses unless the server allows them', async () => {
    await expect(new FetchHttpToolCaller().send(request('/'))).rejects.toThrow(/private or loopback address \(127\.0\.0\.1\)/);
    expect((await new FetchHttpToolCaller({ privateNetwork: true }).send(request('/'))).body).toBe('ok');
    for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '192.168.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1']) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('cuts the body at the cap and stops after five redirects', async () => {
    const caller = new FetchHttpToolCaller({ privateNetwork: true });
    expect(await caller.send(request('/big'))).toMatchObject({ status: 200, truncated: true, body: 'x'.repeat(1_000) });
    await expect(caller.send(request('/loop'))).rejects.toBeInstanceOf(ToolCallFailedError);
  });

  it('refuses a redirect that would carry a secret to another origin, before following it', async () => {
    const caller = new FetchHttpToolCaller({ privateNetwork: true });
    const secret = { headers: { authorization: 'Bearer k' }, secretOrigins: [origin], secretSettings: ['wx.apiKey'] };
    await expect(caller.send(request('/elsewhere', secret))).rejects.toBeInstanceOf(SecretNotBoundError);
  });
});
