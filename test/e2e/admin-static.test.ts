/**
 * api/src/graphql/admin-static.ts on its own (no browser): content types, SPA fallback, a missing
 * asset is a 404, no directory traversal, GET/HEAD only, and the redirect from /admin to /admin/.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAdmin } from '../../api/src/graphql/admin-static';

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
});
