/**
 * The ProcessStore port on PostgreSQL/PGlite: sessions, processes and their inboxes (seed 004 §7,
 * seed 000 §5d, DESIGN §3). Every statement filters by tenant (defence in depth on top of the
 * composite foreign keys of the migration); a malformed id is "not found", never a driver error.
 *
 * Atomicity: `openSession` is one upsert; `update` is one transaction that locks the row
 * (SELECT … FOR NO KEY UPDATE), runs the pure `mutate` on it and writes only the patched columns,
 * so concurrent writers queue on the row lock and never lose an update. FOR NO KEY UPDATE rather
 * than FOR UPDATE: it serialises writers of the row just the same, but does not block inserts into
 * `process_inbox`/`messages`, whose foreign-key checks take a KEY SHARE lock on the process.
 * Inside the transaction only `em` is used (PGlite has one session: STACK §4).
 *
 * Process events (issue 14, typeorm-process-event-log.ts) are written by the statement that makes
 * the change they report: with the patch of `update`, in the statement of `queue`, or alone.
 * Row shapes and mapping: process-rows.ts.
 */
import type { DataSource } from 'typeorm';
import { NotFoundError } from '../domain/errors';
import type { MessageSender, PendingMessage, Process, Session } from '../domain/processes/process';
import type { NewPendingMessage, NewProcess, ProcessPatch, ProcessStore, QueuingMessage } from '../domain/processes/process-store';
import type { ProcessEvent, StoredProcessEvent } from '../domain/processes/process-event';
import { randomUUID } from 'node:crypto';
import { announcedWrite, SILENT_NOTIFIER, type CommitNotifier } from './commit-notifier';
import { confirmedWrite } from './confirm-write';
import {
  guardToJson, PENDING_COLUMNS, PROCESS_COLUMNS, recipeGuardToJson, SESSION_COLUMNS, skillRefToJson, toolAdjustmentsToJson, toPending, toProcess,
  toSession, writePatch, type PendingRow, type ProcessRow, type SessionRow,
} from './process-rows';
import { toStoredEvent, TypeOrmProcessEventLog, type EventRow } from './typeorm-process-event-log';
import { translateDbError } from './translate-db-error';
import { escapeLike } from './typeorm-document-store';
import { isUuid } from './uuid';
import { queryPrepared } from './prepared';


/** What `queue` wrote. */
interface Queued {
  readonly process: Process;
  readonly queued: PendingMessage[];
  readonly events: StoredProcessEvent[];
}

/**
 * Insert or find in ONE statement, race-free: a concurrent opener of the same name waits for the
 * other's row and then "updates" it (a no-op write that takes the row lock), so both get the same
 * row. The WHERE keeps a row of another tenant untouched (nothing returned = not found); a project
 * of another tenant never gets a row, the composite foreign key refuses it.
 */
const OPEN_SESSION = `
  INSERT INTO sessions AS s (tenant_id, project_id, user_id, name) VALUES ($1, $2, $3, $4)
  ON CONFLICT (project_id, user_id, name) DO UPDATE SET name = EXCLUDED.name
  WHERE s.tenant_id = EXCLUDED.tenant_id
  RETURNING ${SESSION_COLUMNS}`;

const INSERT_PROCESS = `
  INSERT INTO processes (tenant_id, project_id, session_id, user_id, name, parent_process_id, engine,
    recipe_name, recipe_source, connection_profile, active_skills, allowed_skills_override, locked,
    engine_params, prompt_override, profile_append, prompt_mode, data_relay_correction, tool_adjustments, guards,
    recipe_guards, title, goal)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $14::jsonb, $15, $16, $17, $18,
    $19::jsonb, $20::jsonb, $21::jsonb, $22, $23)
  RETURNING ${PROCESS_COLUMNS}`;

export class TypeOrmProcessStore implements ProcessStore {
  /** Process events: stored with the changes they report (update, queue), or alone. */
  private readonly events: TypeOrmProcessEventLog;

  constructor(private readonly dataSource: DataSource, private readonly notifier: CommitNotifier = SILENT_NOTIFIER) {
    this.events = new TypeOrmProcessEventLog(dataSource, notifier);
  }

  append(tenantId: string, processId: string, events: readonly ProcessEvent[]): Promise<StoredProcessEvent[]> {
    return this.events.append(tenantId, processId, events);
  }

  listEvents(tenantId: string, processId: string, afterEventId: string | null, limit?: number): Promise<StoredProcessEvent[]> {
    return this.events.listEvents(tenantId, processId, afterEventId, limit);
  }

  latestEventId(tenantId: string, processId: string): Promise<string | null> {
    return this.events.latestEventId(tenantId, processId);
  }

  findEvent(tenantId: string, eventId: string): Promise<StoredProcessEvent | null> {
    return this.events.findEvent(tenantId, eventId);
  }

  async openSession(tenantId: string, projectId: string, userId: string, name: string): Promise<Session> {
    if (!isUuid(tenantId) || !isUuid(projectId)) throw new NotFoundError('Project', projectId);
    if (!isUuid(userId)) throw new NotFoundError('User', userId);
    let rows: SessionRow[];
    try {
      rows = await this.dataSource.query(OPEN_SESSION, [tenantId, projectId, userId, name]);
    } catch (err) {
      throw translateDbError(err, { fk_sessions_project: ['Project', projectId], fk_sessions_user: ['User', userId] });
    }
    // The (project, user, name) row exists under another tenant: the project is not the caller's.
    if (!rows[0]) throw new NotFoundError('Project', projectId);
    return toSession(rows[0]);
  }

  async findSession(tenantId: string, sessionId: string): Promise<Session | null> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return null;
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE tenant_id = $1 AND id = $2`,
      [tenantId, sessionId],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  async listSessions(tenantId: string, projectId: string, userId: string | null): Promise<Session[]> {
    if (!isUuid(tenantId) || !isUuid(projectId) || (userId !== null && !isUuid(userId))) return [];
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT ${SESSION_COLUMNS} FROM sessions
       WHERE tenant_id = $1 AND project_id = $2 AND ($3::uuid IS NULL OR user_id = $3)
       ORDER BY created_at, name, id`,
      [tenantId, projectId, userId],
    );
    return rows.map(toSession);
  }

  async createProcess(process: NewProcess): Promise<Process> {
    const { tenantId, projectId, sessionId, userId, name, parentProcessId } = process;
    if (!isUuid(tenantId) || !isUuid(projectId) || !isUuid(sessionId)) throw new NotFoundError('Session', sessionId);
    if (!isUuid(userId)) throw new NotFoundError('User', userId);
    if (parentProcessId !== null) {
      // The parent key is a plain foreign key (see the migration): its tenant is checked here. A
      // process never changes tenant, so the check cannot go stale; a concurrent delete of the
      // parent is still caught by the foreign key.
      const parent: unknown[] = isUuid(parentProcessId)
        ? await this.dataSource.query('SELECT 1 FROM processes WHERE tenant_id = $1 AND id = $2', [tenantId, parentProcessId])
        : [];
      if (parent.length === 0) throw new NotFoundError('Process', parentProcessId);
    }
    let rows: ProcessRow[];
    try {
      rows = await this.dataSource.query(INSERT_PROCESS, [
        tenantId,
        projectId,
        sessionId,
        userId,
        name,
        parentProcessId,
        process.engine,
        process.recipeName,
        process.recipeSource,
        process.connectionProfile,
        JSON.stringify(process.activeSkills.map(skillRefToJson)),
        process.allowedSkillsOverride === null ? null : JSON.stringify([...process.allowedSkillsOverride]),
        process.locked,
        JSON.stringify(process.engineParams),
        process.promptOverride,
        process.profileAppend,
        process.promptMode,
        process.dataRelayCorrectionOverride,
        JSON.stringify(toolAdjustmentsToJson(process.toolAdjustments)),
        JSON.stringify(process.guards.map(guardToJson)),
        JSON.stringify(process.recipeGuards.map(recipeGuardToJson)),
        process.title ?? null,
        process.goal ?? null,
      ]);
    } catch (err) {
      throw translateDbError(err, {
        uq_processes_session_name: ['Process', name],
        fk_processes_session: ['Session', sessionId],
        fk_processes_user: ['User', userId],
        fk_processes_parent: ['Process', parentProcessId ?? ''],
      });
    }
    return toProcess(rows[0]!);
  }

  async findProcess(tenantId: string, processId: string): Promise<Process | null> {
    if (!isUuid(tenantId) || !isUuid(processId)) return null;
    // Every turn reads its process (prepared.ts).
    const rows: ProcessRow[] = await queryPrepared(this.dataSource,
      `SELECT ${PROCESS_COLUMNS} FROM processes WHERE tenant_id = $1 AND id = $2`,
      [tenantId, processId],
    );
    return rows[0] ? toProcess(rows[0]) : null;
  }

  async listProcesses(tenantId: string, projectId: string, sessionId: string | null): Promise<Process[]> {
    if (!isUuid(tenantId) || !isUuid(projectId) || (sessionId !== null && !isUuid(sessionId))) return [];
    const rows: ProcessRow[] = await this.dataSource.query(
      `SELECT ${PROCESS_COLUMNS} FROM processes
       WHERE tenant_id = $1 AND project_id = $2 AND ($3::uuid IS NULL OR session_id = $3)
       ORDER BY created_at, name, id`,
      [tenantId, projectId, sessionId],
    );
    return rows.map(toProcess);
  }

  async processNames(tenantId: string, sessionId: string, prefix: string): Promise<string[]> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return [];
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT name FROM processes
       WHERE tenant_id = $1 AND session_id = $2 AND name LIKE $3 ESCAPE '\\'
       ORDER BY name`,
      [tenantId, sessionId, `${escapeLike(prefix)}%`],
    );
    return rows.map((r) => r.name);
  }

  async update(tenantId: string, processId: string, mutate: (current: Process) => ProcessPatch | null, events: readonly ProcessEvent[] = []): Promise<Process> {
    if (!isUuid(tenantId) || !isUuid(processId)) throw new NotFoundError('Process', processId);
    const { process, stored } = await announcedWrite(this.notifier, () => this.dataSource.transaction(async (em) => {
      const locked: ProcessRow[] = await em.query(
        `SELECT ${PROCESS_COLUMNS} FROM processes WHERE tenant_id = $1 AND id = $2 FOR NO KEY UPDATE`,
        [tenantId, processId],
      );
      if (!locked[0]) throw new NotFoundError('Process', processId);
      const current = toProcess(locked[0]);
      const patch = mutate(current);
      const updated = patch === null ? current : (await writePatch(em, tenantId, processId, patch)) ?? current;
      // The events of the change commit with it, or neither does.
      const written = events.length > 0 ? await this.events.appendIn(em, tenantId, processId, events) : [];
      return { process: updated, stored: written };
    }));
    this.events.deliver(stored);
    return process;
  }

  async appendPending(tenantId: string, processId: string, message: NewPendingMessage): Promise<PendingMessage> {
    if (!isUuid(tenantId) || !isUuid(processId)) throw new NotFoundError('Process', processId);
    let rows: PendingRow[];
    try {
      rows = await this.dataSource.query(
        `INSERT INTO process_inbox (tenant_id, process_id, sender, sender_name, content) VALUES ($1, $2, $3, $4, $5)
         RETURNING ${PENDING_COLUMNS}`,
        [tenantId, processId, message.sender, message.senderName, message.content],
      );
    } catch (err) {
      // The composite key (tenant_id, process_id) → processes also refuses another tenant's process.
      throw translateDbError(err, { fk_process_inbox_process: ['Process', processId] });
    }
    return toPending(rows[0]!);
  }

  async queue(
    tenantId: string, processId: string, messages: readonly NewPendingMessage[], announce?: (queued: readonly QueuingMessage[]) => readonly ProcessEvent[],
  ): Promise<{ process: Process; queued: PendingMessage[] }> {
    const result = await this.queueWhere(tenantId, processId, null, messages, announce);
    if (!result) throw new NotFoundError('Process', processId);
    return result;
  }

  queueIfIdleOwner(
    tenantId: string, processId: string, ownerId: string, messages: readonly NewPendingMessage[], announce?: (queued: readonly QueuingMessage[]) => readonly ProcessEvent[],
  ): Promise<{ process: Process; queued: PendingMessage[] } | null> {
    return isUuid(ownerId) ? this.queueWhere(tenantId, processId, ownerId, messages, announce) : Promise.resolve(null);
  }

  /** `queue`; with `ownerId`, only into an IDLE process of that owner (null otherwise). */
  private async queueWhere(
    tenantId: string, processId: string, ownerId: string | null, messages: readonly NewPendingMessage[], announce?: (queued: readonly QueuingMessage[]) => readonly ProcessEvent[],
  ): Promise<{ process: Process; queued: PendingMessage[] } | null> {
    if (!isUuid(tenantId) || !isUuid(processId)) return null;
    // The ids are chosen here, so that the events about the messages are written by the same statement.
    const queuing = messages.map((m): QueuingMessage => ({ id: randomUUID(), sender: m.sender, senderName: m.senderName, content: m.content }));
    const events = announce ? announce(queuing) : [];
    type QueueRow = ProcessRow & { p_id: string; p_process_id: string; p_sender: MessageSender; p_sender_name: string; p_content: string; p_created_at: Date; p_events: EventRow[] | null };
    const shaped = (rows: QueueRow[]): Queued | null => (rows[0] ? {
      process: toProcess(rows[0]),
      queued: rows.map((r) => toPending({
        id: r.p_id, process_id: r.p_process_id, sender: r.p_sender, sender_name: r.p_sender_name, content: r.p_content, created_at: r.p_created_at,
        attempts: 0, failure: null, failed_at: null,
      })),
      events: (rows[0].p_events ?? []).map(toStoredEvent),
    } : null);
    let result: Queued | null;
    try {
      // One statement: the messages in order, the turn request set unless it already is (its time
      // is the oldest waiting request's), and the events. The row is the process after it, once per message.
      // A lost connection: the first message's id says whether the statement committed (confirm-write.ts).
      // `guard` locks the row first: a status or owner that changes meanwhile is re-checked on the
      // newest row there, before any message is in.
      result = await confirmedWrite('the message', async () => shaped(await announcedWrite(this.notifier, () => queryPrepared(this.dataSource,
        `WITH guard AS (
           SELECT id FROM processes WHERE tenant_id = $1 AND id = $2
             AND ($8::uuid IS NULL OR (status = 'IDLE' AND user_id = $8::uuid)) FOR NO KEY UPDATE),
         ins AS (
           INSERT INTO process_inbox (id, tenant_id, process_id, sender, sender_name, content)
           SELECT (x.m->>'id')::uuid, $1, $2, x.m->>'sender', x.m->>'senderName', x.m->>'content'
           FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(m, n) WHERE EXISTS (SELECT 1 FROM guard) ORDER BY x.n
           RETURNING ${PENDING_COLUMNS}, seq),
         up AS (
           UPDATE processes SET turn_requested_at = COALESCE(turn_requested_at, clock_timestamp()),
             updated_at = CASE WHEN turn_requested_at IS NULL THEN clock_timestamp() ELSE updated_at END
           WHERE tenant_id = $1 AND id = $2 AND EXISTS (SELECT 1 FROM ins)
           RETURNING ${PROCESS_COLUMNS}),
         ${this.events.ctes({ tenant: '$1', process: '$2', events: '$4', channel: 5, when: 'EXISTS (SELECT 1 FROM up)' })}
         SELECT ins.id AS p_id, ins.process_id AS p_process_id, ins.sender AS p_sender, ins.sender_name AS p_sender_name,
           ins.content AS p_content, ins.created_at AS p_created_at, up.*,
           (SELECT jsonb_agg(jsonb_build_object('id', id::text, 'tenant_id', tenant_id, 'process_id', process_id, 'event', event, 'created_at', created_at) ORDER BY id)
             FROM ev) AS p_events
         FROM ins CROSS JOIN up CROSS JOIN (SELECT count(*) FROM sent) n ORDER BY ins.seq`,
        [tenantId, processId, JSON.stringify(queuing), JSON.stringify(events), ...this.events.notifyParams, ownerId],
      ))), () => this.queuedEarlier(tenantId, processId, queuing));
    } catch (err) {
      throw translateDbError(err, { fk_process_inbox_process: ['Process', processId] });
    }
    if (!result) return null;
    this.events.deliver(result.events);
    return { process: result.process, queued: result.queued };
  }

  /**
   * Whether a `queue` whose connection was lost committed: its messages' rows, wherever a turn has
   * taken them since (the inbox, or a turn's input), shaped like the statement's answer; null when not.
   */
  private async queuedEarlier(tenantId: string, processId: string, queuing: readonly QueuingMessage[]): Promise<Queued | null> {
    const first = queuing[0]!.id;
    const found: { created_at: Date }[] = await this.dataSource.query(
      `SELECT created_at FROM process_inbox WHERE tenant_id = $1 AND id = $2::uuid
       UNION ALL SELECT t.started_at FROM turns t WHERE t.tenant_id = $1 AND t.process_id = $3 AND t.input @> jsonb_build_array(jsonb_build_object('id', $2::text))
       LIMIT 1`,
      [tenantId, first, processId]);
    if (found.length === 0) return null;
    const process = await this.findProcess(tenantId, processId);
    if (!process) return null;
    const all = await this.listEvents(tenantId, processId, null);
    const ids = new Set(queuing.map((m) => m.id));
    const from = all.findIndex((e) => e.event.type === 'MESSAGE_QUEUED' && ids.has(e.event.messageId));
    return {
      process,
      queued: queuing.map((m) => ({ ...m, processId, createdAt: new Date(found[0]!.created_at), attempts: 0, failure: null, failedAt: null })),
      // The statement's events: its MESSAGE_QUEUEDs and the TURN_SCHEDULED after them.
      events: from < 0 ? [] : all.slice(from, from + queuing.length + 1),
    };
  }

  async listPending(tenantId: string, processId: string): Promise<PendingMessage[]> {
    if (!isUuid(tenantId) || !isUuid(processId)) return [];
    const rows: PendingRow[] = await this.dataSource.query(
      `SELECT ${PENDING_COLUMNS} FROM process_inbox WHERE tenant_id = $1 AND process_id = $2 ORDER BY seq`,
      [tenantId, processId],
    );
    return rows.map(toPending);
  }
}

