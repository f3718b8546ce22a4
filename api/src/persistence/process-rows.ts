/**
 * The rows of `sessions`, `processes` and `process_inbox` as the process store reads and writes them:
 * their columns, their mapping to domain objects (the jsonb columns hold exactly the domain fields,
 * nothing a caller's object happens to carry besides), and the patch writer of `update`.
 */
import type { EntityManager } from 'typeorm';
import type { Layer } from '../domain/cascade/layer';
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
import type { GuardScratch, GuardScratchMap } from '../domain/guards/guard-scratch';
import type { ProcessPatch } from '../domain/processes/process-store';
import { DEFAULT_PROCESS_MODE, isProcessMode } from '../domain/processes/process-mode';
import { GUARD_TRIGGERS, type PromptMode, type RecipeGuard } from '../domain/recipes/recipe';

export interface SessionRow {
  id: string;
  tenant_id: string;
  project_id: string;
  user_id: string;
  name: string;
  created_at: Date;
}

export interface ProcessRow {
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
  mode: string;
  title: string | null;
  goal: string | null;
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
  guard_scratch: unknown;
  open_skills: unknown;
  skill_uses: unknown;
  turn_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface PendingRow {
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

export const SESSION_COLUMNS = 'id, tenant_id, project_id, user_id, name, created_at';

export const PROCESS_COLUMNS = `id, tenant_id, project_id, session_id, user_id, name, parent_process_id, status, engine,
  recipe_name, recipe_source, connection_profile, mode, title, goal, active_skills, allowed_skills_override, locked, engine_params,
  prompt_override, profile_append, prompt_mode, data_relay_correction, tool_adjustments, guards,
  recipe_guards, guard_rounds, guard_scratch, open_skills, skill_uses, turn_requested_at, created_at, updated_at`;

export const PENDING_COLUMNS = 'id, process_id, sender, sender_name, content, created_at, attempts, failure, failed_at';

/**
 * Writes the given fields of `patch` (a key that is absent or undefined is left alone) and bumps
 * updated_at. clock_timestamp(), not now(): now() is the start of a transaction that may have
 * queued on the row lock, so a later writer could record an earlier time. An empty patch writes
 * nothing (returns null).
 */
export async function writePatch(em: EntityManager, tenantId: string, processId: string, patch: ProcessPatch): Promise<Process | null> {
  const params: unknown[] = [tenantId, processId];
  const sets: string[] = [];
  const set = (column: string, value: unknown, cast: string) => {
    params.push(value);
    sets.push(`${column} = $${params.length}::${cast}`);
  };
  if (patch.activeSkills !== undefined) set('active_skills', JSON.stringify(patch.activeSkills.map(skillRefToJson)), 'jsonb');
  if (patch.guards !== undefined) set('guards', JSON.stringify(patch.guards.map(guardToJson)), 'jsonb');
  if (patch.guardRounds !== undefined) set('guard_rounds', JSON.stringify(roundsToJson(patch.guardRounds)), 'jsonb');
  if (patch.guardScratch !== undefined) set('guard_scratch', JSON.stringify(patch.guardScratch), 'jsonb');
  if (patch.openSkills !== undefined) set('open_skills', JSON.stringify([...new Set(patch.openSkills)]), 'jsonb');
  if (patch.skillUses !== undefined) set('skill_uses', JSON.stringify(roundsToJson(patch.skillUses)), 'jsonb');
  if (patch.status !== undefined) set('status', patch.status, 'text');
  if (patch.mode !== undefined) set('mode', patch.mode, 'text');
  if (patch.goal !== undefined) set('goal', patch.goal, 'text');
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

export function skillRefToJson(ref: ActiveSkillRef): ActiveSkillRef {
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

export function guardToJson(guard: RuntimeGuard): RuntimeGuard {
  return guard.kind === 'SCRIPT'
    ? { kind: 'SCRIPT', path: guard.path, installedBy: guard.installedBy }
    : { kind: 'INLINE', body: guard.body, installedBy: guard.installedBy };
}

export function toolAdjustmentsToJson(t: ToolAdjustments): ToolAdjustments {
  return { add: [...t.add], remove: [...t.remove], keep: [...t.keep], dropFirst: [...t.dropFirst], defer: [...t.defer] };
}

export function toSession(row: SessionRow): Session {
  return { id: row.id, tenantId: row.tenant_id, projectId: row.project_id, userId: row.user_id, name: row.name, createdAt: row.created_at };
}

export function toProcess(row: ProcessRow): Process {
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
    mode: isProcessMode(row.mode) ? row.mode : DEFAULT_PROCESS_MODE,
    title: row.title,
    goal: row.goal,
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
    guardScratch: scratchFromJson(row.guard_scratch),
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

export function toPending(row: PendingRow): PendingMessage {
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

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recipeGuardToJson(guard: RecipeGuard): RecipeGuard {
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

/** The stored scratch map; anything not shaped like one is read as empty. */
function scratchFromJson(value: unknown): GuardScratchMap {
  if (!isRecord(value)) return {};
  const out: Record<string, GuardScratch> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!isRecord(entry)) continue;
    out[key] = { loop: isRecord(entry.loop) ? entry.loop as GuardScratch['loop'] : {}, session: isRecord(entry.session) ? entry.session as GuardScratch['session'] : {} };
  }
  return out;
}

function roundsToJson(rounds: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(rounds).filter(([, n]) => Number.isInteger(n) && n > 0));
}

function roundsFromJson(value: unknown): Record<string, number> {
  return isRecord(value) ? roundsToJson(value as Record<string, number>) : {};
}
