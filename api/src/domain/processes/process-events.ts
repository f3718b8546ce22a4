import type { EventBus } from '../events/event-bus';
import type { Process } from './process';
import { PROCESS_EVENTS_TOPIC, type ProcessEvent, type ProcessEventEnvelope } from './process-event';

/** Publishes process events on the bus (all instances; subscribers filter by process). */
export class ProcessEvents {
  constructor(
    private readonly bus: EventBus,
    /** Told of an announcement that could not be published (see `announce`). */
    private readonly onLost: (err: unknown, context: string) => void = () => {},
  ) {}

  /**
   * Publishes events about a write that has committed: a failure to publish is reported, not thrown,
   * so the caller is not told "failed" about a write that was applied (issue 14: a client that
   * retries would create a duplicate). What the events would have started is recovered elsewhere:
   * a lost TURN_SCHEDULED by the turn runner's sweep of requested turns.
   */
  async announce(process: Pick<Process, 'tenantId' | 'id'>, ...events: ProcessEvent[]): Promise<void> {
    // Each on its own: a lost MESSAGE_QUEUED does not take the TURN_SCHEDULED after it along.
    for (const event of events) {
      try {
        await this.emit(process, event);
      } catch (err) {
        this.onLost(err, `process event ${event.type} of ${process.id} not published`);
      }
    }
  }

  async emit(process: Pick<Process, 'tenantId' | 'id'>, ...events: ProcessEvent[]): Promise<void> {
    for (const event of events) {
      const envelope: ProcessEventEnvelope = { tenantId: process.tenantId, processId: process.id, at: new Date().toISOString(), event };
      await this.bus.publish(PROCESS_EVENTS_TOPIC, envelope);
    }
  }
}

/** A short preview of a message for events (the full text stays in the inbox). */
export function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
