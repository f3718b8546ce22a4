/**
 * api/src/graphql/admin-static.ts on its own (no browser): content types, SPA fallback, a missing
 * asset is a 404, no directory traversal, GET/HEAD only, and the redirect from /admin to /admin/.
 * Issue 17 point 7: the precompressed copy the client accepts (br before gzip, q=0 refuses), Vary,
 * cache headers per file type (hashed assets immutable, index.html no-cache) and 304 on a matching ETag.
 */
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAdmin } from '../../api/src/graphql/admin-static';

const BIG_JS = `export const x = ${JSON.stringify('abc'.repeat(2000))};`;

/** A raw GET (fetch would decode and hide the encoding): status, headers, body bytes. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

describe('serveAdmin', () => {
  let parent: string;
  let root: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'vance-admin-'));
    root = path.join(parent, 'dist');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>admin</title>');
    writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'assets', 'app.css'), 'body{}');
    writeFileSync(path.join(root, 'assets', 'big.js'), BIG_JS);
    writeFileSync(path.join(root, 'assets', 'big.js.br'), brotliCompressSync(BIG_JS));
    writeFileSync(path.join(root, 'assets', 'big.js.gz'), gzipSync(BIG_JS));
    writeFileSync(path.join(root, 'assets', 'only-gz.css'), BIG_JS);
    writeFileSync(path.join(root, 'assets', 'only-gz.css.gz'), gzipSync(BIG_JS));
    writeFileSync(path.join(root, 'assets', 'logo.png'), 'png');
    writeFileSync(path.join(root, 'assets', 'logo.png.gz'), gzipSync('png'));
    writeFileSync(path.join(root, 'index.html.br'), brotliCompressSync('<!doctype html><title>admin</title>'));
    writeFileSync(path.join(parent, 'secret.txt'), 'secret');
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      void serveAdmin(req, res, url.pathname, root).then((done) => {
        if (!done) res.writeHead(404).end('not admin');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(parent, { recursive: true, force: true });
  });

  it('serves files with their content type and index.html for client routes', async () => {
    const js = await fetch(`${base}/admin/assets/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base}/admin/assets/app.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const route of ['/admin/', '/admin/skills/x/show', '/admin/index.html']) {
      const res = await fetch(`${base}${route}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<title>admin</title>');
    }
  });

  it('answers 404 for a missing asset and never reads outside the dist folder', async () => {
    expect((await fetch(`${base}/admin/assets/gone.js`)).status).toBe(404);
    for (const evil of ['/admin/..%2fsecret.txt', '/admin/%2e%2e/secret.txt', '/admin/assets/..%2f..%2fsecret.txt', '/admin/%00']) {
      const res = await fetch(`${base}${evil}`);
      expect(await res.text()).not.toContain('secret');
    }
  });

  it('redirects /admin, refuses writes and leaves other paths alone', async () => {
    const redirect = await fetch(`${base}/admin`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/admin/');
    expect((await fetch(`${base}/admin/`, { method: 'POST' })).status).toBe(405);
    expect(await (await fetch(`${base}/administrator`)).text()).toBe('not admin');
    expect((await fetch(`${base}/admin/`, { method: 'HEAD' })).status).toBe(200);
  });

  it('serves the precompressed copy the client accepts, with Vary and the right length', async () => {
    const br = await get(`${base}/admin/assets/big.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(BIG_JS.length / 10);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);
    const gz = await get(`${base}/admin/assets/big.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);
    const refusals: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }];
    for (const refused of refusals) {
      const plain = await get(`${base}/admin/assets/big.js`, refused);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(BIG_JS);
    }
    // Only a .gz beside it: a br-only client gets the file as is, a gzip one the .gz.
    expect((await get(`${base}/admin/assets/only-gz.css`, { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get(`${base}/admin/assets/only-gz.css`, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('gzip');
    // Images are never served with an encoding, whatever lies beside them.
    const png = await get(`${base}/admin/assets/logo.png`, { 'accept-encoding': 'gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.toString()).toBe('png');
    // index.html for a client route, compressed too.
    const route = await get(`${base}/admin/processes/x/log`, { 'accept-encoding': 'br' });
    expect(route.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(route.body).toString()).toContain('<title>admin</title>');
  });

  it('caches hashed assets for good and revalidates index.html, answering 304 to a matching ETag', async () => {
    for (const asset of ['/admin/assets/big.js', '/admin/assets/app.css', '/admin/assets/logo.png']) {
      expect((await get(`${base}${asset}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    for (const page of ['/admin/', '/admin/index.html', '/admin/skills/x/show']) {
      expect((await get(`${base}${page}`)).headers['cache-control']).toBe('no-cache');
    }
    const first = await get(`${base}/admin/`, { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get(`${base}/admin/`, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
    // Each encoding has its own ETag: the raw file is not "not modified" for the br one's tag.
    const plain = await get(`${base}/admin/`, { 'if-none-match': etag });
    expect(plain.status).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);
    expect((await get(`${base}/admin/`, { 'if-none-match': `"other", ${String(plain.headers.etag)}` })).status).toBe(304);
  });
});
