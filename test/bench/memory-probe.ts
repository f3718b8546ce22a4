/**
 * Memory A/B probe (issue 18, item 5): embedded-start.ts's day-like session against the built server
 * of another checkout, so that two builds can be compared in one run (base and change interleaved).
 * Starts `ROOT`'s server as its own `npm start` does (first on an empty data directory, then again on
 * it), and prints RSS by kind of mapping, thread count, the main heap and each worker thread's heap,
 * idle and after `OPS` operations, each 0.5 s and 5 s after one full GC (gc-on-signal.cjs).
 *
 *   ROOT=/path/to/built/checkout [OPS=1000] [NODE_EXTRA="--flag"] [MALLOC_ARENA_MAX=2 …] \
 *     node --no-node-snapshot --import tsx test/bench/memory-probe.ts
 *
 * Not part of `npm run bench`: a diagnostic; numbers are printed, never asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { npmStartServerCommand } from './npm-start-command';
import { rssByKind, rssMb, sessionClient, startProcess, stop, type Running } from './embedded-start';

const root = process.env.ROOT ?? path.resolve(__dirname, '../..');
const ops = Number(process.env.OPS ?? 1000);
const TOKEN = 'bench-admin-token-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number) => n.toFixed(1);

async function main() {
  const npm = npmStartServerCommand(root);
  const args = [...npm.nodeFlags, ...(process.env.NODE_EXTRA ?? '').split(' ').filter(Boolean), '--require', path.join(__dirname, 'gc-on-signal.cjs'), path.join(root, npm.entry)];
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'mem-probe-'));
  const env = { ...npm.env, VANCE_DATA_DIR: dir, VANCE_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn',
    VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000', VANCE_RATE_TURNS_PER_TOKEN: '1000000', VANCE_RATE_TURNS_PER_TENANT: '1000000' };
  const first = await startProcess(args, env);
  await sleep(4000); // the first start creates the admin user after /healthz answers
  await stop(first.running);
  const { running } = await startProcess(args, env);
  const threadLines: string[] = [];
  running.child.stderr!.on('data', (b: Buffer) => { for (const l of b.toString().split('\n')) if (l.startsWith('gc-thread')) threadLines.push(l); });
  const pid = running.child.pid!;
  const snap = async (label: string, r: Running) => {
    threadLines.length = 0;
    const done = r.nextGc();
    r.child.kill('SIGUSR2');
    const usage = await done;
    const out: string[] = [];
    for (const wait of [500, 4500]) {
      await sleep(wait);
      const k = rssByKind(pid);
      const tasks = fs.readdirSync(`/proc/${pid}/task`).length;
      out.push(`${label} +${wait === 500 ? '0.5' : '5'}s rss ${f(rssMb(pid))} | wasm ${f(k.wasm)} v8pages ${f(k.v8Pages)} malloc ${f(k.malloc)} files ${f(k.files)} otherAnon ${f(k.otherAnon)} | threads ${tasks}`);
    }
    out.push(`${label} main heap used/total/external/ab ${f(usage.heapUsed / 2 ** 20)}/${f(usage.heapTotal / 2 ** 20)}/${f(usage.external / 2 ** 20)}/${f(usage.arrayBuffers / 2 ** 20)}`);
    for (const l of threadLines) {
      const [, id, json] = /gc-thread (\d+) (.*)/.exec(l)!;
      const s = JSON.parse(json!);
      out.push(`${label}   thread ${id}: heap ${f(s.used_heap_size / 2 ** 20)}/${f(s.total_heap_size / 2 ** 20)} ext ${f(s.external_memory / 2 ** 20)} malloced ${f(s.malloced_memory / 2 ** 20)}`);
    }
    return out;
  };
  try {
    const idle = await snap('idle', running);
    const session = await sessionClient(`${running.url}graphql`);
    const t0 = Date.now();
    await session.runUntil(ops);
    const secs = (Date.now() - t0) / 1000;
    const cpu = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ');
    const after = await snap('after', running);
    const r = (s: string) => Number(/rss ([\d.]+)/.exec(s)![1]);
    console.log([...idle, ...after].join('\n'));
    console.log(`RESULT root=${root} ops=${ops} session ${secs.toFixed(0)} s cpu ${((Number(cpu[13]) + Number(cpu[14])) / 100).toFixed(1)} s ratio@0.5s ${(r(after[0]!) / r(idle[0]!)).toFixed(3)} ratio@5s ${(r(after[1]!) / r(idle[1]!)).toFixed(3)} load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  } finally {
    await stop(running);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
void main();
