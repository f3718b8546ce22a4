// `npm run dev`: the API (restarted on change, node --watch + tsx) and the Vite dev server with hot
// reload, which proxies /graphql (HTTP and WebSocket) to the API. Open http://127.0.0.1:5173/admin/.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const children = [
  spawn(process.execPath, ['--no-node-snapshot', '--watch-path=api/src', '--import', 'tsx', 'api/src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn('npx', ['vite', '--host', process.env.HOST ?? '127.0.0.1'], { cwd: path.join(root, 'admin'), stdio: 'inherit' }),
];
const stop = (code) => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
