/**
 * Hands one socket's messages to graphql-ws a few at a time. `ws` emits every frame of a received
 * chunk in one task, and graphql-ws starts each operation synchronously up to its first `await`, so
 * a client that sent 5,000 subscribe frames at once held the event loop 270 ms while they were all
 * refused (issue 13). Here at most `perTurn` messages are handed over per event-loop turn (then
 * setImmediate: pending I/O, including other sockets and HTTP requests, runs in between), and the
 * socket is paused while `pauseAt` wait, so TCP pushes back on the sender instead of our memory
 * growing. Handing over does not wait for a message's handling to finish: a subscription's handler
 * lasts as long as the subscription.
 */
export interface PausableSocket {
  pause(): void;
  resume(): void;
  readonly isPaused: boolean;
}

export class MessagePacer {
  private queue: string[] = [];
  private head = 0;
  /** Messages handed over in the current event-loop turn (reset by an immediate). */
  private used = 0;
  private resetArmed = false;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly socket: PausableSocket,
    private readonly deliver: (message: string) => void,
    private readonly perTurn: number,
    private readonly pauseAt: number,
  ) {}

  get waiting(): number {
    return this.queue.length - this.head;
  }

  push(message: string): void {
    if (this.stopped) return;
    // Within this turn's budget and with nothing waiting, a message goes at once (no added latency).
    if (this.waiting === 0 && this.used < this.perTurn) {
      this.handOver(message);
      return;
    }
    this.queue.push(message);
    if (this.waiting >= this.pauseAt && !this.socket.isPaused) this.socket.pause();
    this.schedule();
  }

  /** Drops what waits (the socket closed or was cut off). */
  stop(): void {
    this.stopped = true;
    this.queue = [];
    this.head = 0;
  }

  private handOver(message: string): void {
    this.used++;
    if (!this.resetArmed) {
      this.resetArmed = true;
      setImmediate(() => {
        this.resetArmed = false;
        this.used = 0;
      });
    }
    this.deliver(message);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  private drain = (): void => {
    this.scheduled = false;
    while (this.used < this.perTurn && this.waiting > 0 && !this.stopped) this.handOver(this.queue[this.head++]!);
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.stopped) return;
    if (this.socket.isPaused && this.waiting < this.pauseAt / 2) this.socket.resume();
    if (this.waiting > 0) this.schedule();
  };
}
