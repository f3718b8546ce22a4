/**
 * The e2e suite serves admin/dist: build it when it is missing or older than any source file
 * (admin/src, index.html, vite.config.ts, package.json). A fresh build takes a few seconds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ADMIN_DIR = path.resolve(__dirname, '../../admin');

function newestMtime(entry: string): number {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

export function ensureAdminBuilt(): void {
  const index = path.join(ADMIN_DIR, 'dist', 'index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) => path.join(ADMIN_DIR, p));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  execFileSync(process.execPath, [path.resolve(ADMIN_DIR, '../node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ADMIN_DIR, stdio: 'inherit' });
}
