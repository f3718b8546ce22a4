import type { CascadeScope } from '../cascade/scope';
import type { LayerTargetResolver } from '../documents/layer-target';
import { InvalidInputError, NotFoundError } from '../errors';
import type { IdentityService } from '../identity/identity-service';
import type { Principal } from '../identity/principal';
import type { SettingsService } from '../settings/settings-service';
import { ProcessNotActiveError } from './errors';
import type { PendingMessage, Process, Session } from './process';
import type { ProcessMode } from './process-mode';
import { canAccessProcess } from './process-access';
import { PROCESS_EVENTS_TOPIC, type ProcessEvent, type ProcessEventEnvelope, type StoredProcessEvent } from './process-event';
import type { EventBus } from '../events/event-bus';
import { storedEventStream } from '../events/stored-event-stream';
import { processRoute } from '../events/topic-handlers';
import type { EventPage } from '../events/event-page';
import { filterAsyncIterator } from '../shared/push-iterator';
import { mayReceiveProcessEvent, viewerScope } from './owner-view';
import { preview, type ProcessEvents } from './process-events';
import { toStorable } from '../shared/storable-text';
import type { ProcessLane } from './process-lane';
import type { ProcessSpawner, SpawnRequest } from './process-spawner';
import type { NewPendingMessage, ProcessStore, QueuingMessage } from './process-store';

export interface SpawnProcessInput extends SpawnRequest {
  readonly project: string;
}

export const MAX_MESSAGE_LENGTH = 200_000;

/** Refuses a message over MAX_MESSAGE_LENGTH — before anything reads it (trigger matching costs time in its length). */
export function checkMessageLength(text: string): void {
  if (text.length > MAX_MESSAGE_LENGTH) throw new InvalidInputError('MESSAGE_TOO_LARGE', `A message may hold at most ${MAX_MESSAGE_LENGTH} characters`, 'text');
}

/**
 * Processes as API callers see them: spawn, read, list, and the lane primitives every steering
 * operation uses (access check, fresh read on the lane, atomic write, queued messages and the turn
 * schedule, events). Skill steering lives in skill-activation-service.ts.
 */
export class ProcessService {
  constructor(readonly deps: {
    readonly store: ProcessStore;
    readonly lane: ProcessLane;
    readonly events: ProcessEvents;
    readonly spawner: ProcessSpawner;
    readonly identity: IdentityService;
    readonly targets: LayerTargetResolver;
    readonly settings: SettingsService;
    readonly bus: EventBus;
  }) {}

  async spawn(principal: Principal, input: SpawnProcessInput): Promise<Process> {
    const { scope, projectId } = await this.projectScope(principal, input.project);
    const settings = this.deps.settings.reader(scope.tenantId, projectId);
    const { process } = await this.deps.spawner.spawn({ principal, scope, projectId, settings }, input);
    await this.deps.events.emit(process, { type: 'PROCESS_SPAWNED', name: process.name, recipe: process.recipeName, engine: process.engine });
    return process;
  }

  /** NOT_FOUND unless the caller may see it (owner, project admin, tenant admin). */
  async get(principal: Principal, processId: string): Promise<Process> {
    const process = await this.deps.store.findProcess(principal.tenant.id, processId);
    if (!process || !canAccessProcess(principal, process, await this.deps.identity.membershipIn(principal, process.projectId))) {
      throw new NotFoundError('Process', processId);
    }
    return process;
  }

  async list(principal: Principal, project: string, sessionId: string | null): Promise<Process[]> {
    const { projectId } = await this.projectScope(principal, project);
    const membership = await this.deps.identity.membershipIn(principal, projectId);
    const all = await this.deps.store.listProcesses(principal.tenant.id, projectId, sessionId);
    return all.filter((p) => canAccessProcess(principal, p, membership));
  }

  /** The caller's own sessions in the project. */
  async sessions(principal: Principal, project: string): Promise<Session[]> {
    const { projectId } = await this.projectScope(principal, project);
    return this.deps.store.listSessions(principal.tenant.id, projectId, principal.user.id);
  }

  async session(principal: Principal, sessionId: string): Promise<Session | null> {
    return this.deps.store.findSession(principal.tenant.id, sessionId);
  }

  /**
   * The process's events for a subscriber (issue 14): the stored ones after `afterEventId` (none without), then the
   * live ones, no gap and no duplicate, across a bus reconnect too; each only if the caller may
   * receive it (owner-view.ts). The access check happens before anything streams.
   */
  async events(principal: Principal, processId: string, afterEventId: string | null): Promise<AsyncIterableIterator<StoredProcessEvent>> {
    const process = await this.get(principal, processId);
    const log = this.deps.store;
    // Without afterEventId: from now on (the newest stored event), as subscribers always got them.
    const after = afterEventId ?? (await log.latestEventId(process.tenantId, process.id)) ?? '0';
    const stream = storedEventStream<ProcessEventEnvelope, StoredProcessEvent>(this.deps.bus, {
      topic: PROCESS_EVENTS_TOPIC,
      route: processRoute(process),
      matches: (e) => e.processId === process.id && e.tenantId === process.tenantId,
      complete: async (e) => (e.event ? (e as StoredProcessEvent) : log.findEvent(e.tenantId, e.id)),
      carried: (e) => (e.event ? (e as StoredProcessEvent) : undefined),
      backlog: (since) => log.listEvents(process.tenantId, process.id, since),
    }, after);
    return filterAsyncIterator(stream, (e) => mayReceiveProcessEvent(principal, process, e.event));
  }

  /**
   * The stored events `principal` may see, oldest first, after `page.afterEventId`: up to `page.limit`
   * of them. Events withheld from a non-owner do not count, so the store is read on until the page is
   * full or the log ends (a page shorter than the limit is the last).
   */
  async storedEvents(principal: Principal, processId: string, page: EventPage): Promise<StoredProcessEvent[]> {
    const process = await this.get(principal, processId);
    const out: StoredProcessEvent[] = [];
    let after = page.afterEventId;
    for (;;) {
      const batch = await this.deps.store.listEvents(process.tenantId, process.id, after, page.limit);
      for (const e of batch) if (out.length < page.limit && mayReceiveProcessEvent(principal, process, e.event)) out.push(e);
      if (out.length >= page.limit || batch.length < page.limit) return out;
      after = batch[batch.length - 1]!.id;
    }
  }

  async pending(principal: Principal, processId: string): Promise<PendingMessage[]> {
    const process = await this.get(principal, processId);
    return this.deps.store.listPending(process.tenantId, process.id);
  }

  /** The skill scope of a process: its owner in its project (seed 000 §4a) — for turns and the owner's own requests. */
  scopeOf(process: Process): Promise<CascadeScope> {
    return this.deps.identity.scopeOfUser(process.tenantId, process.userId, process.projectId);
  }

  /** The scope a request of `principal` on the process sees: without the owner's USER layer unless it is the owner (owner-view.ts, rule 1). */
  async scopeFor(principal: Principal, process: Process): Promise<CascadeScope> {
    return viewerScope(principal, process, await this.scopeOf(process));
  }

  /**
   * Whether `principal` may read the project `name` of its tenant (a member, an admin): what a
   * `guard script //project/…` needs. An unknown and an unreadable project are both false.
   */
  async canReadProject(principal: Principal, name: string): Promise<boolean> {
    try {
      await this.deps.targets.scope(principal, name);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /** Runs `job` on the process's lane with a fresh read; refuses closed processes. */
  onLane<T>(principal: Principal, processId: string, job: (process: Process) => Promise<T>): Promise<T> {
    return this.get(principal, processId).then((checked) =>
      this.deps.lane.run(checked.id, async () => {
        const process = (await this.deps.store.findProcess(checked.tenantId, checked.id)) ?? checked;
        if (process.status !== 'IDLE') throw new ProcessNotActiveError(process.name, process.status);
        return job(process);
      }));
  }

  /** Sets the plan mode later turns render with (seed 004 §5.1); whoever may steer the process may set it. */
  setMode(principal: Principal, processId: string, mode: ProcessMode): Promise<Process> {
    return this.onLane(principal, processId, async (process) =>
      process.mode === mode ? process : this.deps.store.update(process.tenantId, process.id, () => ({ mode }), [
        { type: 'MODE_SET', mode, previous: process.mode, by: principal.user.login },
      ]));
  }

  /** Appends to the inbox and schedules a turn (turn execution is the engines' job). Returns the process after it. */
  async queue(process: Process, messages: readonly NewPendingMessage[], reason: string, about: { readonly private?: boolean } = {}): Promise<{ process: Process; queued: PendingMessage[] }> {
    if (messages.length === 0) return { process, queued: [] };
    const { storable, announce } = this.queuing(messages, reason, about);
    return this.deps.store.queue(process.tenantId, process.id, storable, announce);
  }

  /**
   * `queue` for the process's owner, without reading it first (issue 18: one statement less per
   * message): queued only while it is IDLE and theirs — the owner may always see it, so the access
   * check holds. Null, with nothing queued, otherwise; the caller reads the process to say why.
   */
  queueAsOwner(principal: Principal, processId: string, messages: readonly NewPendingMessage[], reason: string): Promise<{ process: Process; queued: PendingMessage[] } | null> {
    const { storable, announce } = this.queuing(messages, reason, {});
    return this.deps.store.queueIfIdleOwner(principal.tenant.id, processId, principal.user.id, storable, announce);
  }

  private queuing(messages: readonly NewPendingMessage[], reason: string, about: { readonly private?: boolean }) {
    const mark = (e: ProcessEvent): ProcessEvent => (about.private ? { ...e, private: true } : e);
    for (const message of messages) checkMessageLength(message.content);
    // Callers' text was checked at the API; guards, scripts and child reports are made storable (issue 13).
    const storable = messages.map((m) => ({ ...m, content: toStorable(m.content).text }));
    // The messages, the turn request and their events in one statement: a failed write queued and announced nothing,
    // a committed one is announced with its commit (issue 14).
    const announce = (queuing: readonly QueuingMessage[]): ProcessEvent[] => [
      ...queuing.map((m) => mark({ type: 'MESSAGE_QUEUED', messageId: m.id, sender: m.sender, senderName: m.senderName, preview: preview(m.content) })),
      mark({ type: 'TURN_SCHEDULED', reason }),
    ];
    return { storable, announce };
  }

  private async projectScope(principal: Principal, project: string): Promise<{ scope: CascadeScope; projectId: string }> {
    const scope = await this.deps.targets.scope(principal, project);
    if (!scope.projectId) throw new InvalidInputError('PROJECT_REQUIRED', `Processes run in a project; '${project}' is a system project`, 'project');
    return { scope, projectId: scope.projectId };
  }
}
