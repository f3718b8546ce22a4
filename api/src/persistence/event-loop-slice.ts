/**
 * Embedded PGlite runs every statement synchronously on this thread, and a query's promise resolves
 * without any I/O, so a turn's 50 statements chained through `await` ran as ONE macrotask: the event
 * loop was held for the whole turn (22–300 ms), and another tenant's request waited for all of it
 * (issue 13). `EventLoopSlice.pass()` is awaited before each statement: once the current slice has
 * run longer than `sliceMs`, it yields to the event loop (setImmediate, after pending I/O), so other
 * work waits at most about one slice plus one statement. Within a slice it costs a clock read.
 */
import { performance } from 'node:perf_hooks';

export class EventLoopSlice {
  private started = performance.now();
  private yielding: Promise<void> | null = null;

  constructor(private readonly sliceMs: number) {}

  /** Resolves at once inside the slice; past it, after the event loop has had its turn. */
  pass(): Promise<void> | void {
    if (this.yielding) return this.yielding;
    if (performance.now() - this.started < this.sliceMs) return;
    this.yielding = new Promise<void>((resolve) =>
      setImmediate(() => {
        this.yielding = null;
        this.started = performance.now();
        resolve();
      }),
    );
    return this.yielding;
  }
}
