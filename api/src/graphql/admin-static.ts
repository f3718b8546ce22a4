/**
 * Serves the built dashboard (admin/dist, built by `npm run build:admin`) at /admin on the API's
 * port: files by extension with their content type, index.html for every other path under /admin
 * (SPA fallback), nothing outside admin/dist (no directory traversal), GET and HEAD only.
 * Compressed where the client accepts it: the build writes `<file>.br` / `<file>.gz` beside each text
 * file (admin/vite.config.ts), served with Content-Encoding and `Vary: Accept-Encoding`. Hashed assets
 * are immutable; index.html is revalidated every time (no-cache), cheaply: an ETag answers 304.
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
  const encoding = await negotiate(req.headers['accept-encoding'], target);
  const served = encoding ? `${target}.${encoding.ext}` : target;
  const servedInfo = encoding ? encoding.info : info;
  // The ETag names the bytes sent: each encoding of a file has its own.
  const etag = `W/"${servedInfo.size.toString(16)}-${Math.floor(servedInfo.mtimeMs).toString(16)}${encoding ? `-${encoding.ext}` : ''}"`;
  const headers: Record<string, string | number> = {
    'content-type': CONTENT_TYPES[path.extname(target).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    etag,
    ...(COMPRESSIBLE.has(path.extname(target).toLowerCase()) ? { vary: 'Accept-Encoding' } : {}),
  };
  if (ifNoneMatch(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(200, { ...headers, 'content-length': servedInfo.size, ...(encoding ? { 'content-encoding': encoding.name } : {}) });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await new Promise<void>((resolve, reject) => {
    createReadStream(served).on('error', reject).on('end', resolve).pipe(res);
  });
  return true;
}

/** Text files the build precompresses (admin/vite.config.ts). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
const ENCODINGS = [{ name: 'br', ext: 'br' }, { name: 'gzip', ext: 'gz' }] as const;

/** The best precompressed copy the client accepts (q=0 refuses an encoding), or null for the file as is. */
async function negotiate(header: string | string[] | undefined, file: string): Promise<{ name: string; ext: string; info: FileInfo } | null> {
  if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) return null;
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  for (const encoding of ENCODINGS) {
    const q = accepted.get(encoding.name) ?? (accepted.has('*') ? accepted.get('*')! : 0);
    if (!(q > 0)) continue;
    const info = await isFile(`${file}.${encoding.ext}`);
    if (info) return { ...encoding, info };
  }
  return null;
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

interface FileInfo { size: number; mtimeMs: number }

async function isFile(file: string): Promise<FileInfo | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
  } catch {
    return null;
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
