import type { EventBus } from '../events/event-bus';
import { mapAsyncIterator } from '../shared/push-iterator';
import type { Principal } from '../identity/principal';
import type { ProcessService } from '../processes/process-service';
import type { ChatLogMessage, Turn, TurnEvent } from './turn';
import { turnEventStream } from './turn-event-stream';
import { compositionFor, sharedTurnEventFor, turnEventFor } from './prompt-visibility';
import { isOwner, OwnerOnlyTurnError } from '../processes/owner-view';
import type { TurnComposition } from './turn-composer';
import type { TurnRunner } from './turn-runner';
import type { TurnStore } from './turn-store';
import { DomainError, NotFoundError } from '../errors';
import type { Process } from '../processes/process';
import type { EventPage } from '../events/event-page';

class TurnNotRegenerableError extends DomainError {
  readonly code = 'TURN_NOT_REGENERABLE';
  readonly category = 'CONFLICT';
}

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
    const process = await this.deps.processes.get(principal, processId);
    // The owner's next turn, as the caller may see it: one composition, redacted for non-owners.
    return compositionFor(principal, process, await this.deps.runner.preview(process));
  }

  /**
   * Re-runs the last turn (issue 8): a finished turn is taken back — its reply and tool messages
   * dropped, its input back in the inbox, the open skills restored to what it started from — and a
   * turn is scheduled. A failed turn already kept its input: it is simply run again.
   */
  async regenerate(principal: Principal, processId: string): Promise<Process> {
    const { processes, store } = this.deps;
    return processes.onLane(principal, processId, async (process) => {
      if (!isOwner(principal, process)) throw new OwnerOnlyTurnError(process.name, 'regenerateTurn');
      const last = (await store.listTurns(process.tenantId, process.id)).filter((t) => t.status !== 'REGENERATED').at(-1);
      if (!last) throw new NotFoundError('Turn', `last turn of ${process.name}`);
      if (last.status === 'FINISHED') {
        const taken = await store.regenerate(process.tenantId, last.id);
        if (!taken) throw new TurnNotRegenerableError(`The last turn of '${process.name}' changed while regenerating; try again.`);
        await processes.deps.store.update(process.tenantId, process.id, () => ({ openSkills: taken.openSkillsBefore ?? [] }));
      } else if (last.status === 'RUNNING' || (await processes.deps.store.listPending(process.tenantId, process.id)).length === 0) {
        throw new TurnNotRegenerableError(`The last turn of '${process.name}' is ${last.status} and left nothing to run again.`);
      }
      const updated = await processes.deps.store.update(process.tenantId, process.id, (p) => (p.turnRequestedAt ? null : { turnRequestedAt: new Date() }));
      await processes.deps.events.emit(process, { type: 'TURN_SCHEDULED', reason: `regenerateTurn: re-running turn ${last.id}.` });
      return updated;
    });
  }

  /** The stored turn events after `page.afterEventId`, as the caller may see them (like `events`). */
  async storedEvents(principal: Principal, processId: string, page: EventPage): Promise<TurnEvent[]> {
    const process = await this.deps.processes.get(principal, processId);
    const events = await this.deps.store.listEvents(process.tenantId, process.id, page.afterEventId, page.limit);
    return isOwner(principal, process) ? events : events.map((e) => turnEventFor(principal, process, e));
  }

  /** The access check happens before anything streams; what the owner's USER layer contributed only to the owner. */
  async events(principal: Principal, processId: string, afterEventId: string | null): Promise<AsyncIterableIterator<TurnEvent>> {
    const process = await this.deps.processes.get(principal, processId);
    const stream = turnEventStream(this.deps.bus, this.deps.store, process, afterEventId);
    return isOwner(principal, process) ? stream : mapAsyncIterator(stream, (e) => sharedTurnEventFor(principal, process, e));
  }
}
