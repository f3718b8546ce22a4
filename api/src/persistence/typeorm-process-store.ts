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
 * Process events (issue 14) are stored in `process_events` and NOTIFYed by the statement that
 * stores them (commit-notifier.ts): with the patch of `update`, in the statement of `queue`, or
 * alone (`append`); this instance's subscribers get them after the commit.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { Layer } from '../domain/cascade/layer';
import { NotFoundError } from '../domain/errors';
import type {
  ActiveSkillRef,
  MessageSender,
  PendingMessage,
  Process,
  ProcessStatus,
  RuntimeGuard,
  Session,
  ToolAdjustments,
} from '../domain/processes/process';
import type { NewPendingMessage, NewProcess, ProcessPatch, ProcessStore, QueuingMessage } from '../domain/processes/process-store';
import { PROCESS_EVENTS_TOPIC, type ProcessEvent, type ProcessEventEnvelope, type StoredProcessEvent } from '../domain/processes/process-event';
import { randomUUID } from 'node:crypto';
import { notifyCte, type CommitNotifier } from './commit-notifier';
import { confirmedWrite } from './confirm-write';
import { GUARD_TRIGGERS, type PromptMode, type RecipeGuard } from '../domain/recipes/recipe';
import { translateDbError } from './translate-db-error';
import { escapeLike } from './typeorm-document-store';
import { isUuid } from './uuid';

interface SessionRow {
  id: string;
  tenant_id: string;
  project_id: string;
  user_id: string;
  name: string;
  created_at: Date;
}

interface ProcessRow {
  id: string;
  tenant_id: string;
  project_id: string;
  session_id: string;
  user_id: string;
  name: string;
  parent_process_id: string | null;
  status: ProcessStatus;
  engine: string;
  recipe_name: string | null;
  recipe_source: Layer | null;
  connection_profile: string | null;
  active_skills: unknown;
  allowed_skills_override: unknown;
  locked: boolean;
  engine_params: unknown;
  prompt_override: string | null;
  profile_append: string | null;
  prompt_mode: PromptMode;
  data_relay_correction: string | null;
  tool_adjustments: unknown;
  guards: unknown;
  recipe_guards: unknown;
  guard_rounds: unknown;
  open_skills: unknown;
  skill_uses: unknown;
  turn_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface PendingRow {
  id: string;
  process_id: string;
  sender: MessageSender;
  sender_name: string;
  content: string;
  created_at: Date;
  attempts: number;
  failure: string | null;
  failed_at: Date | null;
}

interface EventRow {
  id: string;
  tenant_id: string;
  process_id: string;
  event: ProcessEvent;
  created_at: Date | string;
}

const SESSION_COLUMNS = 'id, tenant_id, project_id, user_id, name, created_at';

const PROCESS_COLUMNS = `id, tenant_id, project_id, session_id, user_id, name, parent_process_id, status, engine,
  recipe_name, recipe_source, connection_profile, active_skills, allowed_skills_override, locked, engine_params,
  prompt_override, profile_append, prompt_mode, data_relay_correction, tool_adjustments, guards,
  recipe_guards, guard_rounds, open_skills, skill_uses, turn_requested_at, created_at, updated_at`;

const PENDING_COLUMNS = 'id, process_id, sender, sender_name, content, created_at, attempts, failure, failed_at';

const EVENT_COLUMNS = 'id::text AS id, tenant_id, process_id, event, created_at';
/** A process event as the other instances get it: the envelope, its event left out when too large. */
const EVENT_SLIM = `jsonb_build_object('id', id::text, 'tenantId', tenant_id, 'processId', process_id,
  'at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
const EVENT_FULL = `(${EVENT_SLIM} || jsonb_build_object('event', event))`;
const DIGITS = /^\d{1,18}$/;

/** What `queue` wrote. */
interface Queued {
  readonly process: Process;
  readonly queued: PendingMessage[];
  readonly events: StoredProcessEvent[];
}

/** Without a bus (store tests): events are stored and announced to nobody. */
const SILENT: CommitNotifier = { channel: null, origin: 'silent', deliverLocal: () => {} };

/**
 * The CTEs `ev` (insert the events of jsonb array `$events`, in order, when `when` holds) and
 * `sent` (their NOTIFYs); the statement must reference `sent`. `$events`, `$channel`… are
 * placeholders given by the caller.
 */
function eventCtes(p: { tenant: string; process: string; events: string; channel: string; topic: string; origin: string; when?: string }): string {
  return `ev AS (INSERT INTO process_events (tenant_id, process_id, type, event)
      SELECT ${p.tenant}, ${p.process}, x.e->>'type', x.e FROM jsonb_array_elements(${p.events}::jsonb) WITH ORDINALITY AS x(e, n)
      ${p.when ? `WHERE ${p.when}` : ''} ORDER BY x.n
      RETURNING id, tenant_id, process_id, event, created_at),
    ${notifyCte('sent', 'ev', { channel: p.channel, topic: p.topic, origin: p.origin }, EVENT_FULL, EVENT_SLIM, 'id')}`;
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
    recipe_guards)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $14::jsonb, $15, $16, $17, $18,
    $19::jsonb, $20::jsonb, $21::jsonb)
  RETURNING ${PROCESS_COLUMNS}`;

export class TypeOrmProcessStore implements ProcessStore {
  constructor(private readonly dataSource: DataSource, private readonly notifier: CommitNotifier = SILENT) {}

  private get notifyParams(): unknown[] {
    return [this.notifier.channel, PROCESS_EVENTS_TOPIC, this.notifier.origin];
  }

  /** After the commit: this instance's subscribers (the others got the statement's NOTIFY). */
  private deliver(events: readonly StoredProcessEvent[]): void {
    for (const event of events) this.notifier.deliverLocal(PROCESS_EVENTS_TOPIC, envelopeOf(event));
  }

  async append(tenantId: string, processId: string, events: readonly ProcessEvent[]): Promise<StoredProcessEvent[]> {
    if (events.length === 0) return [];
    if (!isUuid(tenantId) || !isUuid(processId)) throw new NotFoundError('Process', processId);
    const stored = await appendEvents(this.dataSource, tenantId, processId, events, this.notifyParams);
    this.deliver(stored);
    return stored;
  }

  async listEvents(tenantId: string, processId: string, afterEventId: string | null, limit = 10_000): Promise<StoredProcessEvent[]> {
    if (!isUuid(tenantId) || !isUuid(processId)) return [];
    const after = afterEventId !== null && DIGITS.test(afterEventId) ? afterEventId : '0';
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM process_events WHERE tenant_id = $1 AND process_id = $2 AND process_events.id > $3::bigint
       ORDER BY process_events.id LIMIT $4`,
      [tenantId, processId, after, limit],
    );
    return rows.map(toStoredEvent);
  }

  async latestEventId(tenantId: string, processId: string): Promise<string | null> {
    if (!isUuid(tenantId) || !isUuid(processId)) return null;
    const rows: { id: string | null }[] = await this.dataSource.query(
      `SELECT max(id)::text AS id FROM process_events WHERE tenant_id = $1 AND process_id = $2`, [tenantId, processId]);
    return rows[0]?.id ?? null;
  }

  async findEvent(tenantId: string, eventId: string): Promise<StoredProcessEvent | null> {
    if (!isUuid(tenantId) || !DIGITS.test(eventId)) return null;
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM process_events WHERE tenant_id = $1 AND process_events.id = $2::bigint`, [tenantId, eventId]);
    return rows[0] ? toStoredEvent(rows[0]) : null;
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
    const rows: ProcessRow[] = await this.dataSource.query(
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
    const { process, stored } = await this.dataSource.transaction(async (em) => {
      const locked: ProcessRow[] = await em.query(
        `SELECT ${PROCESS_COLUMNS} FROM processes WHERE tenant_id = $1 AND id = $2 FOR NO KEY UPDATE`,
        [tenantId, processId],
      );
      if (!locked[0]) throw new NotFoundError('Process', processId);
      const current = toProcess(locked[0]);
      const patch = mutate(current);
      const updated = patch === null ? current : (await writePatch(em, tenantId, processId, patch)) ?? current;
      // The events of the change commit with it, or neither does.
      const written = events.length > 0 ? await appendEvents(em, tenantId, processId, events, this.notifyParams) : [];
      return { process: updated, stored: written };
    });
    this.deliver(stored);
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
    if (!isUuid(tenantId) || !isUuid(processId)) throw new NotFoundError('Process', processId);
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
      result = await confirmedWrite('the message', async () => shaped(await this.dataSource.query(
        `WITH ins AS (
           INSERT INTO process_inbox (id, tenant_id, process_id, sender, sender_name, content)
           SELECT (x.m->>'id')::uuid, $1, $2, x.m->>'sender', x.m->>'senderName', x.m->>'content'
           FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(m, n) ORDER BY x.n
           RETURNING ${PENDING_COLUMNS}, seq),
         up AS (
           UPDATE processes SET turn_requested_at = COALESCE(turn_requested_at, clock_timestamp()),
             updated_at = CASE WHEN turn_requested_at IS NULL THEN clock_timestamp() ELSE updated_at END
           WHERE tenant_id = $1 AND id = $2 AND EXISTS (SELECT 1 FROM ins)
           RETURNING ${PROCESS_COLUMNS}),
         ${eventCtes({ tenant: '$1', process: '$2', events: '$4', channel: '$5', topic: '$6', origin: '$7', when: 'EXISTS (SELECT 1 FROM up)' })}
         SELECT ins.id AS p_id, ins.process_id AS p_process_id, ins.sender AS p_sender, ins.sender_name AS p_sender_name,
           ins.content AS p_content, ins.created_at AS p_created_at, up.*,
           (SELECT jsonb_agg(jsonb_build_object('id', id::text, 'tenant_id', tenant_id, 'process_id', process_id, 'event', event, 'created_at', created_at) ORDER BY id)
             FROM ev) AS p_events
         FROM ins CROSS JOIN up CROSS JOIN (SELECT count(*) FROM sent) n ORDER BY ins.seq`,
        [tenantId, processId, JSON.stringify(queuing), JSON.stringify(events), ...this.notifyParams],
      )), () => this.queuedEarlier(tenantId, processId, queuing));
    } catch (err) {
      throw translateDbError(err, { fk_process_inbox_process: ['Process', processId] });
    }
    if (!result) throw new NotFoundError('Process', processId);
    this.deliver(result.events);
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

/**
 * Writes the given fields of `patch` (a key that is absent or undefined is left alone) and bumps
 * updated_at. clock_timestamp(), not now(): now() is the start of a transaction that may have
 * queued on the row lock, so a later writer could record an earlier time. An empty patch writes
 * nothing (returns null).
 */
async function writePatch(em: EntityManager, tenantId: string, processId: string, patch: ProcessPatch): Promise<Process | null> {
  const params: unknown[] = [tenantId, processId];
  const sets: string[] = [];
  const set = (column: string, value: unknown, cast: string) => {
    params.push(value);
    sets.push(`${column} = $${params.length}::${cast}`);
  };
  if (patch.activeSkills !== undefined) set('active_skills', JSON.stringify(patch.activeSkills.map(skillRefToJson)), 'jsonb');
  if (patch.guards !== undefined) set('guards', JSON.stringify(patch.guards.map(guardToJson)), 'jsonb');
  if (patch.guardRounds !== undefined) set('guard_rounds', JSON.stringify(roundsToJson(patch.guardRounds)), 'jsonb');
  if (patch.openSkills !== undefined) set('open_skills', JSON.stringify([...new Set(patch.openSkills)]), 'jsonb');
  if (patch.skillUses !== undefined) set('skill_uses', JSON.stringify(roundsToJson(patch.skillUses)), 'jsonb');
  if (patch.status !== undefined) set('status', patch.status, 'text');
  if (patch.turnRequestedAt !== undefined) set('turn_requested_at', patch.turnRequestedAt, 'timestamptz');
  if (sets.length === 0) return null;
  // In a CTE because TypeORM answers a bare UPDATE with [rows, rowCount] instead of the rows.
  const rows: ProcessRow[] = await em.query(
    `WITH up AS (
       UPDATE processes SET ${sets.join(', ')}, updated_at = clock_timestamp()
       WHERE tenant_id = $1 AND id = $2
       RETURNING ${PROCESS_COLUMNS}
     ) SELECT ${PROCESS_COLUMNS} FROM up`,
    params,
  );
  // The row is locked by this transaction, so the update always finds it.
  return toProcess(rows[0]!);
}

// The jsonb shapes: exactly the domain fields, nothing a caller's object happens to carry besides.

function skillRefToJson(ref: ActiveSkillRef): ActiveSkillRef {
  return {
    name: ref.name,
    resolvedFromScope: ref.resolvedFromScope,
    oneShot: ref.oneShot,
    fromRecipe: ref.fromRecipe,
    activatedAt: ref.activatedAt,
    args: ref.args,
    reason: ref.reason,
  };
}

function guardToJson(guard: RuntimeGuard): RuntimeGuard {
  return guard.kind === 'SCRIPT'
    ? { kind: 'SCRIPT', path: guard.path, installedBy: guard.installedBy }
    : { kind: 'INLINE', body: guard.body, installedBy: guard.installedBy };
}

function toolAdjustmentsToJson(t: ToolAdjustments): ToolAdjustments {
  return { add: [...t.add], remove: [...t.remove], keep: [...t.keep], dropFirst: [...t.dropFirst], defer: [...t.defer] };
}

function toSession(row: SessionRow): Session {
  return { id: row.id, tenantId: row.tenant_id, projectId: row.project_id, userId: row.user_id, name: row.name, createdAt: row.created_at };
}

function toProcess(row: ProcessRow): Process {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    sessionId: row.session_id,
    userId: row.user_id,
    name: row.name,
    parentProcessId: row.parent_process_id,
    status: row.status,
    engine: row.engine,
    recipeName: row.recipe_name,
    recipeSource: row.recipe_source,
    connectionProfile: row.connection_profile,
    activeSkills: array(row.active_skills).map(skillRefFromJson),
    allowedSkillsOverride: row.allowed_skills_override === null ? null : array(row.allowed_skills_override).map(String),
    locked: row.locked,
    engineParams: isRecord(row.engine_params) ? row.engine_params : {},
    promptOverride: row.prompt_override,
    profileAppend: row.profile_append,
    promptMode: row.prompt_mode,
    dataRelayCorrectionOverride: row.data_relay_correction,
    toolAdjustments: toolAdjustmentsFromJson(row.tool_adjustments),
    guards: array(row.guards).map(guardFromJson),
    recipeGuards: array(row.recipe_guards).flatMap(recipeGuardFromJson),
    guardRounds: roundsFromJson(row.guard_rounds),
    openSkills: array(row.open_skills).filter((s): s is string => typeof s === 'string'),
    skillUses: roundsFromJson(row.skill_uses),
    turnRequestedAt: row.turn_requested_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

// Reading jsonb back: the columns only ever hold what the functions above wrote (the migration
// checks the top-level types); missing optional members read as their empty value.

function skillRefFromJson(value: unknown): ActiveSkillRef {
  const ref = isRecord(value) ? value : {};
  return {
    name: String(ref.name ?? ''),
    resolvedFromScope: ref.resolvedFromScope as Layer,
    oneShot: ref.oneShot === true,
    fromRecipe: ref.fromRecipe === true,
    activatedAt: String(ref.activatedAt ?? ''),
    args: typeof ref.args === 'string' ? ref.args : null,
    reason: String(ref.reason ?? ''),
  };
}

function guardFromJson(value: unknown): RuntimeGuard {
  const guard = isRecord(value) ? value : {};
  const installedBy = typeof guard.installedBy === 'string' ? guard.installedBy : null;
  return guard.kind === 'SCRIPT'
    ? { kind: 'SCRIPT', path: String(guard.path ?? ''), installedBy }
    : { kind: 'INLINE', body: String(guard.body ?? ''), installedBy };
}

function toolAdjustmentsFromJson(value: unknown): ToolAdjustments {
  const t = isRecord(value) ? value : {};
  const list = (v: unknown) => array(v).map(String);
  return { add: list(t.add), remove: list(t.remove), keep: list(t.keep), dropFirst: list(t.dropFirst), defer: list(t.defer) };
}

function toPending(row: PendingRow): PendingMessage {
  return {
    id: row.id,
    processId: row.process_id,
    sender: row.sender,
    senderName: row.sender_name,
    content: row.content,
    createdAt: row.created_at,
    attempts: Number(row.attempts ?? 0),
    failure: row.failure ?? null,
    failedAt: row.failed_at ? new Date(row.failed_at) : null,
  };
}

/** Stores `events` in one statement that NOTIFYs them too (on `db`: the pool, or a transaction's manager). */
async function appendEvents(
  db: Pick<EntityManager, 'query'>, tenantId: string, processId: string, events: readonly ProcessEvent[], notify: readonly unknown[],
): Promise<StoredProcessEvent[]> {
  let rows: EventRow[];
  try {
    rows = await db.query(
      `WITH ${eventCtes({ tenant: '$1', process: '$2', events: '$3', channel: '$4', topic: '$5', origin: '$6' })}
       SELECT ${EVENT_COLUMNS} FROM ev CROSS JOIN (SELECT count(*) FROM sent) n ORDER BY ev.id`,
      [tenantId, processId, JSON.stringify(events), ...notify],
    );
  } catch (err) {
    throw translateDbError(err, { fk_process_events_process: ['Process', processId] });
  }
  return rows.map(toStoredEvent);
}

function toStoredEvent(row: EventRow): StoredProcessEvent {
  return { id: String(row.id), tenantId: row.tenant_id, processId: row.process_id, at: new Date(row.created_at).toISOString(), event: row.event };
}

/** PostgreSQL refuses a NOTIFY of 8000 bytes or more: like the statement's NOTIFY, a large event goes out as its id. */
const MAX_INLINE_EVENT_BYTES = 6_000;
const utf8 = new TextEncoder();

function envelopeOf(event: StoredProcessEvent): ProcessEventEnvelope {
  if (utf8.encode(JSON.stringify(event.event)).length <= MAX_INLINE_EVENT_BYTES) return event;
  const { event: _event, ...slim } = event;
  return slim;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recipeGuardToJson(guard: RecipeGuard): RecipeGuard {
  return {
    script: guard.script.kind === 'PATH' ? { kind: 'PATH', path: guard.script.path } : { kind: 'INLINE', body: guard.script.body },
    params: guard.params, trigger: guard.trigger, maxRounds: guard.maxRounds, allowTools: guard.allowTools,
  };
}

function recipeGuardFromJson(value: unknown): RecipeGuard[] {
  if (!isRecord(value) || !isRecord(value.script)) return [];
  const script = value.script;
  const trigger = GUARD_TRIGGERS.find((t) => t === value.trigger) ?? 'stop';
  return [{
    script: script.kind === 'PATH' ? { kind: 'PATH', path: String(script.path ?? '') } : { kind: 'INLINE', body: String(script.body ?? '') },
    params: isRecord(value.params) ? value.params : {},
    trigger,
    maxRounds: typeof value.maxRounds === 'number' ? value.maxRounds : null,
    allowTools: value.allowTools === true,
  }];
}

function roundsToJson(rounds: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(rounds).filter(([, n]) => Number.isInteger(n) && n > 0));
}

function roundsFromJson(value: unknown): Record<string, number> {
  return isRecord(value) ? roundsToJson(value as Record<string, number>) : {};
}
