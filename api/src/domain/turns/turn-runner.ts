import { DomainError } from '../errors';
import type { EventBus, Unsubscribe } from '../events/event-bus';
import type { Principal } from '../identity/principal';
import type { ModelProvider } from '../llm/model-provider';
import type { Engine, TurnResult } from '../engines/engine';
import type { EnginePrompts } from '../engines/engine-prompts';
import { isKnownEngine } from '../engines/engine-names';
import { PROCESS_EVENTS_TOPIC, type ProcessEventEnvelope } from '../processes/process-event';
import { preview } from '../processes/process-events';
import type { Process } from '../processes/process';
import type { ProcessService } from '../processes/process-service';
import type { SkillActivationService } from '../processes/skill-activation-service';
import { type TurnCaches } from '../processes/turn-preparation';
import type { SkillSetCache } from '../processes/triggers';
import { StaticModelCatalog, type ModelCatalog } from '../recipes/model-catalog';
import type { SettingsService } from '../settings/settings-service';
import type { AvailableSkill, SkillResolver } from '../skills/skill-resolver';
import type { TemplateEngine } from '../templates/template-engine';
import type { ToolCatalog } from '../tools/tool-descriptor';
import type { ServerTool, ToolInvocationContext } from '../tools/server-tool';
import { turnDispatcher } from './turn-dispatch';
import type { ClientCallOutcome, ClientToolSpec, NewClientToolCall } from '../client-tools';
import { clearLoops, hasLoopEntries, type GuardPoint, type GuardRunner } from '../guards';
import type { TakenMessage, Turn } from './turn';
import { callWithDeadline } from './model-call';
import { TextBatcher } from './text-batcher';
import { TurnEventSink } from './turn-event-sink';
import { promptComposedPayload, promptTokens, reportingUsage } from './prompt-composed';
import { StaleTurnError, type TurnStore } from './turn-store';
import type { TurnToolbox } from './turn-toolbox';
import type { TurnSlots } from './turn-slots';
import { TurnComposer, fitHistory, type TurnComposition } from './turn-composer';
import { verdicts } from './turn-verdicts';
import { buildModelRequest, historyOf, systemOf, type ModelRequest } from './model-request';
import { planRestore, type RetryPolicy } from './turn-retry';
import { parseBooleanish } from '../shared/booleanish';
import { positiveInt } from '../shared/positive-int';
import { toStorable } from '../shared/storable-text';
import type { ToolUniverse } from '../tools/tool-universe';
import { storableMessage, storableModelStream, storableToolResult } from './storable-output';

export interface TurnRunnerDeps {
  readonly processes: ProcessService;
  readonly activation: SkillActivationService;
  readonly store: TurnStore;
  readonly bus: EventBus;
  readonly provider: ModelProvider;
  readonly toolbox: TurnToolbox;
  readonly tools: ToolCatalog;
  readonly skills: SkillResolver;
  /** Per-scope skill lists kept until a skill document changes (the hot path, DESIGN §4). */
  readonly skillSets?: SkillSetCache;
  /** Trigger indexes, rendered bodies and tool pools reused across turns. */
  readonly turnCaches?: TurnCaches;
  readonly templates: TemplateEngine;
  readonly settings: SettingsService;
  readonly engines: ReadonlyMap<string, Engine>;
  readonly enginePrompts?: EnginePrompts; // without: each engine's built-in prompt
  /** The process owner as a principal, for tool calls. */
  principalOf(tenantId: string, userId: string): Promise<Principal>;
  readonly modelCatalog?: ModelCatalog;
  /** Deadline of one model call; params.modelTimeoutMs overrides. Default 120 s. */
  readonly modelTimeoutMs?: number;
  readonly onError?: (err: unknown, context: string) => void;
  /** Skill scripts as tools of the composed skills (seed 000 §13.2). */
  readonly scripts?: { toolsFor(skills: readonly AvailableSkill[]): ServerTool[] };
  /** The tools of the tool sources (documents, MCP packs) per scope (issue 19); without: built-ins and client tools only. */
  readonly toolUniverse?: ToolUniverse;
  /** The session's client (FOOT) tools (seed 004 §6.2). */
  readonly clientTools?: {
    toolsOf(tenantId: string, sessionId: string): Promise<readonly ClientToolSpec[]>;
    call(request: Omit<NewClientToolCall, 'deadline'>, timeoutMs?: number): Promise<ClientCallOutcome>;
  };
  /** Completion guards (seed 004 §6d). */
  readonly guards?: GuardRunner;
  /** Turns at once on this instance, with a per-tenant share (issue 14); unbounded without. */
  readonly slots?: TurnSlots;
  /** Retries of a failed turn's input (issue 14); DEFAULT_RETRY_POLICY without. */
  readonly retry?: RetryPolicy;
  /** A failure that is not the message's (a lost database connection): retried, not counted. */
  readonly isTransient?: (err: unknown) => boolean;
  /** How long TurnStarted and the composition's events may wait for the turn's next write; HELD_EVENTS_MAX_DELAY_MS without. */
  readonly heldEventsMaxDelayMs?: number;
}

export const DEFAULT_MAX_ITERATIONS = 8;
/** At the latest this long after the composition, its events are stored (the TextBatcher's delay for text). */
export const HELD_EVENTS_MAX_DELAY_MS = 50;


/**
 * The turn runner (DESIGN §1, issue 5). A turn runs on the process lane after something scheduled
 * it (TURN_SCHEDULED on the bus — sendMessage returns at once), and at startup for processes with a
 * requested turn. Steps: take the inbox (a RUNNING turn holds it), compose (engine default + recipe
 * prefix rendered with the §5.1 context, arthur's catalog, the skills section as its own system
 * message), the tool pool, the engine's model/tool loop with every message persisted, the one-shot
 * clean-up. A failure ends the turn with TurnFailed and puts the inbox back; a finished child turn
 * sends its result to the parent's inbox. Every step is a persisted, published turn event.
 */
export class TurnRunner {
  private readonly inFlight = new Set<Promise<void>>();
  /** Turns scheduled here and not settled yet, per process: the sweep does not queue another. */
  private readonly pending = new Map<string, number>();
  private unsubscribe: Unsubscribe | null = null;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private sweeping = false;
  /** Retries of failed turns waiting for their backoff (cleared by stop). */
  private readonly retries = new Set<ReturnType<typeof setTimeout>>();
  private readonly composer: TurnComposer;

  constructor(private readonly deps: TurnRunnerDeps) {
    this.composer = new TurnComposer(deps, deps.modelCatalog ?? new StaticModelCatalog());
    // A lane taken from a dead instance: its turn ends first, its input back ahead of later messages (chat order).
    deps.processes.deps.lane.onTakeover(async (processId) => {
      for (const stale of await deps.store.listRunningTurnsOf(processId)) await this.interrupt(stale);
    });
  }

  /**
   * Starts reacting to TURN_SCHEDULED events of this instance and, every `sweepMs`, schedules the
   * requested turns that no event announced here (issue 14): the request is committed with its
   * message, but the event after it can be lost (a database blip between the two, an instance that
   * dies before it runs the turn). A turn requested on another instance runs there: when every
   * instance raced for each turn, throughput fell with each instance added (56 → 51 → 43 turns/s
   * with 1, 2, 3), the losers waiting for the lane only to find the inbox taken. Scheduling a turn
   * another instance already runs stays safe: the lane serialises, and a turn that finds the inbox
   * taken does nothing.
   */
  start(sweepMs?: number): void {
    this.unsubscribe ??= this.deps.bus.subscribe<ProcessEventEnvelope>(PROCESS_EVENTS_TOPIC, (e) => {
      if (e.event?.type === 'TURN_SCHEDULED') void this.schedule(e.tenantId, e.processId);
    }, { localOnly: true });
    if (sweepMs !== undefined && !this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.sweep(), sweepMs);
      this.sweepTimer.unref();
    }
  }

  /** Turn slots in use and turns waiting for one, when slots are set (diagnostics, tests). */
  get slotUsage(): TurnSlots['usage'] | null {
    return this.deps.slots?.usage ?? null;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  /**
   * Takes over the turns whose instance died (RUNNING, no valid lease) and schedules every requested
   * turn of an IDLE process, each unless this instance has one in hand already.
   */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const turn of await this.deps.store.listRunningTurns()) {
        if (!this.pending.has(turn.processId)) void this.takeOver(turn);
      }
      for (const { tenantId, processId } of await this.deps.store.listRequestedTurns()) {
        if (!this.pending.has(processId)) void this.schedule(tenantId, processId);
      }
    } catch (err) {
      this.deps.onError?.(err, 'sweeping requested turns');
    } finally {
      this.sweeping = false;
    }
  }

  /** Resolves when no turn scheduled by this runner is queued or running. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Queues a turn on the process lane (a no-op turn when the inbox is empty by then). */
  schedule(tenantId: string, processId: string): Promise<void> {
    // The slot first: a turn waiting for one holds no lane, lease or connection.
    const slot = this.deps.slots ? this.deps.slots.acquire(tenantId) : Promise.resolve(() => undefined);
    return this.track(processId, slot.then((release) => this.deps.processes.deps.lane.run(processId, () => this.runOnLane(tenantId, processId)).finally(release))
      .then((done) => (done ? this.reportToParent(done.process, done.result) : undefined))
      .catch((err: unknown) => this.deps.onError?.(err, `turn of process ${processId}`)));
  }

  private retryLater(tenantId: string, processId: string, delayMs: number): void {
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      void this.schedule(tenantId, processId);
    }, delayMs);
    timer.unref();
    this.retries.add(timer);
  }

  /** Counts `job` as this runner's work on the process until it settles (idle(), the sweep). */
  private track(processId: string, job: Promise<void>): Promise<void> {
    this.inFlight.add(job);
    this.pending.set(processId, (this.pending.get(processId) ?? 0) + 1);
    void job.finally(() => {
      this.inFlight.delete(job);
      const left = (this.pending.get(processId) ?? 1) - 1;
      if (left > 0) this.pending.set(processId, left);
      else this.pending.delete(processId);
    });
    return job;
  }

  /**
   * Startup (faults): turns left RUNNING by a server that died are marked INTERRUPTED on their lane
   * (the lane lock waits for a live instance still running one), their input goes back to the inbox,
   * and every process with a requested turn is scheduled.
   */
  async recover(): Promise<void> {
    for (const turn of await this.deps.store.listRunningTurns()) await this.takeOver(turn);
    for (const { tenantId, processId } of await this.deps.store.listRequestedTurns()) void this.schedule(tenantId, processId);
  }

  /**
   * A turn left RUNNING whose lane nobody holds (its instance died, issue 14): on its lane — taking
   * the expired lease over — it is marked INTERRUPTED, its input goes back to the inbox, and it runs
   * again. The old instance, should it still be alive, can no longer write: its fencing token is old.
   */
  private takeOver(turn: Turn): Promise<void> {
    return this.track(turn.processId, this.deps.processes.deps.lane.run(turn.processId, () => this.interrupt(turn))
      .then(() => void this.schedule(turn.tenantId, turn.processId)).catch((err: unknown) => this.deps.onError?.(err, `recovering turn ${turn.id}`)));
  }

  /** On the turn's lane: a stale RUNNING turn becomes INTERRUPTED with its TurnFailed, its input back in the inbox, a turn requested. */
  private async interrupt(turn: Turn): Promise<void> {
    const ended = await new TurnEventSink(this.deps.store, { tenantId: turn.tenantId, processId: turn.processId, turnId: turn.id }).finish({
      status: 'INTERRUPTED', errorCode: 'INTERRUPTED', errorMessage: 'The server stopped during the turn; its input is back in the inbox.',
      end: { type: 'TurnFailed', payload: { code: 'INTERRUPTED', message: 'The server stopped during the turn; it runs again.' } },
    });
    if (ended) await this.dropOwnActivations(turn);
  }

  /** After a turn that ended without delivering: the skills its own hook activated go, so that its retry activates them again. */
  private async dropOwnActivations(turn: Turn): Promise<void> {
    const process = await this.deps.processes.deps.store.findProcess(turn.tenantId, turn.processId);
    if (!process) return;
    await this.deps.activation.afterFailedTurn(process, turn.startedAt).catch((err: unknown) => this.deps.onError?.(err, `clearing the activations of failed turn ${turn.id}`));
  }

  /** What the model would see next, without calling it (the inbox counts as the next messages). */
  async preview(process: Process): Promise<TurnComposition> {
    // Messages marked failed stay in the inbox, but no turn takes them.
    const pending = (await this.deps.processes.deps.store.listPending(process.tenantId, process.id)).filter((m) => m.failedAt === null);
    // With the skills the turn's pre-turn hook would activate for them (nothing written here).
    const next = await this.deps.activation.previewBeforeTurn(process, pending);
    return this.composer.compose(next, this.engineOf(process), pending.map((m) => m.content));
  }

  private engineOf(process: Process): Engine {
    const engine = isKnownEngine(process.engine) ? this.deps.engines.get(process.engine) : undefined;
    if (!engine) throw new UnknownEngineError(process.engine);
    return engine;
  }

  private async runOnLane(tenantId: string, processId: string): Promise<{ process: Process; result: TurnResult } | null> {
    const { processes, store } = this.deps;
    // The process comes with the turn (one statement): no turn unless it is IDLE.
    const begun = await store.beginTurn(tenantId, processId).catch(async (err: unknown) => {
      if (!(err instanceof StaleTurnError)) throw err;
      // A turn of this process is still RUNNING while we hold its lane: its final write failed (the
      // database was gone). It ends first — INTERRUPTED, its input back — so turns never overlap.
      for (const stale of await store.listRunningTurnsOf(processId)) await this.interrupt(stale);
      return store.beginTurn(tenantId, processId);
    });
    if (!begun) return null;
    const { process, turn, taken } = begun;
    const sink = new TurnEventSink(store, { tenantId, processId, turnId: turn.id });
    const text = new TextBatcher((chunk) => sink.emit('TextDelta', { text: chunk }));
    try {
      // Stored and published with the composition's events and the turn's next write (issue 18), or with the failure.
      sink.hold('TurnStarted', { turnId: turn.id, engine: process.engine, input: taken.map((m) => ({ sender: m.sender, senderName: m.senderName, preview: preview(m.content) })) });
      const engine = this.engineOf(process);
      const principal = await this.deps.principalOf(tenantId, process.userId);
      // The pre-turn hook (seed 000 §4a): the taken messages' auto-triggers, on this lane (skill-activation-service.ts).
      let logged = begun.log;
      const addInput = async (m: { senderName: string; content: string }): Promise<void> => {
        logged = undefined; // the log read with the turn is behind now
        await store.appendMessage(tenantId, processId, turn.id, storableMessage({ role: 'user', senderName: m.senderName, content: m.content, toolCall: null }).message);
      };
      let running = await this.deps.activation.beforeTurn(principal, process, taken, addInput);
      // Guard rounds and loop scratch are per user turn: a message from the user starts afresh (seed 004 §6d).
      if (taken.some((m) => m.sender === 'USER') && (Object.keys(running.guardRounds).length > 0 || hasLoopEntries(running.guardScratch))) {
        running = await processes.deps.store.update(tenantId, processId, (p) => ({ guardRounds: {}, guardScratch: clearLoops(p.guardScratch) }));
      }
      let composition = await this.composer.compose(running, engine, [], undefined, { tools: begun.clientTools, log: logged });
      const task = taskOf(taken);
      // A start guard may activate a skill for this turn (seed 004 §1), one-shot like a trigger's.
      let activated: Process | null = null;
      const activateSkill = async (name: string): Promise<boolean> => {
        const after = await this.deps.activation.activateForTurn(principal, activated ?? running, name, addInput);
        activated = after ?? activated;
        return after !== null;
      };
      const start = await this.runGuards('start', running, composition, principal, turn.id, sink, task, '', undefined, activateSkill);
      for (const prompt of start) await addInput({ senderName: '_guard', content: prompt });
      // Composed again with the skill; its history now holds what the guards and the activation added.
      if (activated) composition = await this.composer.compose(running = (await processes.deps.store.findProcess(tenantId, processId)) ?? running, engine, [], undefined, { tools: begun.clientTools });
      // The context budget (issue 8): history gives way, oldest first; the skills section never does.
      // Unless the guards added to it, the composition's own fit is the turn's (computed once).
      const fit = activated || start.length > 0
        ? fitHistory(composition, [...composition.history, ...(activated ? [] : start.map((content) => ({ role: 'user' as const, content })))])
        : { history: historyOf(composition.request), fitted: composition.budget };
      // What the first model call sends, and what PromptComposed shows (model-request.ts).
      const request = activated || start.length > 0 ? buildModelRequest(composition, fit.history) : composition.request;
      // Held with TurnStarted: stored by the turn's next write (its first text, a tool's or guard's
      // flush, the end), or on their own after heldEventsMaxDelayMs (issue 18: no write before the model).
      sink.hold('SkillVerdicts', { ...verdicts(running, composition), private: composition.privacy });
      sink.hold('PromptComposed', promptComposedPayload(composition, request, fit.fitted));
      sink.storeHeldWithin(this.deps.heldEventsMaxDelayMs ?? HELD_EVENTS_MAX_DELAY_MS);
      const replaced = { toolResults: 0, modelOutput: 0 };
      const reported: number[] = [];
      const ran = { toolCalls: 0 };
      const result = await this.runEngine(running, turn, engine, composition, request, sink, text, principal, replaced, reported, ran);
      const rest = await text.take();
      if (rest !== '') sink.hold('TextDelta', { text: rest });
      // Opening and closing are state of the reply: committed only now that it is delivered (issue 8).
      const picks = composition.openSkills;
      // The process after the turn's writes: each write answers it, so it is read at most once here.
      // Only a tool call or a guard writes it on this lane during the reply (engines do not): after a
      // reply that ran neither, `running` is still the process, and it is not read again (issue 18).
      let current = picks.changed
        ? await processes.deps.store.update(tenantId, processId, (p) => ({
          openSkills: [...picks.open],
          skillUses: picks.opened.reduce((uses, name) => ({ ...uses, [name]: (uses[name] ?? 0) + 1 }), { ...p.skillUses } as Record<string, number>),
        }))
        : ran.toolCalls > 0 || hasGuards(running) ? (await processes.deps.store.findProcess(tenantId, processId)) ?? process : running;
      // One-shot clean-up before TurnFinished: a client seeing TurnFinished sees the cleared skills.
      const cleaned = await this.deps.activation.afterTurn(current).catch((err: unknown) => {
        this.deps.onError?.(err, `one-shot clean-up of ${processId}`);
        return null;
      });
      // The yield point (seed 004 §6d): a worker's turn end is its `terminate` (it reports and is
      // done); a chat process's is `stop` (it waits for the next message). `both` runs at either, once.
      current = cleaned ? cleaned.process : (await processes.deps.store.findProcess(tenantId, processId)) ?? current;
      const follow = await this.runGuards(current.parentProcessId ? 'terminate' : 'stop', current, composition, principal, turn.id, sink, task, result.lastText, result.finishReason === 'stop');
      if (follow.length > 0) {
        const queued = await processes.queue(current, follow.map((content) => ({ sender: 'GUARD' as const, senderName: '_guard', content })), 'A completion guard asked to continue.');
        current = queued.process;
      }
      // The final state and TurnFinished in one write (issue 14): a turn ends once, with its event.
      const ended = await sink.finish({
        status: 'FINISHED', finishReason: result.finishReason, usage: result.usage, openSkillsBefore: running.openSkills,
        end: { type: 'TurnFinished', payload: {
          finishReason: result.finishReason, usage: result.usage, iterations: result.iterations, corrections: result.corrections, guardFollowUps: follow.length,
          openSkills: { open: [...picks.open], opened: picks.opened, closed: picks.closed },
          ...(replaced.toolResults + replaced.modelOutput > 0 ? { replacedCharacters: replaced } : {}),
          promptTokens: promptTokens(fit.fitted, reported),
          private: composition.privacy,
        } },
      });
      // A worker that a guard keeps going reports when it really stops.
      return ended && follow.length === 0 ? { process: current, result } : null;
    } catch (err) {
      await text.flush().catch(() => undefined);
      await this.fail(sink, turn, taken, err);
      return null;
    }
  }

  /**
   * A turn that failed: its input back in the inbox with the attempt counted and its retry
   * requested after a backoff, or marked failed once it failed the same way too often (turn-retry.ts);
   * the final state and TurnFailed in one write. When even that write fails (the database is
   * gone), the turn stays RUNNING: once this lane's lease is released, the sweep interrupts it
   * and runs it again.
   */
  private async fail(sink: TurnEventSink, turn: Turn, taken: readonly TakenMessage[], err: unknown): Promise<void> {
    const code = err instanceof DomainError ? err.code : 'INTERNAL';
    const message = toStorable(err instanceof Error ? err.message : String(err)).text;
    const restore = planRestore(taken, { code, message, counts: !(this.deps.isTransient?.(err) ?? false) }, this.deps.retry);
    const failedMessages = restore.messages.filter((m) => m.failed).map((m) => m.id);
    const ended = await sink.finish({
      status: 'FAILED', errorCode: code, errorMessage: message, restore,
      end: { type: 'TurnFailed', payload: { code, message, inboxKept: true, retryInMs: restore.retryInMs, ...(failedMessages.length > 0 ? { failedMessages } : {}) } },
    }).catch((e: unknown) => {
      this.deps.onError?.(e, `ending failed turn ${turn.id}`);
      return false;
    });
    if (ended) await this.dropOwnActivations(turn);
    // The retry is requested in the database (any instance's sweep runs it when due); this instance runs it on time.
    if (ended && restore.retryInMs !== null) this.retryLater(turn.tenantId, turn.processId, restore.retryInMs);
    if (!(err instanceof DomainError)) this.deps.onError?.(err, `turn ${turn.id}`);
  }

  private async runEngine(
    process: Process, turn: Turn, engine: Engine, composition: TurnComposition, request: ModelRequest, sink: TurnEventSink, text: TextBatcher, principal: Principal,
    replaced: { toolResults: number; modelOutput: number }, reported: number[], ran: { toolCalls: number },
  ): Promise<TurnResult> {
    const { provider } = this.deps;
    const params = process.engineParams;
    const settings = this.deps.settings.reader(process.tenantId, process.projectId);
    const allowed = new Set(composition.pool.allowed);
    const dispatchAt = turnDispatcher(this.deps.toolbox, process, turn.id, composition, principal, allowed, async (type, payload) => {
      await text.flush();
      await sink.emit(type, payload);
    }, () => void (ran.toolCalls += 1));
    const timeoutMs = positiveInt(params.modelTimeoutMs) ?? this.deps.modelTimeoutMs ?? 120_000;
    return engine.run({
      process,
      turnId: turn.id,
      // The engine's first call sends these as they are: [...system, ...history] with these tools.
      system: systemOf(request),
      history: historyOf(request),
      tools: request.tools,
      loadedTools: () => composition.deferredTools.loaded(),
      maxIterations: positiveInt(params.maxIterations) ?? DEFAULT_MAX_ITERATIONS,
      // DESIGN §10 booleans, the reader the save-time check uses (check-engine-params.ts).
      validation: parseBooleanish(params.validation) ?? false,
      dataRelayCorrection: process.dataRelayCorrectionOverride,
      // What the model and the tools hand back is made storable before anything stores it (issue 13).
      callModel: (messages, tools) => storableModelStream(reportingUsage(callWithDeadline(provider, {
        provider: request.provider, model: request.model, messages, tools, sampling: request.sampling, settings,
      }, timeoutMs), reported), (n) => { replaced.modelOutput += n; }),
      dispatch: async (call) => {
        await text.flush();
        await sink.flush(); // a tool may read the chat log
        const result = storableToolResult(await dispatchAt(call.name, call.arguments, 0));
        replaced.toolResults += result.replaced ?? 0;
        return result;
      },
      // Held: stored with the turn's next write (a tool call's event, the end), in order.
      record: async (message) => {
        if (message.role !== 'assistant') await text.flush();
        const storable = storableMessage(message);
        if (message.role === 'assistant') replaced.modelOutput += storable.replaced;
        sink.holdMessage(storable.message);
      },
      text: (delta) => text.push(delta),
      emit: async (type, payload) => {
        await text.flush();
        await sink.emit(type, payload);
      },
    });
  }

  /** Runs the guards of one point; returns their follow-up prompts. */
  private async runGuards(
    point: GuardPoint, process: Process, composition: TurnComposition, principal: Principal, turnId: string,
    sink: TurnEventSink, task: string, output: string, naturalStop?: boolean, activateSkill?: (name: string) => Promise<boolean>,
  ): Promise<string[]> {
    const guards = this.deps.guards;
    if (!guards || !hasGuards(process)) return [];
    await sink.flush(); // a guard's script may read the chat log
    const allowed = new Set(composition.pool.allowed);
    const emit = async (type: 'GuardRan' | 'ScriptLog', payload: Readonly<Record<string, unknown>>): Promise<void> => {
      await sink.emit(type, payload);
    };
    const dispatchAt = turnDispatcher(this.deps.toolbox, process, turnId, composition, principal, allowed, emit);
    const tools: ToolInvocationContext = {
      principal, process, scope: composition.scope,
      turn: { turnId, depth: 0, callTool: dispatchAt, log: (source, level, message) => emit('ScriptLog', { source, level, message }) },
    };
    // The runner stores the round counters and scratch the point changed (guard-runner.ts).
    const outcome = await guards.run({ point, process, scope: composition.scope, principal, task, output, naturalStop, tools, emit, ...(activateSkill ? { activateSkill } : {}) });
    return [...outcome.continueWith];
  }

  /** A child's finished turn goes to its parent's inbox as the input of the parent's next turn. */
  private async reportToParent(child: Process, result: TurnResult): Promise<void> {
    const parentId = child.parentProcessId;
    if (!parentId) return;
    const { processes } = this.deps;
    await processes.deps.lane.run(parentId, async () => {
      const parent = await processes.deps.store.findProcess(child.tenantId, parentId);
      if (!parent || parent.status !== 'IDLE') return;
      await processes.queue(parent, [{ sender: 'PROCESS', senderName: child.name, content: `Result of ${child.name}${child.title ? ` (${child.title})` : ''}: ${result.lastText}` }], `Child '${child.name}' finished a turn.`);
    });
  }
}

export class UnknownEngineError extends DomainError {
  readonly code = 'UNKNOWN_ENGINE';
  readonly category = 'BAD_INPUT';
  constructor(engine: string) {
    super(`Unknown engine '${engine}'`);
  }
}

/** Whether the process has completion guards (its recipe's or its own). */
function hasGuards(process: Process): boolean {
  return process.recipeGuards.length > 0 || process.guards.length > 0;
}

/** The user's words of the turn (what a guard judges as the task); other input when there are none. */
function taskOf(taken: readonly TakenMessage[]): string {
  const user = taken.filter((m) => m.sender === 'USER');
  return (user.length > 0 ? user : taken).map((m) => m.content).join('\n\n');
}
