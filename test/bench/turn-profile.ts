/**
 * Where a turn's time goes (issue 18): runs the turns bench's overhead case (offline provider,
 * 5 sticky skills) and records every SQL statement of each turn — its text and its time — from
 * sendMessage to TurnFinished on the bus, and the statements the turn leaves after it.
 *
 *   node --no-node-snapshot --import tsx test/bench/turn-profile.ts          (PGlite)
 *   TEST_DATABASE_URL=… node … test/bench/turn-profile.ts                    (PostgreSQL)
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --no-node-snapshot --import tsx test/bench/turn-profile.ts
 *
 * BENCH_TURNS (default 200) turns are measured after 5 warm-up turns. Printed, never asserted. A
 * profiling tool beside the turns bench (test/bench/turns.ts), not a benchmark of the summary table:
 * it waits for the runner to be idle after each turn, and its CPU figure counts every thread.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { startVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { OfflineProvider } from '../../api/src/llm';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { benchDatabase } from '../support/databases';
import { envNumber, percentile } from './harness';
import { seed } from './turns';

const TOKEN = 'bench-admin-token-0123456789';
const SKILLS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

interface Statement { readonly sql: string; readonly ms: number; readonly at: number }
let log: Statement[] = [];
const original = PostgresQueryRunner.prototype.query;
PostgresQueryRunner.prototype.query = async function query(this: PostgresQueryRunner, ...args: Parameters<typeof original>) {
  const t0 = performance.now();
  try {
    return await original.apply(this, args);
  } finally {
    log.push({ sql: (typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text).replace(/\s+/g, ' ').trim(), ms: performance.now() - t0, at: t0 });
  }
} as typeof original;

/** A statement's kind: its first words, or the first table a CTE statement writes. */
function kind(sql: string): string {
  const write = /\b(INSERT INTO|UPDATE|DELETE FROM)\s+(\w+)/i.exec(sql);
  const head = sql.slice(0, 40);
  if (/^(START|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(sql)) return sql.split(' ')[0]!.toUpperCase();
  if (/^WITH proc AS/.test(sql)) return 'beginTurn';
  if (write) return `${write[1]!.split(' ')[0]} ${write[2]} (${head.startsWith('WITH') ? 'cte' : 'plain'})`;
  const from = /\bFROM\s+"?(\w+)"?/i.exec(sql);
  return `SELECT ${from?.[1] ?? head}`;
}

async function main(): Promise<void> {
  const turns = envNumber('BENCH_TURNS', 200);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-turn-profile-'));
  const database = await benchDatabase().open();
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: TOKEN, VANCE_DATA_DIR: dataDir, LOG_LEVEL: 'silent',
    VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000', VANCE_RATE_TURNS_PER_TOKEN: '1000000', VANCE_RATE_TURNS_PER_TENANT: '1000000' });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, runTurns: true, modelProvider: new OfflineProvider({ chunkDelayMs: 0 }) });
  try {
    const { services } = vance;
    const admin = await seed(vance);
    const proc = await services.processes.spawn(admin, { project: 'bench', recipe: 'bench', name: 'overhead' });
    for (const name of SKILLS) await services.activation.activate(admin, proc.id, name, null, false);

    let waiter: ((e: TurnEventEnvelope) => void) | null = null;
    services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
      if (e.processId === proc.id && (e.type === 'TurnFinished' || e.type === 'TurnFailed')) waiter?.(e);
    });
    const runTurn = async (i: number) => {
      const done = new Promise<TurnEventEnvelope>((resolve) => (waiter = resolve));
      const t0 = performance.now();
      await services.activation.sendMessage(admin, proc.id, `benchmark message number ${i}, please answer briefly`);
      const sent = performance.now();
      const end = await done;
      const t1 = performance.now();
      if (end.type === 'TurnFailed') throw new Error(JSON.stringify(end.payload));
      if (!process.env.PROFILE_NO_IDLE) await services.turnRunner.idle();
      return { t0, sent, t1 };
    };
    for (let i = 0; i < 5; i++) await runTurn(i);
    const totals: number[] = [];
    const sendMs: number[] = [];
    const byKind = new Map<string, { n: number; ms: number }>();
    let inTurn = 0;
    let after = 0;
    let sqlMsInTurn = 0;
    let sample: Statement[] = [];
    const turnLogs: { t0: number; t1: number; log: Statement[] }[] = [];
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    for (let i = 0; i < turns; i++) {
      log = [];
      const { t0, sent, t1 } = await runTurn(i);
      await new Promise((r) => setTimeout(r, 0));
      totals.push(t1 - t0);
      sendMs.push(sent - t0);
      for (const s of log) {
        const k = kind(s.sql);
        const e = byKind.get(k) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += s.ms;
        byKind.set(k, e);
        if (s.at + s.ms <= t1) {
          inTurn++;
          sqlMsInTurn += s.ms;
        } else after++;
      }
      if (i === turns - 1) sample = log;
      turnLogs.push({ t0, t1, log: log.filter((s) => s.at + s.ms <= t1) });
    }
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - wall0;
    const f = (n: number) => n.toFixed(2);
    console.log(`\nCPU (all threads) per turn: ${f((cpu.user + cpu.system) / 1000 / turns)} ms; wall per turn ${f(wall / turns)} ms`);
    console.log(`\n${database.driver}: ${turns} turns; turn p50 ${f(percentile(totals, 50))} ms, p99 ${f(percentile(totals, 99))} ms, mean ${f(totals.reduce((a, b) => a + b) / turns)} ms; sendMessage p50 ${f(percentile(sendMs, 50))} ms`);
    console.log(`statements per turn: ${f(inTurn / turns)} before TurnFinished (${f(sqlMsInTurn / turns)} ms in them), ${f(after / turns)} after\n`);
    console.log('| statement | per turn | ms per turn | ms each |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const [k, v] of [...byKind].sort((a, b) => b[1].ms - a[1].ms)) console.log(`| ${k} | ${f(v.n / turns)} | ${f(v.ms / turns)} | ${f(v.ms / v.n)} |`);
    // The phase table: per position in the turn, the median wait before the statement (JavaScript,
    // queue hops, the lane) and the median statement time, over the turns with the usual statements.
    const shape = (turn: readonly Statement[]) => turn.map((s) => kind(s.sql)).join('|');
    const usual = [...turnLogs.reduce((m, t) => m.set(shape(t.log), (m.get(shape(t.log)) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0];
    const alike = turnLogs.filter((t) => shape(t.log) === usual);
    if (alike.length > 0) {
      console.log(`\nphases (${alike.length} turns with the usual statements; median ms):\n`);
      console.log('| phase | wait before | statement |');
      console.log('| --- | ---: | ---: |');
      alike[0]!.log.forEach((s, i) => {
        const wait = alike.map((t) => t.log[i]!.at - (i === 0 ? t.t0 : t.log[i - 1]!.at + t.log[i - 1]!.ms));
        console.log(`| ${i + 1}. ${kind(s.sql)} | ${f(percentile(wait, 50))} | ${f(percentile(alike.map((t) => t.log[i]!.ms), 50))} |`);
      });
      const last = alike.map((t) => t.t1 - (t.log.at(-1)!.at + t.log.at(-1)!.ms));
      console.log(`| TurnFinished on the bus | ${f(percentile(last, 50))} | |`);
    }
    if (process.env.PROFILE_SQL) for (const s of sample) console.log(`${f(s.ms)} ms  ${s.sql.slice(0, 200)}`);
  } finally {
    await vance.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
