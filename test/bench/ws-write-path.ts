/**
 * The direct `next` write path alone (issue 18, fan-out): N sockets on a `ws` server, a child
 * process reading them, and E events written to every socket through nextOutlet, one event per
 * event-loop turn, as a turn's TextDeltas are. Server CPU per (socket, event), alternating A/B:
 * the frame built from the shared payload bytes (ws-text-frame.ts) vs `ws`'s send of a fresh string.
 *
 *   node --no-node-snapshot --import tsx test/bench/ws-write-path.ts   (BENCH_WRITE_SOCKETS=1000 BENCH_WRITE_EVENTS=200 BENCH_WRITE_ROUNDS=3)
 *
 * The readers are raw-ws-client.ts sockets in a child process (this file with `--client`).
 * Numbers are printed, never asserted.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { NextOutlet } from '../../api/src/graphql/direct-next';
import { nextOutlet, SerializedPayload } from '../../api/src/graphql/ws-transport';
import { loadavg } from 'node:os';
import { rawWebSocket } from './raw-ws-client';
import { BenchReport, envNumber, isMain, runAsScript, type BenchOptions, type RatioRow } from './harness';

async function clientMain(url: string, N: number): Promise<void> {
  let open = 0;
  for (let i = 0; i < N; i++) {
    rawWebSocket(url, 'x', { open: () => void (++open === N && process.send!('open')), messages: () => undefined, close: () => undefined, error: (e) => { throw e; } });
  }
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const tiny = options.tiny ?? false;
  const N = tiny ? 5 : envNumber('BENCH_WRITE_SOCKETS', 1000);
  const E = tiny ? 5 : envNumber('BENCH_WRITE_EVENTS', 200);
  const ROUNDS = tiny ? 1 : envNumber('BENCH_WRITE_ROUNDS', 3);
  const report = new BenchReport(options.print, options.summary);
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const sockets: WebSocket[] = [];
  wss.on('connection', (s) => sockets.push(s));
  const url = `http://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
  const child = fork(__filename, ['--client', url, String(N)], { execArgv: ['--import', 'tsx'] });
  await once(child, 'message');
  const direct = sockets.map((s, i) => nextOutlet(s, String(i + 1)));
  const sent = sockets.map((s, i) => sendOutlet(s, String(i + 1)));
  const turn = () => new Promise<void>((r) => setImmediate(r));
  const run = async (outlets: NextOutlet[]): Promise<number> => {
    const cpu0 = process.cpuUsage();
    for (let e = 0; e < E; e++) {
      const payload = new SerializedPayload(JSON.stringify({ data: { turnEvents: { id: String(1000 + e), turnId: 'c0ffee00-0000-4000-8000-000000000000', type: 'TextDelta', at: new Date().toISOString() } } }));
      for (const o of outlets) o.write(payload);
      await turn();
      await turn();
    }
    const { user, system } = process.cpuUsage(cpu0);
    return (user + system) / (N * E);
  };
  await run(direct);
  await run(sent); // warm-up, both
  const rows: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = await run(sent);
    const b = await run(direct);
    rows.push(`| ${r + 1} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${report.ratio('Direct frame ÷ ws send, server CPU', `round ${r + 1}`, b / a).toFixed(2)} |`);
  }
  report.print(`\nDirect next write path: ${N} sockets, ${E} events per run, one per event-loop turn; load ${loadavg()[0]!.toFixed(1)}\n`);
  report.print('| round | ws send µs/pair | direct frame µs/pair | ratio |\n| --- | ---: | ---: | ---: |');
  for (const row of rows) report.print(row);
  for (const s of sockets) s.terminate();
  child.kill();
  await new Promise((resolve) => wss.close(resolve));
  return report.rows;
}

/** The write path before ws-text-frame.ts: ws's send of the message as a string, corked for the turn as nextOutlet does. */
function sendOutlet(socket: WebSocket, id: string): NextOutlet {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  const raw = (socket as unknown as { _socket: Socket })._socket;
  return {
    write: (payload) => {
      if (!corked.has(raw)) {
        raw.cork();
        corked.add(raw);
        if (corked.size === 1) setImmediate(() => {
          for (const c of corked) c.uncork();
          corked.clear();
        });
      }
      socket.send(`${head}${payload.json}}`);
      return true;
    },
  };
}
const corked = new Set<Socket>();

if (isMain(__filename) && process.argv[2] === '--client') {
  void clientMain(process.argv[3]!, Number(process.argv[4]));
} else {
  runAsScript(__filename, runBench);
}
