import type { Process } from './process';
import type { ProcessEvent, StoredProcessEvent } from './process-event';

/**
 * The log of process events (issue 14): stored like turn events, so that a `processEvents`
 * subscriber can resume with `afterEventId` and a stream re-reads what a bus reconnect made it
 * miss. `append` stores the events in one write and announces them with it, to every instance.
 */
export interface ProcessEventLog {
  append(tenantId: string, processId: string, events: readonly ProcessEvent[]): Promise<StoredProcessEvent[]>;
  /** Events of the process with id > afterEventId (all when null), oldest first. */
  listEvents(tenantId: string, processId: string, afterEventId: string | null, limit?: number): Promise<StoredProcessEvent[]>;
  findEvent(tenantId: string, eventId: string): Promise<StoredProcessEvent | null>;
  /** The id of the process's newest event, null when it has none. */
  latestEventId(tenantId: string, processId: string): Promise<string | null>;
}

/**
 * Process events about a write. Where the event belongs to a state change, the store writes both
 * in one transaction (`ProcessStore.update(…, events)`, `ProcessStore.queue`); `emit` is for events
 * that stand alone (a refusal, a spawn's announcement).
 */
export class ProcessEvents {
  constructor(
    private readonly log: ProcessEventLog,
    /** Told of an announcement that could not be stored (see `announce`). */
    private readonly onLost: (err: unknown, context: string) => void = () => {},
  ) {}

  /**
   * Events about a write that has committed on its own: a failure to store them is reported, not
   * thrown, so the caller is not told "failed" about a write that was applied (issue 14: a client
   * that retries would create a duplicate).
   */
  async announce(process: Pick<Process, 'tenantId' | 'id'>, ...events: ProcessEvent[]): Promise<void> {
    try {
      await this.emit(process, ...events);
    } catch (err) {
      this.onLost(err, `process events ${events.map((e) => e.type).join(', ')} of ${process.id} not stored`);
    }
  }

  /** Stores the events in one write and announces them with it. */
  async emit(process: Pick<Process, 'tenantId' | 'id'>, ...events: ProcessEvent[]): Promise<void> {
    if (events.length > 0) await this.log.append(process.tenantId, process.id, events);
  }
}

/** A short preview of a message for events (the full text stays in the inbox). */
export function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
