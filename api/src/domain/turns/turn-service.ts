import type { EventBus } from '../events/event-bus';
import type { Principal } from '../identity/principal';
import type { ProcessService } from '../processes/process-service';
import type { ChatLogMessage, Turn, TurnEvent } from './turn';
import { turnEventStream } from './turn-event-stream';
import type { TurnComposition, TurnRunner } from './turn-runner';
import type { TurnStore } from './turn-store';

/** Turns as API callers see them; access exactly like the process (NOT_FOUND for others). */
export class TurnService {
  constructor(private readonly deps: { readonly processes: ProcessService; readonly store: TurnStore; readonly runner: TurnRunner; readonly bus: EventBus }) {}

  async turns(principal: Principal, processId: string): Promise<Turn[]> {
    const process = await this.deps.processes.get(principal, processId);
    return this.deps.store.listTurns(process.tenantId, process.id);
  }

  async messages(principal: Principal, processId: string): Promise<ChatLogMessage[]> {
    const process = await this.deps.processes.get(principal, processId);
    return this.deps.store.listMessages(process.tenantId, process.id);
  }

  async preview(principal: Principal, processId: string): Promise<TurnComposition> {
    return this.deps.runner.preview(await this.deps.processes.get(principal, processId));
  }

  /** The access check happens before anything streams. */
  async events(principal: Principal, processId: string, afterEventId: string | null): Promise<AsyncIterableIterator<TurnEvent>> {
    const process = await this.deps.processes.get(principal, processId);
    return turnEventStream(this.deps.bus, this.deps.store, process, afterEventId);
  }
}
