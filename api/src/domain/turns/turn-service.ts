import type { EventBus } from '../events/event-bus';
import { mapAsyncIterator } from '../shared/push-iterator';
import type { Principal } from '../identity/principal';
import type { ProcessService } from '../processes/process-service';
import type { ChatLogMessage, Turn, TurnEvent } from './turn';
import { turnEventStream } from './turn-event-stream';
import { HIDDEN_PROMPT_TEXT, mayReadPrompt, redactPrompt } from './prompt-visibility';
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
    const process = await this.deps.processes.get(principal, processId);
    const composition = await this.deps.runner.preview(process);
    if (mayReadPrompt(principal, process)) return composition;
    return { ...composition, sections: composition.sections.map((s) => ({ ...s, text: HIDDEN_PROMPT_TEXT })) };
  }

  /** The access check happens before anything streams; prompt text only for those who may read it. */
  async events(principal: Principal, processId: string, afterEventId: string | null): Promise<AsyncIterableIterator<TurnEvent>> {
    const process = await this.deps.processes.get(principal, processId);
    const stream = turnEventStream(this.deps.bus, this.deps.store, process, afterEventId);
    return mayReadPrompt(principal, process) ? stream : mapAsyncIterator(stream, redactPrompt);
  }
}
