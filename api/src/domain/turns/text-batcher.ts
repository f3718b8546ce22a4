/** Text deltas of a turn's reply, batched before they are stored as TextDelta events (turn-event-sink.ts). */
import { MAX_INLINE_PAYLOAD_BYTES } from '../events/notification-size';

/** What `{"text":""}` costs around the text in a TextDelta's payload. */
const PAYLOAD_FRAME_BYTES = '{"text":""}'.length;

/**
 * TextDelta batching: text is held until 200 characters or 50 ms after the first held character,
 * whichever comes first, then emitted as one TextDelta. `flush()` emits what is held at once.
 *
 * One TextDelta is written at a time, and under backpressure text coalesces (issue 18): while a
 * write is in flight, text keeps accumulating, and when the write completes everything held and
 * due goes out as one TextDelta, instead of 200-character chunks queued behind each other (each
 * is fanned out to every subscriber: at 1,000 of them an 8,000-character answer was ~45 deltas
 * that queued). A delta never exceeds the inline payload bound (notification-size.ts, UTF-8 bytes
 * of its JSON), so none is sent without its payload; longer text is cut there, never inside a
 * surrogate pair, and the parts go out back to back.
 */
export class TextBatcher {
  private held = '';
  private timer: NodeJS.Timeout | null = null;
  /** The held text is due although shorter than maxChars: its 50 ms passed, or it is the rest of a cut. */
  private ripe = false;
  /** The write in flight (it never rejects: its error goes to `failure`). */
  private writing: Promise<void> | null = null;
  /** While `take` waits, a completed write releases nothing: what is held goes back to the caller. */
  private taking = false;
  /** Characters pushed, characters handed to writes, and those whose write has ended (UTF-16 units). */
  private pushed = 0;
  private sent = 0;
  private settled = 0;
  /** `flush` emits everything pushed up to here, a trailing high surrogate included. */
  private flushTo = 0;
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
    this.pushed += text.length;
    if (this.held.length >= this.maxChars) this.release();
    else if (!this.ripe) this.timer ??= setTimeout(() => {
      this.timer = null;
      this.ripe = true;
      this.release();
    }, this.maxDelayMs);
  }

  /**
   * Emits what is held and waits for every chunk. A chunk that could not be stored fails the flush
   * (issue 14): the turn then fails, instead of finishing with text its stream showed but its log
   * lacks (73,167 characters stored against 72,303 streamed after a database blip).
   */
  async flush(): Promise<void> {
    const upTo = this.pushed;
    this.flushTo = upTo;
    this.release();
    while (this.settled < upTo && this.writing && !this.failure) await this.writing;
    if (this.failure) throw this.failure.error;
  }

  /**
   * Waits for every emitted chunk (throwing the first that could not be stored, as `flush` does)
   * and hands back what is still held instead of emitting it: the caller stores it with its next
   * write. Only what would not fit in one TextDelta's payload is emitted first.
   */
  async take(): Promise<string> {
    this.clearTimer();
    this.taking = true;
    try {
      while (this.writing) await this.writing;
      while (!this.failure && inlinePrefixLength(this.held) < this.held.length) {
        this.write(this.cut(false));
        await this.writing;
      }
    } finally {
      this.taking = false;
    }
    if (this.failure) throw this.failure.error;
    const held = this.held;
    this.held = '';
    this.ripe = false;
    this.sent = this.settled = this.pushed;
    return held;
  }

  /** Starts the next write when none is in flight and the held text is due. */
  private release(): void {
    if (this.writing || this.taking || this.failure || this.held === '') return;
    const flushing = this.sent < this.flushTo;
    if (!flushing && !this.ripe && this.held.length < this.maxChars) return;
    const text = this.cut(flushing && this.pushed <= this.flushTo);
    if (text !== '') this.write(text);
  }

  /** Takes the longest held prefix that fits one payload; what is left by that bound stays due. */
  private cut(final: boolean): string {
    const fits = inlinePrefixLength(this.held);
    const cutAtBound = fits < this.held.length;
    // A surrogate pair split across two model deltas stays whole: its first half waits for the next chunk.
    const end = !cutAtBound && !final && isHighSurrogate(this.held.charCodeAt(fits - 1)) ? fits - 1 : fits;
    const text = this.held.slice(0, end);
    this.held = this.held.slice(end);
    this.ripe = cutAtBound;
    if (this.held === '' || this.ripe) this.clearTimer();
    return text;
  }

  private write(text: string): void {
    this.sent += text.length;
    const done = (): void => {
      this.settled += text.length;
      this.writing = null;
      this.release();
    };
    // Started from a fresh microtask, as a chained write was: the pusher's call returns first.
    this.writing = Promise.resolve().then(() => this.emit(text)).then(done, (error: unknown) => {
      this.failure ??= { error };
      done();
    });
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * How many UTF-16 units from the start of `text` fit in one TextDelta's payload: its JSON
 * (`{"text":…}`, escapes counted as JSON.stringify writes them) in at most MAX_INLINE_PAYLOAD_BYTES
 * of UTF-8. Never ends between the halves of a surrogate pair.
 */
export function inlinePrefixLength(text: string, maxBytes = MAX_INLINE_PAYLOAD_BYTES): number {
  const budget = maxBytes - PAYLOAD_FRAME_BYTES;
  // At most 6 bytes per unit (`\u001f`, a lone surrogate's escape): short text fits without counting.
  if (text.length * 6 <= budget) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let units = 1;
    let cost: number;
    if (code < 0x20) cost = code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) cost = 2;
    else if (code < 0x80) cost = 1;
    else if (code < 0x800) cost = 2;
    else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      cost = 4;
      units = 2;
    } else if (isHighSurrogate(code) || isLowSurrogate(code)) cost = 6;
    else cost = 3;
    if (bytes + cost > budget) return i;
    bytes += cost;
    i += units - 1;
  }
  return text.length;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
