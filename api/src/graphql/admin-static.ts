/**
 * Serves the built dashboard (admin/dist, built by `npm run build:admin`) at /admin on the API's
 * port: files by extension with their content type, index.html for every other path under /admin
 * (SPA fallback), nothing outside admin/dist (no directory traversal), GET and HEAD only.
 * The dashboard itself is a client of /graphql like any other; this module only ships its files.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from '../config';

export const ADMIN_PREFIX = '/admin';
export const ADMIN_DIST = path.join(REPO_ROOT, 'admin', 'dist');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** True when the request was for /admin (answered here); false lets the caller route it. */
export async function serveAdmin(req: IncomingMessage, res: ServerResponse, pathname: string, root: string = ADMIN_DIST): Promise<boolean> {
  if (pathname !== ADMIN_PREFIX && !pathname.startsWith(`${ADMIN_PREFIX}/`)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed');
    return true;
  }
  if (pathname === ADMIN_PREFIX) {
    res.writeHead(308, { location: `${ADMIN_PREFIX}/` });
    res.end();
    return true;
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(ADMIN_PREFIX.length + 1));
  } catch {
    sendText(res, 400, 'Bad path');
    return true;
  }
  const file = path.resolve(root, relative);
  const found = relative && !relative.includes('\0') && file.startsWith(root + path.sep) && (await isFile(file)) ? file : null;
  // A missing asset is a 404 (a stale hashed bundle must not get index.html as JavaScript); every
  // other path is a client-side route and gets index.html. Traversal never reads outside root.
  if (!found && (relative.startsWith('assets/') || !file.startsWith(root + path.sep) && file !== root)) {
    sendText(res, 404, 'Not found');
    return true;
  }
  const target = found ?? path.join(root, 'index.html');
  const info = await isFile(target);
  if (!info) {
    sendText(res, 404, 'The dashboard is not built: run `npm run build:admin` (npm start does it when admin/dist is missing)');
    return true;
  }
  const immutable = found !== null && relative.startsWith('assets/');
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(target).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await new Promise<void>((resolve, reject) => {
    createReadStream(target).on('error', reject).on('end', resolve).pipe(res);
  });
  return true;
}

async function isFile(file: string): Promise<{ size: number } | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? { size: s.size } : null;
  } catch {
    return null;
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
