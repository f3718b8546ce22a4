/**
 * Embedded start and server memory (issue 18, items 4 and 5): the real server process (`main.ts`,
 * no DATABASE_URL) started on an empty and on an existing data directory — time to a 200 from
 * /healthz and RSS then and 2 s later — next to a bare `node -e` HTTP server started the same way
 * (the baseline: what any Node process costs here); then, on the existing directory, the server's RSS
 * idle (after a full GC), after 100 and after 1,000 mixed GraphQL operations (putDocument,
 * effectiveDocument, turns on the offline provider, renderTemplate, a sandbox script with a ~0.9 MB
 * result, a tool call with a 0.19 MB argument — a message holds at most 200,000 characters —,
 * spawnProcess), and after a forced GC.
 *
 *   node --no-node-snapshot --import tsx test/bench/embedded-start.ts   (BENCH_TINY=1: the test's sizes;
 *                                                                        BENCH_RUNS=<n> starts of each kind, default 3;
 *                                                                        BENCH_OPS=<n>, default 1000)
 *
 * The full run starts the built server as `npm start` does (it runs `npm run build` first, which
 * also makes the packaged data-directory template); the tiny run (CI) starts `api/src/main.ts`
 * under tsx on an existing directory only (without a build there is no template, and initdb alone
 * takes 10–40 s on a loaded machine). The GC is triggered through gc-on-signal.cjs, preloaded by this
 * bench only. RSS is read from /proc (Linux). Numbers are printed, never asserted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { openDatabase } from '../../api/src/persistence';
import { pgliteTemplate } from '../support/pglite-template';
import { npmStartServerCommand } from './npm-start-command';
import { BenchReport, envNumber, runAsScript, type BenchOptions, type RatioRow } from './harness';

const ROOT = path.resolve(__dirname, '../..');
const GC_HOOK = path.join(__dirname, 'gc-on-signal.cjs');
const TOKEN = 'bench-admin-token-0123456789';
const START_TIMEOUT_MS = 180_000;
/** The issue's targets. */
const TARGET = { emptyMs: 5_000, emptyRssMb: 400, existingMs: 1_500, existingRssMb: 300, afterGcRatio: 1.2 };

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  /** Resolves at the next `gc-done` line of the server's stderr, with the main thread's memoryUsage(). */
  nextGc(): Promise<NodeJS.MemoryUsage>;
}
interface Started { readonly running: Running; readonly healthzMs: number; readonly rssAtHealthzMb: number }

const f = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const range = (values: readonly number[], d = 0): string =>
  values.length === 1 ? f(values[0]!, d) : `${f(Math.min(...values), d)}–${f(Math.max(...values), d)}`;
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** The RSS of the server by kind of mapping, MB (/proc/<pid>/smaps; Linux x64 glibc). */
interface RssByKind { readonly wasm: number; readonly v8Pages: number; readonly malloc: number; readonly files: number; readonly otherAnon: number }

/**
 * Where the RSS is: PGlite's WebAssembly memory (anonymous mappings of 100 MB or more: its memory
 * starts at 128 MB; V8's code ranges are as large but hold little), V8's regular heap pages (anonymous 256 kB mappings, every
 * isolate's: the main thread's, the worker threads', the sandbox's), glibc malloc (the brk heap and
 * its 64 MB-aligned arenas), files (code), and other anonymous mappings (V8's large objects, buffers
 * malloc mmapped, thread stacks).
 */
export function rssByKind(pid: number): RssByKind {
  const kb = { wasm: 0, v8Pages: 0, malloc: 0, files: 0, otherAnon: 0 };
  const ARENA = 64 * 1024 * 1024;
  let kind: keyof typeof kb = 'otherAnon';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (mapping) {
      const [, from, to, , inode, name] = mapping;
      const size = Number(BigInt(`0x${to}`) - BigInt(`0x${from}`));
      const anonymous = inode === '0' && name === '';
      kind = name === '[heap]' || (anonymous && Number(BigInt(`0x${from}`) % BigInt(ARENA)) === 0 && size <= ARENA) ? 'malloc'
        : !anonymous ? (name!.startsWith('[') ? 'otherAnon' : 'files')
        : size >= 100 * 1024 * 1024 ? 'wasm'
        : size === 256 * 1024 ? 'v8Pages' : 'otherAnon';
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  return { wasm: kb.wasm / 1024, v8Pages: kb.v8Pages / 1024, malloc: kb.malloc / 1024, files: kb.files / 1024, otherAnon: kb.otherAnon / 1024 };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** glibc malloc's MALLOC_* variables of this run, passed on (over npm start's) so that their effect on the server's RSS can be measured. */
function mallocSettings(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('MALLOC_') && e[1] !== undefined));
}

/** Spawns `args` and polls GET /healthz until it answers 200; the time is from the spawn. */
export async function startProcess(args: string[], env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, PORT: String(port), ...env, ...mallocSettings() }, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  let gcWaiters: ((usage: NodeJS.MemoryUsage) => void)[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!line.startsWith('gc-done ')) return void stderr.push(line);
    const usage = JSON.parse(line.slice('gc-done '.length)) as NodeJS.MemoryUsage;
    for (const resolve of gcWaiters) resolve(usage);
    gcWaiters = [];
  });
  const running: Running = { child, url, nextGc: () => new Promise((resolve) => gcWaiters.push(resolve)) };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr.join('\n')}`);
    if (performance.now() - started > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`no /healthz in ${START_TIMEOUT_MS / 1000} s`);
    }
    const ok = await fetch(`${url}healthz`).then((r) => r.ok, () => false);
    if (ok) return { running, healthzMs: performance.now() - started, rssAtHealthzMb: rssMb(child.pid!) };
    await sleep(20);
  }
}

export async function stop(running: Running): Promise<void> {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGTERM');
  await exited;
}

interface AfterGc { readonly rssMb: number; readonly heapMb: number; readonly heapUsedMb: number; readonly buffersMb: number; readonly kinds: RssByKind; readonly rss5sMb: number; readonly kinds5s: RssByKind }

/**
 * A full GC of the server's main heap (gc-on-signal.cjs), then its RSS once settled, with the main
 * thread's V8 heap and its external/ArrayBuffer memory: the rest of the RSS is code, the worker
 * threads (PGlite's WebAssembly memory, the validation pool) and the sandbox isolates.
 * Read 0.5 s after the GC (the target's figure) and again 5 s after it, without another GC: by then
 * the validation pool's threads (5 s idle timeout) and the warm script isolates (2 s) have ended,
 * and V8 may have handed back pages it kept; the second figure is printed beside the first.
 */
async function rssAfterGc(running: Running): Promise<AfterGc> {
  const done = running.nextGc();
  running.child.kill('SIGUSR2');
  const usage = await done;
  await sleep(500);
  const pid = running.child.pid!;
  const first = { rssMb: rssMb(pid), heapMb: usage.heapTotal / 2 ** 20, heapUsedMb: usage.heapUsed / 2 ** 20, buffersMb: usage.external / 2 ** 20, kinds: rssByKind(pid) };
  await sleep(4_500);
  return { ...first, rss5sMb: rssMb(pid), kinds5s: rssByKind(pid) };
}

interface Gql { data?: any; errors?: { message: string }[] }

/** The mixed operations of a day-like session, one at a time, each turn awaited to its end. */
export async function sessionClient(url: string) {
  const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<any> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as Gql;
    if (body.errors || !body.data) throw new Error(`${query.slice(0, 60)}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const PUT = 'mutation P($path: String!, $c: String!) { putDocument(layer: PROJECT, project: "lab", path: $path, content: $c) { version } }';
  await gql('mutation { createProject(name: "lab") { id } }');
  await gql(PUT, { path: '_vance/recipes/quick.yaml', c: 'description: Quick worker\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\n' });
  await gql(PUT, { path: '_vance/skills/blob/SKILL.md', c: '---\ntitle: Blob\ndescription: Returns a large text\nversion: "1.0.0"\nscripts:\n  - name: big\n    target: BRAIN\n    file: scripts/big.js\n    description: Returns n characters.\n---\nBlob.\n' });
  await gql(PUT, { path: '_vance/skills/blob/scripts/big.js', c: "'x'.repeat(args.n)" });
  const spawnOne = async (): Promise<string> => {
    const name = `worker-${processes.length + 1}`;
    const id = (await gql('mutation S($n: String!) { spawnProcess(input: { project: "lab", recipe: "quick", name: $n }) { id } }', { n: name })).spawnProcess.id as string;
    await gql('mutation A($id: ID!) { activateSkill(processId: $id, name: "blob") { outcome } }', { id });
    return id;
  };
  const processes: string[] = [];
  processes.push(await spawnOne());
  const finished = new Map<string, number>();
  const turn = async (text: string): Promise<void> => {
    const id = processes[processes.length - 1]!;
    const expected = (finished.get(id) ?? 0) + 1;
    await gql('mutation M($id: ID!, $t: String!) { sendMessage(processId: $id, text: $t) { id } }', { id, t: text });
    const deadline = performance.now() + 60_000;
    for (;;) {
      const turns = (await gql('query T($id: ID!) { turns(processId: $id) { finishedAt } }', { id })).turns as { finishedAt: string | null }[];
      const done = turns.filter((t) => t.finishedAt !== null).length;
      if (done >= expected) return void finished.set(id, done);
      if (performance.now() > deadline) throw new Error(`a turn did not finish in 60 s: ${text.slice(0, 40)}`);
      await sleep(5);
    }
  };
  const note = 'A line of notes that a person wrote during the day.\n'.repeat(40);
  const bigArgument = `call doc_read {"path": "${'x'.repeat(190_000)}"}`;
  const template = '{% for i in range(0, 200) %}{{ i }}: {{ name }}\n{% endfor %}';
  const operations: ((i: number) => Promise<unknown>)[] = [
    (i) => gql(PUT, { path: `notes/day-${i % 50}.md`, c: `${note}${i}\n` }),
    () => gql('{ effectiveDocument(project: "lab", path: "_vance/recipes/quick.yaml") { document { content } } }'),
    (i) => turn(`hello ${i}`),
    () => gql('query R($s: String!, $c: JSON) { renderTemplate(project: "lab", source: $s, context: $c) { output error { code } } }', { s: template, c: { name: 'n'.repeat(1_000) } }),
    () => turn('call skill_blob__big {"n": 900000}'),
    () => turn(bigArgument),
    async () => processes.push(await spawnOne()),
  ];
  let done = 0;
  return {
    /** Runs operations until `total` have run since the start of the session. */
    async runUntil(total: number): Promise<void> {
      for (; done < total; done++) await operations[done % operations.length]!(done);
    },
  };
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const tiny = options.tiny ?? false;
  const report = new BenchReport(options.print, options.summary);
  const print = report.print;
  const runs = tiny ? 1 : envNumber('BENCH_RUNS', 3);
  const totalOps = tiny ? 30 : envNumber('BENCH_OPS', 1_000);
  const firstOps = tiny ? 10 : Math.min(100, totalOps);
  const work = fs.mkdtempSync(path.join(tmpdir(), 'vance-bench-start-'));
  const serverEnv = (dataDir: string): Record<string, string> => ({
    VANCE_DATA_DIR: dataDir, VANCE_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn',
    VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000', VANCE_RATE_TURNS_PER_TOKEN: '1000000', VANCE_RATE_TURNS_PER_TENANT: '1000000',
  });
  const npmStart = npmStartServerCommand();
  const env = (dataDir: string): Record<string, string> => ({ ...npmStart.env, ...serverEnv(dataDir) });
  let server: string[];
  if (tiny) {
    server = [...npmStart.nodeFlags, '--require', GC_HOOK, '--import', 'tsx', 'api/src/main.ts'];
  } else {
    const built = performance.now();
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('npm run build failed');
    print(`npm run build (as npm start runs it; incremental): ${f((performance.now() - built) / 1000, 1)} s`);
    server = [...npmStart.nodeFlags, '--require', GC_HOOK, npmStart.entry];
  }
  const bare = ['-e', "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')"];
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  try {
    print(`\nthe server as npm start runs it: ${Object.entries({ ...npmStart.env, ...mallocSettings() }).map(([k, v]) => `${k}=${v} `).join('')}node ${server.join(' ')}`);
    print(`\nload before: ${load()}`);
    const startTimes = { bare: [] as number[], empty: [] as number[], existing: [] as number[] };
    const rss = { bare: [] as number[], empty: [] as number[], existing: [] as number[] };
    const rssLater = { empty: [] as number[], existing: [] as number[] };
    const existingDir = path.join(work, 'existing');
    if (tiny) {
      // The migrated test template, unpacked: an existing data directory without initdb.
      const db = await openDatabase({ dataDir: existingDir, loadDataDir: await pgliteTemplate() });
      await db.close();
    }
    for (let run = 0; run < runs; run++) {
      const b = await startProcess(bare, {});
      startTimes.bare.push(b.healthzMs);
      rss.bare.push(b.rssAtHealthzMb);
      await stop(b.running);
      // One start of a kind: time to /healthz, RSS then and 2 s later.
      const measureStart = async (kind: 'empty' | 'existing', dir: string): Promise<void> => {
        const started = await startProcess(server, env(dir));
        startTimes[kind].push(started.healthzMs);
        rss[kind].push(started.rssAtHealthzMb);
        await sleep(2_000);
        rssLater[kind].push(rssMb(started.running.child.pid!));
        await stop(started.running);
      };
      if (!tiny) await measureStart('empty', run === 0 ? existingDir : path.join(work, `empty-${run}`));
      await measureStart('existing', existingDir);
    }
    print(`\n### Embedded start (${runs} run${runs > 1 ? 's' : ''} each; ranges; load after: ${load()})\n`);
    print('| start | to /healthz, ms | RSS at /healthz, MB | RSS 2 s later, MB | time ÷ bare node |');
    print('| --- | --- | --- | --- | --- |');
    print(`| bare node:http (\`node -e\`) | ${range(startTimes.bare)} | ${range(rss.bare)} | | 1 |`);
    const table = 'Embedded start ÷ bare node';
    const bareMs = median(startTimes.bare);
    const bareRss = median(rss.bare);
    const kinds = tiny ? (['existing'] as const) : (['empty', 'existing'] as const);
    for (const kind of kinds) {
      const ms = median(startTimes[kind]);
      const after = Math.max(...rssLater[kind], ...rss[kind]);
      const ratio = report.ratio(table, `${kind} data dir, time to /healthz`, ms / bareMs);
      report.ratio(table, `${kind} data dir, RSS`, after / bareRss);
      print(`| Vance, ${kind} data dir | ${range(startTimes[kind])} | ${range(rss[kind])} | ${range(rssLater[kind])} | ${f(ratio, 1)} |`);
      const targetMs = kind === 'empty' ? TARGET.emptyMs : TARGET.existingMs;
      const targetRss = kind === 'empty' ? TARGET.emptyRssMb : TARGET.existingRssMb;
      report.summary({ name: `embedded start, ${kind} data dir: time to /healthz (median)`, figure: `${f(ms)} ms`, baseline: `bare node:http ${f(bareMs)} ms`, ratio, target: `< ${targetMs} ms`, met: ms < targetMs });
      report.summary({ name: `embedded start, ${kind} data dir: RSS after start (max)`, figure: `${f(after)} MB`, baseline: `bare node:http ${f(bareRss)} MB`, ratio: after / bareRss, target: `< ${targetRss} MB`, met: after < targetRss });
    }

    // The day-like session, on the existing directory.
    const x = await startProcess(server, env(existingDir));
    try {
      const idleGc = await rssAfterGc(x.running);
      const idle = idleGc.rssMb;
      const session = await sessionClient(`${x.running.url}graphql`);
      const sessionStarted = performance.now();
      await session.runUntil(firstOps);
      const afterFirst = rssMb(x.running.child.pid!);
      await session.runUntil(totalOps);
      const afterAll = rssMb(x.running.child.pid!);
      const seconds = (performance.now() - sessionStarted) / 1000;
      const afterGcUsage = await rssAfterGc(x.running);
      const afterGc = afterGcUsage.rssMb;
      const memory = 'Server RSS ÷ idle';
      print(`\n### Server RSS through a session (${totalOps} mixed operations in ${f(seconds, 1)} s; load after: ${load()})\n`);
      print('| when | RSS, MB | ÷ idle | main heap used / total / external, MB |');
      print('| --- | --- | --- | --- |');
      print(`| idle after start, after a full GC | ${f(idle)} | 1 | ${f(idleGc.heapUsedMb)} / ${f(idleGc.heapMb)} / ${f(idleGc.buffersMb)} |`);
      print(`| after ${firstOps} operations | ${f(afterFirst)} | ${f(report.ratio(memory, `after ${firstOps} operations`, afterFirst / idle), 2)} | |`);
      print(`| after ${totalOps} operations | ${f(afterAll)} | ${f(report.ratio(memory, `after ${totalOps} operations`, afterAll / idle), 2)} | |`);
      const ratio = report.ratio(memory, 'after a full GC', afterGc / idle);
      print(`| then after a full GC | ${f(afterGc)} | ${f(ratio, 2)} | ${f(afterGcUsage.heapUsedMb)} / ${f(afterGcUsage.heapMb)} / ${f(afterGcUsage.buffersMb)} |`);
      const ratio5s = afterGcUsage.rss5sMb / idleGc.rss5sMb;
      print(`| the same, 5 s after that GC (idle: 5 s after its GC, ${f(idleGc.rss5sMb)} MB) | ${f(afterGcUsage.rss5sMb)} | ${f(ratio5s, 2)} | |`);
      print('\n| RSS by kind of mapping, MB | PGlite wasm | V8 heap pages (all isolates) | malloc (brk + arenas) | files | other anonymous |');
      print('| --- | --- | --- | --- | --- | --- |');
      for (const [when, k] of [['idle, after a full GC', idleGc.kinds], ['after the session and a full GC', afterGcUsage.kinds], ['the same, 5 s after that GC', afterGcUsage.kinds5s]] as const) {
        print(`| ${when} | ${f(k.wasm)} | ${f(k.v8Pages)} | ${f(k.malloc)} | ${f(k.files)} | ${f(k.otherAnon)} |`);
      }
      report.summary({ name: `server RSS after ${totalOps} mixed operations and a full GC`, figure: `${f(afterGc)} MB`, baseline: `idle ${f(idle)} MB`, ratio, target: `≤ ${TARGET.afterGcRatio}× idle`, met: ratio <= TARGET.afterGcRatio });
      report.summary({ name: `server RSS after ${totalOps} mixed operations, 5 s after the full GC`, figure: `${f(afterGcUsage.rss5sMb)} MB`, baseline: `idle ${f(idleGc.rss5sMb)} MB`, ratio: ratio5s, target: `≤ ${TARGET.afterGcRatio}× idle`, met: ratio5s <= TARGET.afterGcRatio });
    } finally {
      await stop(x.running);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return report.rows;
}

runAsScript(__filename, runBench);
