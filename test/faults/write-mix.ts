/**
 * The write mix of the database fault tests (issue 14) and what they check afterwards.
 *
 * While a fault hits the database, loops send a steady mix of writes from outside to every instance:
 * putDocument with expectedVersion on a few paths (each attempt with content of its own), and
 * sendMessage to several processes (each text of its own). Every request ends as `ok` (answered
 * without errors), `failed` (answered with an error) or `unknown` (the HTTP connection broke, or no
 * answer in time: it may or may not have been applied). The loops are bounded in count and time.
 *
 * `checkMix` then reads the database directly (a connection of the test's own) and reports, without
 * throwing, every violation of what the issue asks; the tests assert that each list is empty, so one
 * run shows all that broke.
 */
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { expect } from 'vitest';
import { ADMIN_TOKEN, collect, type GraphQLResult } from '../graphql/harness';

export type Outcome = 'ok' | 'failed' | 'unknown';

interface Answer {
  readonly outcome: Outcome;
  readonly result?: GraphQLResult<any>;
  readonly error?: string;
}

/** One request, classified: only a request without an answer is `unknown`. */
export async function attempt(url: string, query: string, variables: Record<string, unknown>, timeoutMs = 30_000): Promise<Answer> {
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    return { outcome: 'unknown', error: err instanceof Error ? err.message : String(err) };
  }
  let result: GraphQLResult<any>;
  try {
    result = JSON.parse(text) as GraphQLResult<any>;
  } catch {
    return { outcome: 'failed', error: `not JSON: ${text.slice(0, 200)}` };
  }
  if (result.errors?.length) return { outcome: 'failed', result, error: `${result.errors[0]!.extensions?.code ?? ''} ${result.errors[0]!.message}` };
  return { outcome: 'ok', result };
}

export interface SendRecord { readonly text: string; readonly processId: string; readonly outcome: Outcome; readonly error?: string }
export interface PutRecord {
  readonly path: string;
  readonly content: string;
  readonly expectedVersion: number;
  readonly outcome: Outcome;
  readonly version?: number;
  readonly error?: string;
}

/** The write mix: the scenario's instances, processes and duration, and how many loops of which writes. */
export type MixOptions = Pick<FaultScenario, 'urls' | 'project' | 'processIds' | 'durationMs' | 'tag'> & {
  readonly paths: readonly string[];
  /** Each loop stops after this many requests, or after `durationMs`, whichever comes first. */
  readonly maxPerLoop: number;
  readonly sendLoops: number;
};

export interface MixLog {
  readonly sends: SendRecord[];
  readonly puts: PutRecord[];
}

const SEND = `mutation M($id: ID!, $t: String!) { sendMessage(processId: $id, text: $t) { id } }`;
const PUT = `mutation P($p: String!, $path: String!, $c: String!, $v: Int!) { putDocument(layer: PROJECT, project: $p, path: $path, content: $c, expectedVersion: $v) { version } }`;
const READ = `query D($p: String!, $path: String!) { document(layer: PROJECT, project: $p, path: $path) { version } }`;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runWriteMix(options: MixOptions): Promise<MixLog> {
  const log: MixLog = { sends: [], puts: [] };
  const until = Date.now() + options.durationMs;
  const urls = options.urls;
  const sendLoop = async (loop: number) => {
    for (let k = 0; k < options.maxPerLoop && Date.now() < until; k++) {
      const processId = options.processIds[(loop + k) % options.processIds.length]!;
      const text = `${options.tag} send ${loop}.${k}`;
      const answer = await attempt(urls[(loop + k) % urls.length]!, SEND, { id: processId, t: text });
      log.sends.push({ text, processId, outcome: answer.outcome, ...(answer.error ? { error: answer.error } : {}) });
      await pause(answer.outcome === 'ok' ? 20 : 100);
    }
  };
  const putLoop = async (path: string, loop: number) => {
    // The version this writer last saw; null after an answer that leaves it unsure (read again first).
    let known: number | null = 0;
    for (let k = 0; k < options.maxPerLoop && Date.now() < until; k++) {
      const url = urls[(loop + k) % urls.length]!;
      if (known === null) {
        const read = await attempt(url, READ, { p: options.project, path });
        if (read.outcome === 'ok') known = (read.result!.data!.document?.version as number | undefined) ?? 0;
        else await pause(100);
        continue;
      }
      const content = `${options.tag} ${path} attempt ${k}`;
      const answer = await attempt(url, PUT, { p: options.project, path, c: content, v: known });
      const version = answer.outcome === 'ok' ? (answer.result!.data!.putDocument.version as number) : undefined;
      log.puts.push({ path, content, expectedVersion: known, outcome: answer.outcome, ...(version ? { version } : {}), ...(answer.error ? { error: answer.error } : {}) });
      known = version ?? null;
      await pause(answer.outcome === 'ok' ? 20 : 100);
    }
  };
  await Promise.all([
    ...Array.from({ length: options.sendLoops }, (_, i) => sendLoop(i)),
    ...options.paths.map((path, i) => putLoop(path, i)),
  ]);
  return log;
}

export interface TurnEventSubscriber {
  readonly url: string;
  readonly processId: string;
  readonly sub: ReturnType<typeof collect<{ turnEvents: { id: string; type: string } }>>;
}

/** A turnEvents subscription per instance and process, over graphql-ws, from the start of each process. */
export function subscribeTurnEvents(urls: readonly string[], processIds: readonly string[]): { subscribers: TurnEventSubscriber[]; close(): Promise<void> } {
  const clients = urls.map((url) => createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` }, retryAttempts: 0, lazy: true }));
  const subscribers = urls.flatMap((url, i) => processIds.map((processId) => ({
    url, processId, sub: collect<{ turnEvents: { id: string; type: string } }>(clients[i]!, `subscription E($id: ID!) { turnEvents(processId: $id) { id type } }`, { id: processId }),
  })));
  return { subscribers, close: async () => void (await Promise.all(clients.map((c) => c.dispose()))) };
}

/** A diagnosis of a mismatch: does a fresh subscription on the same instance see the stored events? */
async function freshLook(s: TurnEventSubscriber, stored: number): Promise<string> {
  const client = createClient({ url: s.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` }, retryAttempts: 0, lazy: true });
  try {
    const fresh = collect<{ turnEvents: { id: string } }>(client, `subscription E($id: ID!) { turnEvents(processId: $id) { id } }`, { id: s.processId });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && fresh.events.length < stored && !fresh.error) await pause(100);
    const last = s.sub.events.at(-1)?.data?.turnEvents.id;
    return `a fresh subscription there saw ${fresh.events.length} of ${stored}; the old one's last event ${last ?? 'none'}`;
  } finally {
    await client.dispose();
  }
}

const seenIds = (s: TurnEventSubscriber) => s.sub.events.flatMap((e) => (e.data?.turnEvents ? [e.data.turnEvents.id] : []));
const streamErrors = (s: TurnEventSubscriber) => s.sub.events.filter((e) => e.errors).map((e) => JSON.stringify(e.errors));

/** Waits (bounded by `deadlineMs`, which only catches hangs) until every subscriber has seen a TurnFinished of its process. */
export async function untilEverySubscriberSawATurn(subscribers: readonly TurnEventSubscriber[], deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!subscribers.every((s) => s.sub.events.some((e) => e.data?.turnEvents.type === 'TurnFinished'))) {
    if (Date.now() > deadline) throw new Error('a turnEvents subscriber saw no TurnFinished of the warm-up turn');
    await pause(50);
  }
}

export interface MixReport {
  readonly counts: Record<string, number>;
  readonly lostPuts: string[];
  readonly appliedFailedPuts: string[];
  readonly lostSends: string[];
  readonly appliedFailedSends: string[];
  /** Stored user messages without exactly one FINISHED turn containing them when the deadline came. */
  readonly notAnsweredOnce: string[];
  readonly overlappingTurns: string[];
  readonly subscriberMismatches: string[];
  readonly settleMs: number;
}

interface TurnRow { id: string; process_id: string; status: string; started_at: Date; finished_at: Date | null; contents: string[] | null; error_code: string | null }

/**
 * Checks the mix against the database (`control`, a connection of the test's own): acknowledged writes
 * are there, failed ones are not, every stored user message gets exactly one FINISHED turn (polled up
 * to `settleDeadlineMs`, which only catches hangs), no two turns of a process overlap, and every
 * subscriber saw exactly the stored event ids of its process, in order.
 */
export async function checkMix(control: pg.Client, mix: MixLog, subscribers: readonly TurnEventSubscriber[], options: { tag: string; processIds: readonly string[]; settleDeadlineMs: number }): Promise<MixReport> {
  const q = async <R>(sql: string, params: unknown[] = []): Promise<R[]> => (await control.query(sql, params)).rows as R[];
  const count = (list: readonly { outcome: Outcome }[], outcome: Outcome) => list.filter((r) => r.outcome === outcome).length;
  const counts: Record<string, number> = {
    putsOk: count(mix.puts, 'ok'), putsFailed: count(mix.puts, 'failed'), putsUnknown: count(mix.puts, 'unknown'),
    sendsOk: count(mix.sends, 'ok'), sendsFailed: count(mix.sends, 'failed'), sendsUnknown: count(mix.sends, 'unknown'),
  };

  // Documents: an acknowledged version holds its content; a refused write's content is nowhere.
  const versions = await q<{ path: string; version: number; content: string | null }>(
    `SELECT d.path, v.version, v.content FROM document_versions v JOIN documents d ON d.id = v.document_id WHERE v.content LIKE $1`, [`${options.tag} %`]);
  const byContent = new Map(versions.map((v) => [v.content, v]));
  const lostPuts = mix.puts.filter((p) => p.outcome === 'ok').filter((p) => {
    const stored = byContent.get(p.content);
    return !stored || stored.version !== p.version || stored.path !== p.path;
  }).map((p) => `${p.content} (acknowledged as version ${p.version})`);
  const appliedFailedPuts = mix.puts.filter((p) => p.outcome === 'failed' && byContent.has(p.content))
    .map((p) => `${p.content} answered '${p.error}' but is version ${byContent.get(p.content)!.version}`);
  counts.putsUnknownApplied = mix.puts.filter((p) => p.outcome === 'unknown' && byContent.has(p.content)).length;

  // Messages: where a text is stored — the inbox, the chat log, or a turn's input.
  const storedTexts = async () => new Set((await q<{ content: string }>(
    `SELECT content FROM process_inbox WHERE content LIKE $1 UNION SELECT content FROM messages WHERE role = 'user' AND content LIKE $1
     UNION SELECT e->>'content' FROM turns, jsonb_array_elements(input) e WHERE e->>'content' LIKE $1`, [`${options.tag} %`])).map((r) => r.content));
  const turnsOf = () => q<TurnRow>(
    `SELECT id, process_id, status, started_at, finished_at, error_code, (SELECT array_agg(e->>'content') FROM jsonb_array_elements(input) e) AS contents
     FROM turns WHERE process_id = ANY($1::uuid[]) ORDER BY process_id, started_at, id`, [options.processIds]);
  const stored = await storedTexts();
  const lostSends = mix.sends.filter((s) => s.outcome === 'ok' && !stored.has(s.text)).map((s) => s.text);
  const appliedFailedSends = mix.sends.filter((s) => s.outcome === 'failed' && stored.has(s.text)).map((s) => `${s.text} answered '${s.error}' but is stored`);
  counts.sendsUnknownStored = mix.sends.filter((s) => s.outcome === 'unknown' && stored.has(s.text)).length;

  // Every stored user message answered exactly once: polled until it holds; the deadline only catches a hang.
  const started = Date.now();
  let notAnsweredOnce: string[];
  let turns: TurnRow[];
  for (;;) {
    const texts = await storedTexts();
    turns = await turnsOf();
    const finished = new Map<string, number>();
    for (const t of turns) if (t.status === 'FINISHED') for (const c of t.contents ?? []) finished.set(c, (finished.get(c) ?? 0) + 1);
    const pending = await q<{ content: string; requested: boolean }>(
      `SELECT i.content, p.turn_requested_at IS NOT NULL AS requested FROM process_inbox i JOIN processes p ON p.id = i.process_id WHERE i.content LIKE $1`, [`${options.tag} %`]);
    // A turn ended by the sweep or a takeover writes its TurnFailed just after its status: wait for it too.
    const unclosed = (await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM turns t WHERE t.process_id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM turn_events e
         WHERE e.turn_id = t.id AND e.type IN ('TurnFinished', 'TurnFailed'))`, [options.processIds]))[0]!.n;
    const running = turns.filter((t) => t.status === 'RUNNING').length;
    notAnsweredOnce = [...texts].filter((t) => finished.get(t) !== 1).map((t) => {
      const inbox = pending.find((p) => p.content === t);
      return `${t}: ${finished.get(t) ?? 0} FINISHED turns${inbox ? `, in the inbox (turn requested: ${inbox.requested})` : ''}`;
    });
    if ((notAnsweredOnce.length === 0 && running === 0 && unclosed === 0) || Date.now() - started > options.settleDeadlineMs) {
      if (running > 0) notAnsweredOnce.push(`${running} turns still RUNNING`);
      if (unclosed > 0) notAnsweredOnce.push(`${unclosed} turns without a TurnFinished or TurnFailed event`);
      break;
    }
    await pause(250);
  }
  const settleMs = Date.now() - started;

  // No two turns of one process overlap.
  const lastWork = new Map((await q<{ turn_id: string; at: Date; type: string }>(
    `SELECT DISTINCT ON (turn_id) turn_id, created_at AS at, type FROM turn_events WHERE process_id = ANY($1::uuid[]) AND type <> 'TurnFailed' ORDER BY turn_id, id DESC`,
    [options.processIds])).map((r) => [r.turn_id, `${r.type} at ${r.at.toISOString()}`]));
  const overlappingTurns: string[] = [];
  for (let i = 1; i < turns.length; i++) {
    const [prev, next] = [turns[i - 1]!, turns[i]!];
    if (prev.process_id !== next.process_id) continue;
    if (!prev.finished_at || prev.finished_at > next.started_at) {
      overlappingTurns.push(`process ${prev.process_id}: turn ${prev.id} (${prev.status} ${prev.error_code ?? ''}, ${prev.started_at.toISOString()}–${prev.finished_at?.toISOString() ?? 'open'}, its last event before its end: ${lastWork.get(prev.id) ?? 'none'}) and turn ${next.id} (${next.status}, from ${next.started_at.toISOString()})`);
    }
  }
  counts.turns = turns.length;
  for (const status of ['FINISHED', 'FAILED', 'INTERRUPTED']) counts[`turns${status}`] = turns.filter((t) => t.status === status).length;

  // Every subscriber: the stored event ids of its process, each once, in order (waited for, bounded).
  const events = new Map<string, string[]>();
  for (const id of options.processIds) {
    events.set(id, (await q<{ id: string }>(`SELECT id::text AS id FROM turn_events WHERE process_id = $1 ORDER BY id`, [id])).map((r) => r.id));
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !subscribers.every((s) => s.sub.events.length >= events.get(s.processId)!.length || s.sub.error)) await pause(100);
  await pause(500); // anything beyond the stored events (a duplicate) has a moment to arrive
  const described = new Map((await q<{ id: string; type: string; status: string }>(
    `SELECT e.id::text AS id, e.type, t.status FROM turn_events e JOIN turns t ON t.id = e.turn_id WHERE e.process_id = ANY($1::uuid[])`, [options.processIds])).map((r) => [r.id, `${r.id} ${r.type} of a ${r.status} turn`]));
  const subscriberMismatches = (await Promise.all(subscribers.map(async (s) => {
    const expected = events.get(s.processId)!;
    const seen = seenIds(s).map(String);
    const missing = expected.filter((id) => !seen.includes(id));
    const duplicated = seen.filter((id, i) => seen.indexOf(id) !== i);
    const extra = seen.filter((id) => !expected.includes(id));
    const outOfOrder = seen.some((id, i) => i > 0 && BigInt(id) <= BigInt(seen[i - 1]!));
    // Each stored event once, in order, nothing else: the same list, whatever its text looks like.
    if (missing.length + duplicated.length + extra.length === 0 && !outOfOrder && !s.sub.error && streamErrors(s).length === 0) return [];
    return [`subscriber on ${s.url} for ${s.processId}: ${seen.length} seen, ${expected.length} stored; missing [${missing.map((id) => described.get(id)).join(', ')}]; twice [${duplicated.join(', ')}]; not stored [${extra.join(', ')}]; out of order: ${outOfOrder}${s.sub.error ? `; error ${String(s.sub.error)}` : ''}${streamErrors(s).join('; ')}; ${await freshLook(s, expected.length)}`];
  }))).flat();
  return { counts, lostPuts, appliedFailedPuts, lostSends, appliedFailedSends, notAnsweredOnce, overlappingTurns, subscriberMismatches, settleMs };
}

/** The instances' settings for the fault tests: a short lease and sweep, and rates no write mix reaches. */
export const FAULT_ENV: Record<string, string> = {
  VANCE_LANE_LEASE_MS: '3000', VANCE_TURN_SWEEP_MS: '500',
  VANCE_RATE_MUTATIONS_PER_TOKEN: '100000', VANCE_RATE_MUTATIONS_PER_TENANT: '100000',
  VANCE_RATE_TURNS_PER_TOKEN: '100000', VANCE_RATE_TURNS_PER_TENANT: '100000',
};

export interface FaultScenario {
  readonly urls: readonly string[];
  readonly project: string;
  readonly processIds: readonly string[];
  /** A connection of the test's own, straight to the database (not through a fault). */
  readonly control: pg.Client;
  /** A label that makes the texts and contents of this run unique. */
  readonly tag: string;
  /** How long the write mix runs. */
  readonly durationMs: number;
  /** Injects the fault while `running()` holds; resolves with a line for the log. */
  fault(running: () => boolean): Promise<string>;
}

/**
 * Subscribes to every process's turn events on every instance, runs one warm-up turn per process
 * (the subscriptions are live once each saw it), then the write mix and the fault together; then
 * checks what the mix left (`checkMix`) and logs the counts.
 */
export async function mixUnderFault(scenario: FaultScenario): Promise<MixReport> {
  const { urls, processIds, tag } = scenario;
  const streams = subscribeTurnEvents(urls, processIds);
  try {
    for (const [i, id] of processIds.entries()) {
      const warm = await attempt(urls[i % urls.length]!, SEND, { id, t: `${tag} warm-up ${i}` });
      if (warm.outcome !== 'ok') throw new Error(`the warm-up message was not taken: ${warm.error}`);
    }
    await untilEverySubscriberSawATurn(streams.subscribers, 60_000);
    let running = true;
    const fault = scenario.fault(() => running);
    const mix = await runWriteMix({ urls, project: scenario.project, processIds, paths: ['notes/a.md', 'notes/b.md', 'notes/c.md'], durationMs: scenario.durationMs, maxPerLoop: 300, sendLoops: 4, tag })
      .finally(() => (running = false));
    const faultLine = await fault;
    const report = await checkMix(scenario.control, mix, streams.subscribers, { tag, processIds, settleDeadlineMs: 60_000 });
    console.log(`${faultLine}\n${JSON.stringify(report.counts)}; settled in ${report.settleMs} ms`);
    return report;
  } finally {
    await streams.close();
  }
}

/** What the issue asks of a write mix under a fault; soft, so that one run reports every kind of violation. */
export function expectMixHeld(report: MixReport): void {
  expect.soft(report.lostPuts, 'acknowledged putDocument lost').toEqual([]);
  expect.soft(report.appliedFailedPuts, 'failed putDocument applied').toEqual([]);
  expect.soft(report.lostSends, 'acknowledged sendMessage lost').toEqual([]);
  expect.soft(report.appliedFailedSends, 'failed sendMessage applied').toEqual([]);
  expect.soft(report.overlappingTurns, 'turns of one process overlap').toEqual([]);
  expect.soft(report.notAnsweredOnce, 'stored user message not answered exactly once').toEqual([]);
  expect.soft(report.subscriberMismatches, 'turnEvents subscriber saw other than the stored events').toEqual([]);
  expect(report.counts.putsOk! + report.counts.sendsOk!, 'some writes were acknowledged').toBeGreaterThan(0);
}
