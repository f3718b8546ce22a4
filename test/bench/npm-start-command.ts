/**
 * How `npm start` runs the server, read from package.json (the last `&&` step of its start script):
 * the environment it sets, node's flags and the entry. The embedded-start bench starts the server
 * this way, so its figures are those of `npm start` — including MALLOC_MMAP_THRESHOLD_, which makes
 * glibc hand large freed buffers back, and --max-semi-space-size=4, which keeps V8's young generation
 * small (docs/performance.md, Memory).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ServerCommand {
  readonly env: Readonly<Record<string, string>>;
  readonly nodeFlags: readonly string[];
  readonly entry: string;
}

export function npmStartServerCommand(root = path.resolve(__dirname, '../..')): ServerCommand {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`npm start's last step does not run node: ${pkg.scripts.start}`);
  const entry = words.pop();
  if (!entry?.endsWith('.js')) throw new Error(`npm start's last step names no entry: ${pkg.scripts.start}`);
  return { env, nodeFlags: words, entry };
}
