/**
 * SIGTERM/SIGINT for `npm start` (main.ts), listened to from the first moment of the start. Before
 * anything is opened a signal ends the process at once. During the start it lets the start finish
 * — the embedded database is opening on its thread, and cutting that off would leave the directory
 * to crash recovery and its lock behind — and then closes what started, as a signal after the
 * start does. Closing is capped at 10 s; a second signal changes nothing.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface ShutdownOptions {
  readonly exit?: (code: number) => void;
  readonly capMs?: number;
}

export class ShutdownOnSignal {
  private start: Promise<Closable> | null = null;
  private stopping = false;
  private log: (message: string, signal: string) => void = () => {};
  private readonly exit: (code: number) => void;
  private readonly capMs: number;

  constructor(options: ShutdownOptions = {}) {
    this.exit = options.exit ?? ((code) => process.exit(code));
    this.capMs = options.capMs ?? 10_000;
  }

  /** `on`, not `once`: loaders such as tsx re-raise a signal that no listener is left for. */
  listen(): this {
    process.on('SIGTERM', () => this.stop('SIGTERM'));
    process.on('SIGINT', () => this.stop('SIGINT'));
    return this;
  }

  /** The start under way; a signal from now on closes what it returns. Returns `start`. */
  starting<T extends Closable>(start: Promise<T>): Promise<T> {
    this.start = start;
    return start;
  }

  /** Where "shutting down" and a failed close are reported once a logger exists. */
  logTo(log: (message: string, signal: string) => void): void {
    this.log = log;
  }

  stop(signal: string): void {
    if (this.stopping) return;
    this.stopping = true;
    if (!this.start) return this.exit(0); // nothing opened yet
    this.log('shutting down', signal);
    const force = setTimeout(() => this.exit(1), this.capMs);
    force.unref();
    const closed = this.start.then((running) => running.close());
    closed.then(
      () => { clearTimeout(force); this.exit(0); },
      // A start that failed is reported by main's own handler, which exits 1.
      (err: unknown) => { clearTimeout(force); this.log(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`, signal); this.exit(1); },
    );
  }
}
