import { describe, expect, it } from 'vitest';
import { ShutdownOnSignal } from './shutdown-on-signal';

/** A start that resolves or rejects when the test says so, and counts closes. */
function controlledStart() {
  let resolve!: (value: { close(): Promise<void> }) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<{ close(): Promise<void> }>((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => {});
  const running = { closes: 0, close: async () => { running.closes += 1; } };
  return { promise, resolve: () => resolve(running), reject, running };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ShutdownOnSignal', () => {
  it('ends at once when nothing has been opened yet', () => {
    const exits: number[] = [];
    new ShutdownOnSignal({ exit: (code) => exits.push(code) }).stop('SIGTERM');
    expect(exits).toEqual([0]);
  });

  it('during the start waits for it, then closes what started and exits 0', async () => {
    const exits: number[] = [];
    const shutdown = new ShutdownOnSignal({ exit: (code) => exits.push(code) });
    const start = controlledStart();
    void shutdown.starting(start.promise);
    shutdown.stop('SIGTERM');
    shutdown.stop('SIGINT'); // a second signal changes nothing
    await tick();
    expect(exits).toEqual([]); // the start is still under way
    start.resolve();
    await tick();
    expect(start.running.closes).toBe(1);
    expect(exits).toEqual([0]);
  });

  it('exits 1 when the start it waited for failed', async () => {
    const exits: number[] = [];
    const messages: string[] = [];
    const shutdown = new ShutdownOnSignal({ exit: (code) => exits.push(code) });
    shutdown.logTo((message) => messages.push(message));
    const start = controlledStart();
    void shutdown.starting(start.promise);
    shutdown.stop('SIGTERM');
    start.reject(new Error('port taken'));
    await tick();
    expect(exits).toEqual([1]);
    expect(messages).toEqual(['shutting down', 'shutdown failed: port taken']);
  });

  it('exits 1 when closing takes longer than the cap', async () => {
    const exits: number[] = [];
    const shutdown = new ShutdownOnSignal({ exit: (code) => exits.push(code), capMs: 1 });
    void shutdown.starting(Promise.resolve({ close: () => new Promise<void>(() => {}) }));
    shutdown.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([1]);
  });
});
