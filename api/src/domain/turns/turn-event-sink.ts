import { fitsInline, MAX_INLINE_PAYLOAD_BYTES } from '../events/notification-size';
import { storableValue } from '../shared/storable-text';
import type { NewChatLogMessage, NewTurnEvent, TurnEvent, TurnEventEnvelope, TurnEventType, TurnOutcome } from './turn';
import type { TurnStore } from './turn-store';

/** Payloads above this many UTF-8 bytes go out without payload (notification-size.ts); subscribers load it by id. */
export const MAX_INLINE_PAYLOAD_CHARS = MAX_INLINE_PAYLOAD_BYTES;

/**
 * Writes the events of one turn, strictly in order (one promise chain): the event id (a bigint
 * identity) orders replay, and live delivery follows the same order. The store announces each
 * event with the statement that stores it (issue 14: an event is committed with its data, never
 * published after a commit that a failed publish would then report as failed). Payloads are made
 * storable first (a preview cut inside a surrogate pair, a NUL in a script's log line: issue 13).
 * The turn's end goes through `finish`, behind every event before it.
 *
 * What nothing needs stored yet — TurnStarted and the composition's events before the model's
 * first text, the reply and its last text before the turn ends, a tool result before the next
 * call — is held (`hold`, `holdMessage`) and stored by the next write, in order before that
 * write's own events (issue 18: a turn of the offline provider went from 12 statements to 3). A
 * held event is published when it is committed, never before. `storeHeldWithin` bounds the wait:
 * an operator watching a slow model still sees the composition within that time (DESIGN §10).
 *
 * A deadline write has no caller to fail, so its failure stays: every later write fails with it
 * (nothing is stored behind lost events), and so does a FINISHED end; a failure end goes out.
 */
export class TurnEventSink {
  private chain: Promise<unknown> = Promise.resolve();
  private heldEvents: NewTurnEvent[] = [];
  private heldMessages: NewChatLogMessage[] = [];
  private deadline: ReturnType<typeof setTimeout> | null = null;
  /** The failure of a deadline write (see above). */
  private failure: { readonly error: unknown } | null = null;
  /** `finish` was called: no deadline write any more. */
  private ended = false;

  constructor(
    private readonly store: TurnStore,
    private readonly turn: { readonly tenantId: string; readonly processId: string; readonly turnId: string },
  ) {}

  emit(type: TurnEventType, payload: Readonly<Record<string, unknown>>): Promise<TurnEvent> {
    return this.emitAll([{ type, payload }]).then((stored) => stored.at(-1)!);
  }

  /** Several events in one write (events that are ready together), announced in order with it, after what is held. */
  emitAll(events: readonly NewTurnEvent[]): Promise<TurnEvent[]> {
    return this.append(events, false);
  }

  /** An event stored (and published) with the next write. */
  hold(type: TurnEventType, payload: Readonly<Record<string, unknown>>): void {
    this.heldEvents.push(storable({ type, payload }));
  }

  /** A chat-log row of the turn stored with the next write (before its events). */
  holdMessage(message: NewChatLogMessage): void {
    this.heldMessages.push(message);
  }

  /** Stores what is held now (before anything that may read it: a tool, a guard) and waits for every write. */
  async flush(): Promise<void> {
    if (this.holds()) await this.emitAll([]);
    else await this.enqueue(() => this.afterFailure() ?? Promise.resolve());
  }

  /**
   * What is held now is stored at the latest `ms` from now: by the turn's next write if one comes
   * first, otherwise by a write of its own. One deadline at a time; the end clears it.
   */
  storeHeldWithin(ms: number): void {
    if (this.ended || this.deadline || !this.holds()) return;
    this.deadline = setTimeout(() => {
      this.deadline = null;
      if (!this.ended && this.holds()) this.append([], true).catch(() => undefined);
    }, ms);
  }

  /**
   * Ends the turn: what is held, its final state and its one end event (TurnFinished / TurnFailed)
   * in one write, after every event emitted before. False when the turn had ended already (nothing written).
   */
  finish(outcome: TurnOutcome & { readonly end: NewTurnEvent }): Promise<boolean> {
    const held = this.takeHeld();
    const end = storable(outcome.end);
    const write = (): Promise<boolean> => this.store.finishTurn(this.turn.tenantId, this.turn.turnId, { ...outcome, end, held });
    // A FINISHED end after lost events throws (the turn then fails); a failure end is what ends it then.
    this.ended = true; // no deadline write after the end was asked for (a failed end is followed by a failure end)
    return this.enqueue(() => (outcome.status === 'FINISHED' ? this.afterFailure() ?? write() : write()));
  }

  /** What is held and `events` in one write; a deadline write keeps its failure before the next write runs. */
  private append(events: readonly NewTurnEvent[], deadline: boolean): Promise<TurnEvent[]> {
    const { events: held, messages } = this.takeHeld();
    const all = [...held, ...events.map(storable)];
    return this.enqueue(() => this.afterFailure() ?? this.store.appendEvents(this.turn.tenantId, this.turn.processId, this.turn.turnId, all, messages)
      .catch((error: unknown) => {
        if (deadline) this.failure ??= { error };
        throw error;
      }));
  }

  private holds(): boolean {
    return this.heldEvents.length > 0 || this.heldMessages.length > 0;
  }

  /** A rejection with the deadline write's failure, if one failed. */
  private afterFailure(): Promise<never> | undefined {
    return this.failure ? Promise.reject(this.failure.error) : undefined;
  }

  private takeHeld(): { events: NewTurnEvent[]; messages: NewChatLogMessage[] } {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
    const held = { events: this.heldEvents, messages: this.heldMessages };
    this.heldEvents = [];
    this.heldMessages = [];
    return held;
  }

  private enqueue<T>(write: () => Promise<T>): Promise<T> {
    const next = this.chain.then(write);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

function storable(event: NewTurnEvent): NewTurnEvent {
  return { type: event.type, payload: storableValue(event.payload).value };
}

export function envelopeOf(event: TurnEvent): TurnEventEnvelope {
  if (fitsInline(event.payload)) return event;
  const { payload: _payload, ...rest } = event;
  return rest;
}
