// The smoke run of issue 12 for the Node versions CI does not run the whole suite on: start the
// built server (`npm run build` first) on a fresh embedded database, do one GraphQL round trip, and
// run one sandboxed skill script in a turn (offline provider), which loads isolated-vm on this Node.
// Usage: node scripts/smoke.mjs   (exit 0 when every step passed; prints one line per step)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
const MAIN = path.join(ROOT, 'api/dist/api/src/main.js');
const token = randomBytes(24).toString('hex');
const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-smoke-'));
const started = Date.now();
const step = (what) => console.log(`smoke [${((Date.now() - started) / 1000).toFixed(1)}s] ${what}`);

function startServer() {
  const child = spawn(process.execPath, ['--no-node-snapshot', MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, VANCE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', VANCE_ADMIN_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Vance did not start in 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`Vance exited early with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.msg === 'Vance is listening') {
        clearTimeout(timer);
        resolve({ child, url: entry.url });
      }
    });
  });
}

async function gql(url, query, variables = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors) throw new Error(`${query.slice(0, 60)}…: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const SKILL = [
  '---',
  'title: Calc',
  'description: Adds two numbers in the sandbox',
  'version: "1.0.0"',
  'scripts:',
  '  - name: add',
  '    target: BRAIN',
  '    file: scripts/add.js',
  '    description: Adds two numbers.',
  '    params:',
  '      - { name: a, type: number, required: true }',
  '      - { name: b, type: number, required: true }',
  '---',
  'Calculator.',
].join('\n');

async function main() {
  step(`node ${process.version}, data dir ${dataDir}`);
  const { child, url } = await startServer();
  try {
    step(`listening on ${url}`);
    const { me } = await gql(url, '{ me { login role } }');
    if (me.login !== 'admin') throw new Error(`me answered ${JSON.stringify(me)}`);
    step(`GraphQL round trip: me = ${me.login} (${me.role})`);

    await gql(url, 'mutation { createProject(name: "smoke") { id } }');
    const put = 'mutation P($path: String!, $content: String!) { putDocument(layer: PROJECT, project: "smoke", path: $path, content: $content) { version } }';
    await gql(url, put, { path: '_vance/recipes/smoke.yaml', content: 'description: Smoke worker\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\n' });
    await gql(url, put, { path: '_vance/skills/calc/SKILL.md', content: SKILL });
    await gql(url, put, { path: '_vance/skills/calc/scripts/add.js', content: '({ sum: args.a + args.b, engine: typeof process })' });
    const { spawnProcess } = await gql(url, 'mutation { spawnProcess(input: { project: "smoke", recipe: "smoke" }) { id } }');
    const id = spawnProcess.id;
    await gql(url, 'mutation A($id: ID!) { activateSkill(processId: $id, name: "calc") { outcome } }', { id });
    await gql(url, 'mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }', { id, text: 'call skill_calc__add {"a": 2, "b": 40}' });

    const deadline = Date.now() + 120_000;
    for (;;) {
      const { messages } = await gql(url, 'query Q($id: ID!) { messages(processId: $id) { role content } }', { id });
      const tool = messages.find((m) => m.role === 'tool');
      if (tool) {
        // `typeof process` is 'undefined' inside the isolate: the script ran sandboxed.
        if (!tool.content.includes('42') || !tool.content.includes('undefined')) throw new Error(`the script answered ${tool.content}`);
        step(`sandboxed script ran in a turn: ${tool.content}`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`no tool result after 120 s: ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const code = await exited;
    step(`stopped (exit ${code})`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`smoke passed on node ${process.version} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

main().catch((err) => {
  console.error(`smoke FAILED on node ${process.version}: ${err.stack ?? err}`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
