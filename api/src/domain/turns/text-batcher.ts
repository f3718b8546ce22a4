/** Text deltas of a turn's reply, batched before they are stored as TextDelta events (turn-event-sink.ts). */

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
