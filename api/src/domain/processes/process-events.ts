import type { EventBus } from '../events/event-bus';
import type { Process } from './process';
import { PROCESS_EVENTS_TOPIC, type ProcessEvent, type ProcessEventEnvelope } from './process-event';

/** Publishes process events on the bus (all instances; subscribers filter by process). */
export class ProcessEvents {
  constructor(private readonly bus: EventBus) {}

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
