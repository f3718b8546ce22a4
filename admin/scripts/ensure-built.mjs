// `npm start` calls this: builds the dashboard when admin/dist/index.html is missing, else does nothing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const adminDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (existsSync(path.join(adminDir, 'dist', 'index.html'))) process.exit(0);
console.log('admin/dist is missing: building the dashboard');
const result = spawnSync('npm', ['run', 'build', '-w', 'admin'], { cwd: path.dirname(adminDir), stdio: 'inherit' });
process.exit(result.status ?? 1);
