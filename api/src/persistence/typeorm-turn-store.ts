/**
 * The TurnStore port on PostgreSQL/PGlite (issue 5): turns, the chat log (`messages`) and the turn
 * event log (`turn_events`), plus taking and restoring the process inbox (`process_inbox`).
 *
 * beginTurn is one statement (atomic, one round trip): DELETE … RETURNING takes the inbox (FIFO by
 * seq, messages marked failed stay), the turn request is cleared, the turn row keeps the taken rows
 * as `input`, and the chat log gets them as user messages. finishTurn writes the final state and
 * the turn's one end event together (issue 14): with FINISHED one statement; with FAILED or
 * INTERRUPTED a transaction, in which the input goes back into the inbox with its original ids and
 * seq (OVERRIDING SYSTEM VALUE), so it sits before anything queued while the turn ran, with its
 * attempts counted and its retry requested (turn-retry.ts), and the turn's chat-log rows go (its
 * events stay, they tell what happened). Events are NOTIFYed by the statement that stores them
 * (commit-notifier.ts) and delivered here after it. Writes inside a transaction use only `em`
 * (PGlite has one session). Statements that must return rows are written as SELECTs over a CTE, so
 * the driver answers rows whatever the command.
 *
 * A turn's chat-log rows that nothing reads before the next write (the reply, tool results) ride
 * with that write: appendEvents and finishTurn store them first, in the same statement (issue 18:
 * fewer round trips per turn). The statements every turn runs are named prepared statements (prepared.ts).
 */
import type { DataSource, EntityManager } from 'typeorm';
import type {
  ChatLogMessage, NewChatLogMessage, NewTurnEvent, TakenMessage, Turn, TurnEvent, TurnEventType, TurnOutcome, TurnStatus,
} from '../domain/turns/turn';
import { StaleTurnError, type BegunTurn, type TurnStore } from '../domain/turns/turn-store';
import { PROCESS_COLUMNS, toProcess, type ProcessRow } from './process-rows';
import { registeredTools } from './typeorm-client-tool-store';
import type { FinishReason, ModelUsage } from '../domain/llm/model-provider';
import { TURN_EVENTS_TOPIC } from '../domain/turns/turn';
import type { InputRestore } from '../domain/turns/turn-retry';
import { envelopeOf } from '../domain/turns/turn-event-sink';
import { isUuid } from './uuid';
import { fenceHolds, fenceTokenFor, laneFence, LeaseLostError } from './lane-fence';
import { announcedWrite, isoTimeSql, notifyCte, SILENT_NOTIFIER, type CommitNotifier } from './commit-notifier';
import { queryPrepared } from './prepared';
import { ChatLogReader, MESSAGE_COLUMNS, toMessage, type MessageRow } from './chat-log-reader';

interface TurnRow {
  id: string;
  tenant_id: string;
  process_id: string;
  engine: string;
  status: TurnStatus;
  finish_reason: FinishReason | null;
  usage: ModelUsage | null;
  error_code: string | null;
  error_message: string | null;
  started_at: Date;
  finished_at: Date | null;
}

interface EventRow {
  id: string;
  tenant_id: string;
  process_id: string;
  turn_id: string;
  type: TurnEventType;
  payload: Record<string, unknown>;
  created_at: Date;
}

const TURN_COLUMNS = 'id, tenant_id, process_id, engine, status, finish_reason, usage, error_code, error_message, started_at, finished_at';
const EVENT_COLUMNS = 'id::text AS id, tenant_id, process_id, turn_id, type, payload, created_at';
const DIGITS = /^\d{1,18}$/;

/** A turn event as the other instances get it: the TurnEventEnvelope, its payload left out when too large. */
const EVENT_SLIM = `jsonb_build_object('id', id::text, 'tenantId', tenant_id, 'processId', process_id, 'turnId', turn_id, 'type', type,
  'at', ${isoTimeSql('created_at')})`;
const EVENT_FULL = `(${EVENT_SLIM} || jsonb_build_object('payload', payload))`;
const EVENT_RETURNING = 'id, tenant_id, process_id, turn_id, type, payload, created_at';
/** The inserted events (CTE `source`) as one JSON array in id order, for statements that answer one row. */
const eventsJson = (source: string) => `(SELECT jsonb_agg(to_jsonb(e) || jsonb_build_object('id', e.id::text) ORDER BY e.id) FROM ${source} e)`;

/**
 * A CTE `name` that logs the chat-log rows of parameter `json` (a JSON array) in order, for the turn
 * `turn`, when `when` holds; `process` is the process id's SQL. A JSON null tool call is SQL NULL.
 */
function messagesCte(name: string, json: string, tenant: string, process: string, turn: string, from: string, when: string): string {
  return `${name} AS (INSERT INTO messages (tenant_id, process_id, role, sender_name, content, tool_call, turn_id)
    SELECT ${tenant}, ${process}, x.m->>'role', x.m->>'senderName', x.m->>'content', NULLIF(x.m->'toolCall', 'null'::jsonb), ${turn}
    FROM ${from} jsonb_array_elements(${json}::jsonb) WITH ORDINALITY AS x(m, n) WHERE ${when} ORDER BY x.n RETURNING 1)`;
}

const messagesParam = (messages: readonly NewChatLogMessage[] | undefined): string =>
  JSON.stringify((messages ?? []).map((m) => ({ role: m.role, senderName: m.senderName, content: m.content, toolCall: m.toolCall })));


/**
 * A taken-back turn's input returns to the inbox at its FIFO position, with its attempts and last
 * failure (marked failed when it failed too often); its chat-log rows go. A regenerated turn's input
 * returns as it was taken.
 */
async function restoreInput(em: EntityManager, tenantId: string, turnId: string, processId: string, input: readonly TakenMessage[] | InputRestore): Promise<void> {
  const messages = 'messages' in input ? input.messages : input.map((m) => ({ ...m, failed: false }));
  await em.query(
    `INSERT INTO process_inbox (id, tenant_id, process_id, seq, sender, sender_name, content, created_at, attempts, failure, failed_at) OVERRIDING SYSTEM VALUE
     SELECT x.id, $1, $2, x.seq, x.sender, x."senderName", x.content, x."createdAt", COALESCE(x.attempts, 0), x.failure,
       CASE WHEN x.failed THEN clock_timestamp() END
     FROM jsonb_to_recordset($3::jsonb) AS x(id uuid, seq bigint, sender text, "senderName" text, content text, "createdAt" timestamptz,
       attempts integer, failure text, failed boolean)
     ON CONFLICT (id) DO NOTHING`,
    [tenantId, processId, JSON.stringify(messages)],
  );
  await em.query(`DELETE FROM messages WHERE tenant_id = $1 AND turn_id = $2`, [tenantId, turnId]);
  const retryInMs = 'messages' in input ? input.retryInMs : null;
  // The retry (issue 14): at once after an interruption, after its backoff after a failure; the sweep runs it when due.
  if (retryInMs !== null) {
    await em.query(
      `UPDATE processes SET updated_at = clock_timestamp(), turn_requested_at = CASE WHEN $3::bigint = 0
         THEN COALESCE(turn_requested_at, clock_timestamp()) ELSE clock_timestamp() + $3::bigint * interval '1 millisecond' END
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, processId, retryInMs],
    );
  }
}

export class TypeOrmTurnStore implements TurnStore {
  /** The chat logs as last read, read on from there (chat-log-reader.ts). */
  private readonly chatLogs: ChatLogReader;

  constructor(private readonly dataSource: DataSource, private readonly notifier: CommitNotifier = SILENT_NOTIFIER) {
    this.chatLogs = new ChatLogReader(dataSource);
  }

  /** After the commit: this instance's subscribers (the others got the statement's NOTIFY). */
  private deliver(events: readonly TurnEvent[]): void {
    for (const event of events) this.notifier.deliverLocal(TURN_EVENTS_TOPIC, envelopeOf(event));
  }

  /** The notify CTE `sent` over the CTE `source` of inserted events, and its three parameters. */
  private notifying(source: string, first: number): { cte: string; params: unknown[] } {
    const [channel, topic, origin] = [first, first + 1, first + 2].map((n) => `$${n}`) as [string, string, string];
    return {
      cte: notifyCte('sent', source, { channel, topic, origin }, EVENT_FULL, EVENT_SLIM, 'id'),
      params: [this.notifier.channel, TURN_EVENTS_TOPIC, this.notifier.origin],
    };
  }

  async beginTurn(tenantId: string, processId: string): Promise<BegunTurn | null> {
    if (!isUuid(tenantId) || !isUuid(processId)) return null;
    // One statement (atomic without a transaction, one round trip): read the process, and when it
    // is IDLE take the inbox, clear the turn request, open the turn (in the process's engine) with
    // the taken rows as input, log them as user messages in FIFO order. The process read is the
    // turn's own (issue 18: it was a statement of its own before this one, on the same lane).
    // Not while an earlier turn of the process is still RUNNING: on the lane, such a turn is stale
    // (its final write failed), and it ends first, so that two turns never overlap (fault suite).
    // The session's client tools come with it: the composition offers them (one statement less).
    // So does the chat log, read on from where this instance last read it (chat-log-reader.ts): the
    // rows after it and the rows this statement logs (which its own reads cannot see), and the count
    // of the rows up to it.
    type BeginRow = ProcessRow & {
      turn: TurnRow | null; taken: TakenMessage[] | null; stale: boolean; client_tools: unknown; client_tools_at: Date | string | null;
      kept: string | number | null; log: MessageRow[] | null;
    };
    const from = this.chatLogs.position(tenantId, processId);
    const rows: BeginRow[] = await queryPrepared(this.dataSource,
      `WITH proc AS (SELECT ${PROCESS_COLUMNS} FROM processes WHERE tenant_id = $1 AND id = $2),
       idle AS (SELECT engine FROM proc WHERE status = 'IDLE'),
       stale AS (SELECT EXISTS (SELECT 1 FROM turns WHERE tenant_id = $1 AND process_id = $2 AND status = 'RUNNING')
           AND EXISTS (SELECT 1 FROM idle) AS found),
       taken AS (DELETE FROM process_inbox WHERE tenant_id = $1 AND process_id = $2 AND failed_at IS NULL AND ${fenceHolds('$4', '$3')}
           AND EXISTS (SELECT 1 FROM idle) AND NOT (SELECT found FROM stale)
         RETURNING id, seq, sender, sender_name, content, created_at, attempts, failure),
       cleared AS (UPDATE processes SET turn_requested_at = NULL, updated_at = clock_timestamp()
         WHERE tenant_id = $1 AND id = $2 AND turn_requested_at IS NOT NULL AND status = 'IDLE' AND NOT (SELECT found FROM stale) RETURNING id),
       input AS (SELECT jsonb_agg(jsonb_build_object('id', id, 'seq', seq::text, 'sender', sender, 'senderName', sender_name,
           'content', content, 'createdAt', ${isoTimeSql('created_at')},
           'attempts', attempts, 'failure', failure) ORDER BY seq) AS messages
         FROM taken HAVING count(*) > 0),
       turn AS (INSERT INTO turns (tenant_id, process_id, engine, input) SELECT $1, $2, idle.engine, input.messages FROM input CROSS JOIN idle
         RETURNING ${TURN_COLUMNS}),
       logged AS (INSERT INTO messages (tenant_id, process_id, role, sender_name, content, turn_id)
         SELECT $1, $2, 'user', taken.sender_name, taken.content, turn.id FROM taken CROSS JOIN turn ORDER BY taken.seq
         RETURNING messages.seq AS n, ${MESSAGE_COLUMNS}),
       log AS (SELECT messages.seq AS n, ${MESSAGE_COLUMNS} FROM messages
         WHERE tenant_id = $1 AND process_id = $2 AND seq > $5::bigint AND EXISTS (SELECT 1 FROM turn))
       SELECT proc.*, (SELECT to_jsonb(turn) FROM turn) AS turn, (SELECT messages FROM input) AS taken, (SELECT count(*) FROM cleared) AS cleared,
         (SELECT found FROM stale) AS stale, s.client_tools, s.client_tools_at,
         (SELECT count(*) FROM messages WHERE tenant_id = $1 AND process_id = $2 AND seq <= $5::bigint AND EXISTS (SELECT 1 FROM turn)) AS kept,
         (SELECT jsonb_agg(to_jsonb(l) - 'n' ORDER BY l.n) FROM (SELECT * FROM log UNION ALL SELECT * FROM logged) l) AS log
       FROM (VALUES (1)) AS one LEFT JOIN proc ON true LEFT JOIN sessions s ON s.tenant_id = $1 AND s.id = proc.session_id`,
      // Fenced (issue 14): a lane whose lease was taken over takes nothing (the new holder will).
      [tenantId, processId, fenceTokenFor(processId), processId, from.lastSeq],
    );
    const row = rows[0];
    if (row?.stale) throw new StaleTurnError(processId);
    if (!row?.id || !row.turn || !row.taken) return null;
    const log = this.chatLogs.accept(tenantId, processId, from, Number(row.kept), row.log ?? []);
    return { process: toProcess(row), turn: toTurn(row.turn), taken: row.taken, clientTools: registeredTools(row), ...(log ? { log } : {}) };
  }

  async appendMessage(tenantId: string, processId: string, turnId: string | null, message: NewChatLogMessage): Promise<ChatLogMessage> {
    const token = fenceTokenFor(processId);
    const rows: MessageRow[] = await queryPrepared(this.dataSource,
      `INSERT INTO messages (tenant_id, process_id, role, sender_name, content, tool_call, turn_id)
       SELECT $1, $2, $3, $4, $5, $6::jsonb, $7 WHERE ${fenceHolds('$9', '$8')} RETURNING ${MESSAGE_COLUMNS}`,
      [tenantId, processId, message.role, message.senderName, message.content, message.toolCall ? JSON.stringify(message.toolCall) : null, turnId, token, processId],
    );
    if (!rows[0]) throw new LeaseLostError(processId, token ?? '');
    return toMessage(rows[0]);
  }

  async finishTurn(tenantId: string, turnId: string, outcome: TurnOutcome): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(turnId)) return false;
    const restores = outcome.status === 'FAILED' || outcome.status === 'INTERRUPTED';
    const end = outcome.end ?? null;
    // A finished turn is one statement (atomic alone); a turn whose input goes back needs a transaction.
    const finish = async (em: Pick<EntityManager, 'query'>): Promise<{ ended: boolean; events: TurnEvent[] }> => {
      // Fenced when the running lane job holds a lease: only on that job's own process.
      const fence = laneFence.getStore() ?? null;
      const notify = this.notifying('ev', 13);
      // The turn's held events and chat-log rows first, then its end event: one statement, ids in that order.
      const events = [...(outcome.held?.events ?? []), ...(end ? [end] : [])];
      const rows: { process_id: string | null; input: TakenMessage[] | null; fenced: boolean; events: EventRow[] | null }[] = await queryPrepared(em,
        `WITH done AS (UPDATE turns SET status = $3, finish_reason = $4, usage = $5::jsonb, error_code = $6, error_message = $7,
             finished_at = clock_timestamp(), open_skills_before = $8::jsonb
           WHERE tenant_id = $1 AND id = $2 AND status = 'RUNNING'
             AND (process_id::text IS DISTINCT FROM $9::text OR ${fenceHolds('$9::text', '$10')}) RETURNING process_id, input),
         ${messagesCte('msg', '$12', '$1', 'done.process_id', '$2', 'done CROSS JOIN', 'true')},
         ev AS (INSERT INTO turn_events (tenant_id, process_id, turn_id, type, payload)
           SELECT $1, done.process_id, $2, x.e->>'type', x.e->'payload' FROM done CROSS JOIN jsonb_array_elements($11::jsonb) WITH ORDINALITY AS x(e, n)
           ORDER BY x.n RETURNING ${EVENT_RETURNING}),
         ${notify.cte}
         SELECT d.process_id, d.input, false AS fenced, ${eventsJson('ev')} AS events
         FROM done d CROSS JOIN (SELECT count(*) FROM sent) n CROSS JOIN (SELECT count(*) FROM msg) m
         UNION ALL SELECT NULL, NULL, true, NULL WHERE NOT EXISTS (SELECT 1 FROM done) AND $9::text IS NOT NULL
           AND EXISTS (SELECT 1 FROM turns WHERE tenant_id = $1 AND id = $2 AND status = 'RUNNING' AND process_id::text = $9::text)
           AND NOT ${fenceHolds('$9::text', '$10')}`,
        [tenantId, turnId, outcome.status, outcome.finishReason ?? null, outcome.usage ? JSON.stringify(outcome.usage) : null,
          outcome.errorCode ?? null, outcome.errorMessage ?? null, outcome.openSkillsBefore ? JSON.stringify(outcome.openSkillsBefore) : null,
          fence?.key ?? null, fence?.token ?? null, JSON.stringify(events.map((e) => ({ type: e.type, payload: e.payload }))), messagesParam(outcome.held?.messages),
          ...notify.params],
      );
      const row = rows[0];
      if (row?.fenced) throw new LeaseLostError(fence!.key, fence!.token);
      if (!row?.process_id || !row.input) return { ended: false, events: [] };
      // Without a plan (a store caller of its own): the input back as it was taken, its turn requested at once.
      const restore = outcome.restore ?? { messages: row.input.map((m) => ({ ...m, attempts: m.attempts ?? 0, failure: m.failure ?? null, failed: false })), retryInMs: 0 };
      if (restores) await restoreInput(em as EntityManager, tenantId, turnId, row.process_id, restore);
      return { ended: true, events: (row.events ?? []).map(toEvent) };
    };
    const { ended, events } = await announcedWrite(this.notifier, () => (restores ? this.dataSource.transaction(finish) : finish(this.dataSource)));
    this.deliver(events);
    return ended;
  }

  async regenerate(tenantId: string, turnId: string): Promise<{ openSkillsBefore: readonly string[] | null } | null> {
    if (!isUuid(tenantId) || !isUuid(turnId)) return null;
    return this.dataSource.transaction(async (em) => {
      const rows: { process_id: string; input: TakenMessage[]; open_skills_before: unknown }[] = await em.query(
        `WITH done AS (UPDATE turns SET status = 'REGENERATED' WHERE tenant_id = $1 AND id = $2 AND status = 'FINISHED'
           RETURNING process_id, input, open_skills_before)
         SELECT process_id, input, open_skills_before FROM done`,
        [tenantId, turnId],
      );
      const row = rows[0];
      if (!row) return null;
      await restoreInput(em, tenantId, turnId, row.process_id, row.input);
      const before = Array.isArray(row.open_skills_before) ? row.open_skills_before.filter((s): s is string => typeof s === 'string') : null;
      return { openSkillsBefore: before };
    });
  }

  async findTurn(tenantId: string, turnId: string): Promise<Turn | null> {
    if (!isUuid(tenantId) || !isUuid(turnId)) return null;
    const rows: TurnRow[] = await this.dataSource.query(`SELECT ${TURN_COLUMNS} FROM turns WHERE tenant_id = $1 AND id = $2`, [tenantId, turnId]);
    return rows[0] ? toTurn(rows[0]) : null;
  }

  async listTurns(tenantId: string, processId: string): Promise<Turn[]> {
    if (!isUuid(tenantId) || !isUuid(processId)) return [];
    const rows: TurnRow[] = await this.dataSource.query(
      `SELECT ${TURN_COLUMNS} FROM turns WHERE tenant_id = $1 AND process_id = $2 ORDER BY started_at, id`, [tenantId, processId]);
    return rows.map(toTurn);
  }

  async listMessages(tenantId: string, processId: string): Promise<ChatLogMessage[]> {
    if (!isUuid(tenantId) || !isUuid(processId)) return [];
    return this.chatLogs.list(tenantId, processId);
  }

  async appendEvents(tenantId: string, processId: string, turnId: string, events: readonly NewTurnEvent[], messages: readonly NewChatLogMessage[] = []): Promise<TurnEvent[]> {
    if (events.length === 0 && messages.length === 0) return [];
    // One statement for the chat-log rows and several events; ids follow the list's order (ORDER BY
    // before the identity), and so do their NOTIFYs, sent with the commit of this very statement
    // (commit-notifier.ts). Fenced (issue 14): a lane whose lease was taken over neither stores nor
    // (so) announces anything.
    const token = fenceTokenFor(processId);
    const notify = this.notifying('ins', 8);
    const rows: { holds: boolean; events: EventRow[] | null }[] = await announcedWrite(this.notifier, () => queryPrepared(this.dataSource,
      `WITH fence AS (SELECT ${fenceHolds('$6', '$5')} AS holds),
       ${messagesCte('msg', '$7', '$1', '$2', '$3', '', '(SELECT holds FROM fence)')},
       ins AS (INSERT INTO turn_events (tenant_id, process_id, turn_id, type, payload)
         SELECT $1, $2, $3, x.e->>'type', x.e->'payload' FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS x(e, n)
         WHERE (SELECT holds FROM fence) ORDER BY x.n
         RETURNING ${EVENT_RETURNING}),
       ${notify.cte}
       SELECT (SELECT holds FROM fence) AS holds, ${eventsJson('ins')} AS events, (SELECT count(*) FROM sent) AS n, (SELECT count(*) FROM msg) AS m`,
      [tenantId, processId, turnId, JSON.stringify(events.map((e) => ({ type: e.type, payload: e.payload }))), token, processId, messagesParam(messages), ...notify.params],
    ));
    if (!rows[0]?.holds) throw new LeaseLostError(processId, token ?? '');
    const stored = (rows[0].events ?? []).map(toEvent);
    this.deliver(stored);
    return stored;
  }

  async listEvents(tenantId: string, processId: string, afterEventId: string | null, limit = 10_000): Promise<TurnEvent[]> {
    if (!isUuid(tenantId) || !isUuid(processId)) return [];
    const after = afterEventId !== null && DIGITS.test(afterEventId) ? afterEventId : '0';
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM turn_events WHERE tenant_id = $1 AND process_id = $2 AND turn_events.id > $3::bigint ORDER BY turn_events.id LIMIT $4`,
      [tenantId, processId, after, limit],
    );
    return rows.map(toEvent);
  }

  async findEvent(tenantId: string, eventId: string): Promise<TurnEvent | null> {
    if (!isUuid(tenantId) || !DIGITS.test(eventId)) return null;
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM turn_events WHERE tenant_id = $1 AND turn_events.id = $2::bigint`, [tenantId, eventId]);
    return rows[0] ? toEvent(rows[0]) : null;
  }

  async listRunningTurnsOf(processId: string): Promise<Turn[]> {
    if (!isUuid(processId)) return [];
    const rows: TurnRow[] = await this.dataSource.query(
      `SELECT ${TURN_COLUMNS} FROM turns WHERE process_id = $1 AND status = 'RUNNING' ORDER BY started_at`, [processId]);
    return rows.map(toTurn);
  }

  async listRunningTurns(): Promise<Turn[]> {
    // A turn under a valid lease runs on a live instance; the others' instance died (or stalled past its lease).
    const rows: TurnRow[] = await this.dataSource.query(
      `SELECT ${TURN_COLUMNS} FROM turns WHERE status = 'RUNNING'
         AND NOT EXISTS (SELECT 1 FROM lane_leases WHERE lane_key = turns.process_id::text AND expires_at > clock_timestamp())
       ORDER BY started_at`);
    return rows.map(toTurn);
  }

  async listRequestedTurns(): Promise<{ tenantId: string; processId: string }[]> {
    const rows: { tenant_id: string; id: string }[] = await this.dataSource.query(
      // Due only: a failed turn's retry waits for its backoff (issue 14).
      // Repaired first: an IDLE process with a waiting message but no request. beginTurn can clear
      // the request of a `queue` that committed while it waited for the process row, although that
      // message was not in its snapshot (stranded-inbox.test.ts); if the queuing instance died before
      // scheduling, only this finds it. Driven from the inbox, which is small.
      `WITH repaired AS (UPDATE processes p SET turn_requested_at = clock_timestamp()
         FROM (SELECT DISTINCT tenant_id, process_id FROM process_inbox WHERE failed_at IS NULL) waiting
         WHERE p.tenant_id = waiting.tenant_id AND p.id = waiting.process_id AND p.turn_requested_at IS NULL AND p.status = 'IDLE'
         RETURNING p.tenant_id, p.id, p.turn_requested_at)
       SELECT tenant_id, id FROM (
         SELECT tenant_id, id, turn_requested_at FROM processes WHERE turn_requested_at <= clock_timestamp() AND status = 'IDLE'
         UNION ALL SELECT tenant_id, id, turn_requested_at FROM repaired) due
       ORDER BY turn_requested_at`);
    return rows.map((r) => ({ tenantId: r.tenant_id, processId: r.id }));
  }
}

function toTurn(r: TurnRow): Turn {
  return {
    id: r.id, tenantId: r.tenant_id, processId: r.process_id, engine: r.engine, status: r.status, finishReason: r.finish_reason,
    usage: r.usage, errorCode: r.error_code, errorMessage: r.error_message, startedAt: new Date(r.started_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
  };
}

function toEvent(r: EventRow): TurnEvent {
  return {
    id: String(r.id), tenantId: r.tenant_id, processId: r.process_id, turnId: r.turn_id, type: r.type, payload: r.payload,
    at: new Date(r.created_at).toISOString(),
  };
}
