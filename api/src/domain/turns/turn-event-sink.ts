import { fitsInline, MAX_INLINE_PAYLOAD_BYTES } from '../events/notification-size';
import { storableValue } from '../shared/storable-text';
import type { NewTurnEvent, TurnEvent, TurnEventEnvelope, TurnEventType, TurnOutcome } from './turn';
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
 */
export class TurnEventSink {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: TurnStore,
    private readonly turn: { readonly tenantId: string; readonly processId: string; readonly turnId: string },
  ) {}

  emit(type: TurnEventType, payload: Readonly<Record<string, unknown>>): Promise<TurnEvent> {
    return this.emitAll([{ type, payload }]).then((stored) => stored[0]!);
  }

  /** Several events in one write (events that are ready together), announced in order with it. */
  emitAll(events: readonly NewTurnEvent[]): Promise<TurnEvent[]> {
    return this.enqueue(() => this.store.appendEvents(this.turn.tenantId, this.turn.processId, this.turn.turnId,
      events.map((e) => ({ type: e.type, payload: storableValue(e.payload).value }))));
  }

  /**
   * Ends the turn: its final state and its one end event (TurnFinished / TurnFailed) in one write,
   * after every event emitted before. False when the turn had ended already (nothing written).
   */
  finish(outcome: TurnOutcome & { readonly end: NewTurnEvent }): Promise<boolean> {
    const end = { type: outcome.end.type, payload: storableValue(outcome.end.payload).value };
    return this.enqueue(() => this.store.finishTurn(this.turn.tenantId, this.turn.turnId, { ...outcome, end }));
  }

  private enqueue<T>(write: () => Promise<T>): Promise<T> {
    const next = this.chain.then(write);
    this.chain = next.catch(() => undefined);
    return next;
  }
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
