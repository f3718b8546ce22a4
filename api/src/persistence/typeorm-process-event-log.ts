/**
 * Process events on PostgreSQL/PGlite (issue 14): stored in `process_events` (the id is what a
 * `processEvents` subscriber resumes after) and NOTIFYed by the statement that stores them
 * (commit-notifier.ts); this instance's subscribers are told after the commit. The process store
 * writes events with its own statements through `ctes` and `appendIn` (the patch of `update`, the
 * messages of `queue`), so that an event and the change it reports commit together.
 */
import type { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from '../domain/errors';
import { fitsInline } from '../domain/events/notification-size';
import { PROCESS_EVENTS_TOPIC, type ProcessEvent, type ProcessEventEnvelope, type StoredProcessEvent } from '../domain/processes/process-event';
import type { ProcessEventLog } from '../domain/processes/process-events';
import { announcedWrite, isoTimeSql, notifyCte, SILENT_NOTIFIER, type CommitNotifier } from './commit-notifier';
import { translateDbError } from './translate-db-error';
import { isUuid } from './uuid';

export interface EventRow {
  id: string;
  tenant_id: string;
  process_id: string;
  event: ProcessEvent;
  created_at: Date | string;
}

const EVENT_COLUMNS = 'id::text AS id, tenant_id, process_id, event, created_at';
/** A process event as the other instances get it: the envelope, its event left out when too large. */
const EVENT_SLIM = `jsonb_build_object('id', id::text, 'tenantId', tenant_id, 'processId', process_id, 'at', ${isoTimeSql('created_at')})`;
const EVENT_FULL = `(${EVENT_SLIM} || jsonb_build_object('event', event))`;
const DIGITS = /^\d{1,18}$/;

export class TypeOrmProcessEventLog implements ProcessEventLog {
  constructor(private readonly dataSource: DataSource, private readonly notifier: CommitNotifier = SILENT_NOTIFIER) {}

  /** The channel, topic and origin parameters of `ctes`, in that order. */
  get notifyParams(): unknown[] {
    return [this.notifier.channel, PROCESS_EVENTS_TOPIC, this.notifier.origin];
  }

  /**
   * The CTEs `ev` (insert the events of jsonb array `events`, in order, when `when` holds) and `sent`
   * (their NOTIFYs); the statement must reference `sent`. The arguments are the caller's placeholders;
   * `channel` is the first of the three `notifyParams`.
   */
  ctes(p: { tenant: string; process: string; events: string; channel: number; when?: string }): string {
    return `ev AS (INSERT INTO process_events (tenant_id, process_id, type, event)
        SELECT ${p.tenant}, ${p.process}, x.e->>'type', x.e FROM jsonb_array_elements(${p.events}::jsonb) WITH ORDINALITY AS x(e, n)
        ${p.when ? `WHERE ${p.when}` : ''} ORDER BY x.n
        RETURNING id, tenant_id, process_id, event, created_at),
      ${notifyCte('sent', 'ev', { channel: `$${p.channel}`, topic: `$${p.channel + 1}`, origin: `$${p.channel + 2}` }, EVENT_FULL, EVENT_SLIM, 'id')}`;
  }

  /** After the commit: this instance's subscribers (the others got the statement's NOTIFY). */
  deliver(events: readonly StoredProcessEvent[]): void {
    for (const event of events) this.notifier.deliverLocal(PROCESS_EVENTS_TOPIC, envelopeOf(event));
  }

  async append(tenantId: string, processId: string, events: readonly ProcessEvent[]): Promise<StoredProcessEvent[]> {
    if (events.length === 0) return [];
    if (!isUuid(tenantId) || !isUuid(processId)) throw new NotFoundError('Process', processId);
    const stored = await this.appendIn(this.dataSource, tenantId, processId, events);
    this.deliver(stored);
    return stored;
  }

  /** Stores `events` in one statement that NOTIFYs them too, on `db` (the pool, or a transaction's manager); not yet delivered here. */
  async appendIn(db: Pick<EntityManager, 'query'>, tenantId: string, processId: string, events: readonly ProcessEvent[]): Promise<StoredProcessEvent[]> {
    let rows: EventRow[];
    try {
      rows = await announcedWrite(this.notifier, () => db.query(
        `WITH ${this.ctes({ tenant: '$1', process: '$2', events: '$3', channel: 4 })}
         SELECT ${EVENT_COLUMNS} FROM ev CROSS JOIN (SELECT count(*) FROM sent) n ORDER BY ev.id`,
        [tenantId, processId, JSON.stringify(events), ...this.notifyParams],
      ));
    } catch (err) {
      throw translateDbError(err, { fk_process_events_process: ['Process', processId] });
    }
    return rows.map(toStoredEvent);
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
}

export function toStoredEvent(row: EventRow): StoredProcessEvent {
  return { id: String(row.id), tenantId: row.tenant_id, processId: row.process_id, at: new Date(row.created_at).toISOString(), event: row.event };
}

/** Like the statement's NOTIFY (notification-size.ts): a large event goes out as its id. */
function envelopeOf(event: StoredProcessEvent): ProcessEventEnvelope {
  if (fitsInline(event.event)) return event;
  const { event: _event, ...slim } = event;
  return slim;
}
