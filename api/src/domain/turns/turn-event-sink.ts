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
 * What nothing needs stored yet — TurnStarted before the composition is ready, the reply and its
 * last text before the turn ends, a tool result before the next call — is held (`hold`,
 * `holdMessage`) and stored by the next write, in order before that write's own events (issue 18:
 * a turn of the offline provider went from 12 statements to 8). A held event is published when
 * it is committed, never before.
 */
export class TurnEventSink {
  private chain: Promise<unknown> = Promise.resolve();
  private heldEvents: NewTurnEvent[] = [];
  private heldMessages: NewChatLogMessage[] = [];

  constructor(
    private readonly store: TurnStore,
    private readonly turn: { readonly tenantId: string; readonly processId: string; readonly turnId: string },
  ) {}

  emit(type: TurnEventType, payload: Readonly<Record<string, unknown>>): Promise<TurnEvent> {
    return this.emitAll([{ type, payload }]).then((stored) => stored.at(-1)!);
  }

  /** Several events in one write (events that are ready together), announced in order with it, after what is held. */
  emitAll(events: readonly NewTurnEvent[]): Promise<TurnEvent[]> {
    const { events: held, messages } = this.takeHeld();
    const all = [...held, ...events.map(storable)];
    return this.enqueue(() => this.store.appendEvents(this.turn.tenantId, this.turn.processId, this.turn.turnId, all, messages));
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
    if (this.heldEvents.length > 0 || this.heldMessages.length > 0) await this.emitAll([]);
    else await this.chain;
  }

  /**
   * Ends the turn: what is held, its final state and its one end event (TurnFinished / TurnFailed)
   * in one write, after every event emitted before. False when the turn had ended already (nothing written).
   */
  finish(outcome: TurnOutcome & { readonly end: NewTurnEvent }): Promise<boolean> {
    const held = this.takeHeld();
    const end = storable(outcome.end);
    return this.enqueue(() => this.store.finishTurn(this.turn.tenantId, this.turn.turnId, { ...outcome, end, held }));
  }

  private takeHeld(): { events: NewTurnEvent[]; messages: NewChatLogMessage[] } {
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

/**
 * TextDelta batching: text is held until 200 characters or 50 ms after the first held character,
 * whichever comes first, then emitted as one TextDelta. `flush()` emits what is held at once.
 */
export class TextBatcher {
  private held = '';
  private timer: NodeJS.Timeout | null = null;
  private pending: Promise<unknown> = Promise.resolve();
  /** The first chunk that could not be stored: later ones are dropped and `flush` throws it. */
  private failure: { readonly error: unknown } | null = null;

  constructor(
    private readonly emit: (text: string) => Promise<unknown>,
    private readonly maxChars = 200,
    private readonly maxDelayMs = 50,
  ) {}

  push(text: string): void {
    if (text === '') return;
    this.held += text;
    if (this.held.length >= this.maxChars) this.release();
    else this.timer ??= setTimeout(() => this.release(), this.maxDelayMs);
  }

  /**
   * Emits what is held and waits for every chunk. A chunk that could not be stored fails the flush
   * (issue 14): the turn then fails, instead of finishing with text its stream showed but its log
   * lacks (73,167 characters stored against 72,303 streamed after a database blip).
   */
  async flush(): Promise<void> {
    this.release(true);
    await this.pending;
    if (this.failure) throw this.failure.error;
  }

  /**
   * Waits for every emitted chunk (throwing the first that could not be stored, as `flush` does)
   * and hands back what is still held instead of emitting it: the caller stores it with its next write.
   */
  async take(): Promise<string> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pending;
    if (this.failure) throw this.failure.error;
    const held = this.held;
    this.held = '';
    return held;
  }

  private release(final = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.held === '') return;
    // A surrogate pair split across two model deltas stays whole: its first half waits for the next chunk.
    const split = !final && /[\ud800-\udbff]$/.test(this.held) ? 1 : 0;
    const text = this.held.slice(0, this.held.length - split);
    this.held = this.held.slice(this.held.length - split);
    if (text === '') return;
    this.pending = this.pending.then(() => (this.failure ? undefined : this.emit(text))).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }
}
