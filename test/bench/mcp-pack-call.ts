/**
 * MCP pack tool calls (issue 19 "Measured"): one MCP pack tool call in a turn against one built-in
 * tool call in a turn, same run — the overhead of a pack (HTTP round trip to the pack's server over
 * the pooled connection, result conversion) as the turn sees it.
 *
 *   node --no-node-snapshot --import tsx test/bench/mcp-pack-call.ts
 *   (BENCH_MCP_TURNS=60 is the default; BENCH_TINY=1 for the test's size)
 *
 * In-process Vance (runTurns, the offline provider with chunkDelayMs 0) on PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set; the SDK's own McpServer on loopback (test/support/mcp-test-server.ts) as
 * the pack `bench`. One process, turns alternating `call bench_echo {...}` and `call current_time {}`
 * so that drift (a warming JIT, a busy neighbour) falls on both alike. Each turn is timed end to end:
 * sendMessage → TurnFinished on the bus. The first pack turn (it connects and loads the SDK) is a
 * warm-up and discarded, as are the first built-in turns. Numbers are printed, never asserted.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { OfflineProvider } from '../../api/src/llm';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { benchDatabase } from '../support/databases';
import { startMcpTestServer } from '../support/mcp-test-server';
import { now, TOKEN, withTimeout } from './fan-out-clients';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

const TABLE = 'MCP pack call ÷ built-in call';
const f = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const report = new BenchReport(options.print, options.summary);
  const turns = options.tiny ? 3 : envNumber('BENCH_MCP_TURNS', 60);
  const warmUp = options.tiny ? 1 : 5;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-mcp-'));
  const database = await benchDatabase().open();
  const server = await startMcpTestServer({ oddNames: false });
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: TOKEN, VANCE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', VANCE_RATE_TURNS_PER_TOKEN: '1000000', VANCE_RATE_TURNS_PER_TENANT: '1000000', VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000' });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, runTurns: true, modelProvider: new OfflineProvider({ chunkDelayMs: 0 }) });
  try {
    const { services } = vance;
    const admin = await services.identity.authenticate(TOKEN);
    await services.documents.put(admin, 'VANCE', null, '_vance/recipes/bench.yaml', 'description: Bench worker\nengine: ford\nparams:\n  validation: false\n');
    await services.documents.put(admin, 'VANCE', null, '_vance/tools/bench.mcp.yaml', `url: ${server.url}\ninclude: [echo]\nlabels: [bench]\n`);
    await services.identity.createProject(admin, 'bench', 'NORMAL');
    const proc = await services.processes.spawn(admin, { project: 'bench', recipe: 'bench', name: 'mcp-calls' });

    let waiter: ((e: TurnEventEnvelope) => void) | null = null;
    let toolError: string | null = null;
    const unsubscribe = services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
      if (e.processId !== proc.id) return;
      if (e.type === 'ToolCallFinished' && e.payload?.isError) toolError = JSON.stringify(e.payload);
      if (e.type === 'TurnFinished' || e.type === 'TurnFailed') waiter?.(e);
    });
    const runTurn = async (text: string): Promise<number> => {
      const done = new Promise<TurnEventEnvelope>((resolve) => (waiter = resolve));
      const t0 = now();
      await services.activation.sendMessage(admin, proc.id, text);
      const end = await withTimeout(done, 30_000, `turn '${text}' did not finish`);
      const ms = now() - t0;
      waiter = null;
      if (end.type === 'TurnFailed') throw new Error(`turn failed: ${JSON.stringify(end.payload)}`);
      if (toolError) throw new Error(`the tool call failed: ${toolError}`);
      return ms;
    };
    const pack: number[] = [];
    const builtin: number[] = [];
    for (let i = 0; i < warmUp + turns; i++) {
      const p = await runTurn(`call bench_echo {"text": "message ${i}"}`);
      const b = await runTurn('call current_time {}');
      if (i >= warmUp) {
        pack.push(p);
        builtin.push(b);
      }
    }
    unsubscribe();
    const sessions = server.sessions();
    const rows: [string, number][] = [['p50', 50], ['p90', 90], ['p99', 99]];
    report.print(`\n## ${TABLE} (${turns} turns each, ${database.driver}; pack sessions opened: ${sessions})\n`);
    report.print('| | MCP pack call turn (ms) | built-in call turn (ms) | difference (ms) | ratio |');
    report.print('|---|---|---|---|---|');
    for (const [name, p] of rows) {
      const a = percentile(pack, p);
      const b = percentile(builtin, p);
      report.print(`| ${name} | ${f(a)} | ${f(b)} | ${f(a - b)} | ${f(report.ratio(TABLE, name, a / b))}× |`);
    }
    const a = percentile(pack, 50);
    const b = percentile(builtin, 50);
    report.summary({
      name: `MCP pack tool call in a turn, p50, ${database.driver}`, figure: `${f(a)} ms`,
      baseline: `built-in tool call in a turn ${f(b)} ms`, ratio: a / b, target: 'overhead, same run (no target)', met: null,
    });
    return report.rows;
  } finally {
    await vance.close();
    await server.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(__filename, runBench);
