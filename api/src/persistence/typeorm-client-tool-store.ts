/** The ClientToolStore port on PostgreSQL/PGlite: registrations on `sessions`, calls in `client_tool_calls`. */
import type { DataSource } from 'typeorm';
import type {
  ClientScript, ClientToolAnswer, ClientToolCall, ClientToolCallKind, ClientToolRegistration, ClientToolSpec, NewClientToolCall,
  StoredCallStatus, StoredClientToolCall,
} from '../domain/client-tools';
import type { ClientToolStore } from '../domain/client-tools';
import { isUuid } from './uuid';
import { queryPrepared } from './prepared';

interface CallRow {
  id: string;
  tenant_id: string;
  session_id: string;
  user_id: string;
  process_id: string;
  turn_id: string | null;
  kind: ClientToolCallKind;
  tool: string;
  arguments: unknown;
  script: unknown;
  status: StoredCallStatus;
  result: unknown;
  error: string | null;
  deadline: Date;
}

const CALL_COLUMNS = 'id, tenant_id, session_id, user_id, process_id, turn_id, kind, tool, arguments, script, status, result, error, deadline';

/**
 * A call is open only while the turn that made it runs (issue 14): after a restart the interrupted
 * turn runs again and asks again, so its old calls are neither delivered to a reconnecting client
 * (which would run the tool twice) nor answerable. Calls made outside a turn have no turn_id.
 */
const TURN_STILL_RUNS = `(client_tool_calls.turn_id IS NULL OR EXISTS (
  SELECT 1 FROM turns WHERE turns.tenant_id = client_tool_calls.tenant_id AND turns.id = client_tool_calls.turn_id AND turns.status = 'RUNNING'))`;

export class TypeOrmClientToolStore implements ClientToolStore {
  constructor(private readonly dataSource: DataSource) {}

  async setRegistration(tenantId: string, sessionId: string, tools: readonly ClientToolSpec[] | null): Promise<Date | null> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return null;
    const rows: Array<{ client_tools_at: Date | null }> = await this.dataSource.query(
      `WITH up AS (
         UPDATE sessions SET client_tools = $3::jsonb, client_tools_at = CASE WHEN $3::jsonb IS NULL THEN NULL ELSE clock_timestamp() END
         WHERE tenant_id = $1 AND id = $2 RETURNING client_tools_at
       ) SELECT client_tools_at FROM up`,
      [tenantId, sessionId, tools === null ? null : JSON.stringify(tools)],
    );
    return rows[0]?.client_tools_at ?? null;
  }

  async findRegistration(tenantId: string, sessionId: string): Promise<ClientToolRegistration | null> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return null;
    // Read by every turn's composition (prepared.ts).
    const rows: Array<{ client_tools: unknown; client_tools_at: Date | null }> = await queryPrepared(this.dataSource,
      'SELECT client_tools, client_tools_at FROM sessions WHERE tenant_id = $1 AND id = $2',
      [tenantId, sessionId],
    );
    const row = rows[0];
    if (!row || !Array.isArray(row.client_tools) || !row.client_tools_at) return null;
    return { sessionId, tools: registeredTools(row), registeredAt: row.client_tools_at };
  }

  async createCall(call: NewClientToolCall): Promise<ClientToolCall> {
    const rows: CallRow[] = await this.dataSource.query(
      `INSERT INTO client_tool_calls (tenant_id, session_id, user_id, process_id, turn_id, kind, tool, arguments, script, deadline)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10) RETURNING ${CALL_COLUMNS}`,
      [call.tenantId, call.sessionId, call.userId, call.processId, call.turnId, call.kind, call.tool,
        JSON.stringify(call.arguments), call.script === null ? null : JSON.stringify(call.script), call.deadline],
    );
    return toCall(rows[0]!);
  }

  async findCall(tenantId: string, callId: string): Promise<StoredClientToolCall | null> {
    if (!isUuid(tenantId) || !isUuid(callId)) return null;
    const rows: CallRow[] = await this.dataSource.query(`SELECT ${CALL_COLUMNS} FROM client_tool_calls WHERE tenant_id = $1 AND id = $2`, [tenantId, callId]);
    return rows[0] ? toStored(rows[0]) : null;
  }

  async listPendingCalls(tenantId: string, sessionId: string): Promise<ClientToolCall[]> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return [];
    const rows: CallRow[] = await this.dataSource.query(
      `SELECT ${CALL_COLUMNS} FROM client_tool_calls
       WHERE tenant_id = $1 AND session_id = $2 AND status = 'PENDING' AND deadline > clock_timestamp() AND ${TURN_STILL_RUNS}
       ORDER BY created_at, id`,
      [tenantId, sessionId],
    );
    return rows.map(toCall);
  }

  async answerCall(tenantId: string, callId: string, answer: ClientToolAnswer): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(callId)) return false;
    const isError = 'error' in answer;
    const rows: unknown[] = await this.dataSource.query(
      `WITH up AS (
         UPDATE client_tool_calls SET status = 'ANSWERED', result = $3::jsonb, error = $4, answered_at = clock_timestamp()
         WHERE tenant_id = $1 AND id = $2 AND status = 'PENDING' AND ${TURN_STILL_RUNS} RETURNING id
       ) SELECT id FROM up`,
      [tenantId, callId, isError ? null : JSON.stringify({ value: answer.result ?? null }), isError ? answer.error : null],
    );
    return rows.length > 0;
  }

  async expireCall(tenantId: string, callId: string): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(callId)) return false;
    const rows: unknown[] = await this.dataSource.query(
      `WITH up AS (
         UPDATE client_tool_calls SET status = 'EXPIRED' WHERE tenant_id = $1 AND id = $2 AND status = 'PENDING' RETURNING id
       ) SELECT id FROM up`,
      [tenantId, callId],
    );
    return rows.length > 0;
  }
}

/** A session row's registered tools (none without a registration); beginTurn reads them too. */
export function registeredTools(row: { client_tools: unknown; client_tools_at: Date | string | null }): ClientToolSpec[] {
  return Array.isArray(row.client_tools) && row.client_tools_at ? row.client_tools.flatMap(toSpec) : [];
}

function toSpec(value: unknown): ClientToolSpec[] {
  if (!isRecord(value) || typeof value.name !== 'string') return [];
  return [{
    name: value.name,
    description: typeof value.description === 'string' ? value.description : '',
    labels: Array.isArray(value.labels) ? value.labels.filter((l): l is string => typeof l === 'string') : [],
    parameters: isRecord(value.parameters) ? value.parameters : { type: 'object' },
    deferred: value.deferred === true,
  }];
}

function toCall(row: CallRow): ClientToolCall {
  return {
    callId: row.id, tenantId: row.tenant_id, sessionId: row.session_id, userId: row.user_id, processId: row.process_id, turnId: row.turn_id,
    kind: row.kind, tool: row.tool, arguments: isRecord(row.arguments) ? row.arguments : {}, script: toScript(row.script), deadline: row.deadline,
  };
}

function toStored(row: CallRow): StoredClientToolCall {
  let answer: ClientToolAnswer | null = null;
  if (row.status === 'ANSWERED') answer = row.error !== null ? { error: row.error } : { result: isRecord(row.result) ? row.result.value : null };
  return { ...toCall(row), status: row.status, answer };
}

function toScript(value: unknown): ClientScript | null {
  if (!isRecord(value)) return null;
  return { skill: String(value.skill ?? ''), name: String(value.name ?? ''), source: String(value.source ?? '') };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
