/**
 * A subscription whose `next` messages are written to its socket as its events are pushed, not
 * pulled one by one through graphql-ws (issue 18, fan-out). graphql-ws reads a subscription with
 * `for await` and awaits onNext and the socket write of every event: with 1,000 subscribers of one
 * turn that is a chain of promises per event and subscriber (the source stream, its maps, our
 * mapping to results, graphql-ws's loop), and an object spread and a message validation each.
 * Here the source hands each root value over in the bus's own call (PushIterator.pushTo); a shared
 * result without errors, encoded once (shared-subscription-results.ts), goes straight out as the
 * message `{"id":…,"type":"next","payload":…}`.
 *
 * graphql-ws still owns the subscription: it holds the iterator returned here, its `return()`
 * (complete, close) ends the source, and it sends `complete` when the iterator ends. Everything that
 * cannot go straight out — an error to format, a result still being executed, a socket backed up —
 * goes through graphql-ws's ordinary path, and while anything is on that path later events follow
 * it, so the order of one subscription's messages never changes. A socket whose writes back up falls
 * back to that path too, where graphql-ws awaits each write and the source's bounded buffer holds
 * what waits (push-iterator.ts).
 */
import type { ExecutionResult } from 'graphql';
import type { PushableIterator } from '../domain/shared/push-iterator';
import type { SerializedPayload } from './ws-transport';

/** Where one subscription's `next` messages can be written at once. */
export interface NextOutlet {
  /** Writes a `next` message with this payload now; false when it cannot (socket closed or backed up). */
  write(payload: SerializedPayload): boolean;
}

type Result = ExecutionResult | Promise<ExecutionResult>;

export function directNext(
  source: PushableIterator<unknown>,
  resultOf: (root: unknown) => Result,
  serializedOf: (result: ExecutionResult) => SerializedPayload | null,
  outlet: NextOutlet,
  maxBuffered = 10_000,
): AsyncIterableIterator<ExecutionResult> {
  /** Results waiting for graphql-ws's own path, oldest first (past maxBuffered the oldest goes, as in PushIterator). */
  const queue: Result[] = [];
  /** graphql-ws holds a result of the slow path and has not asked for the next one (it is still sending it). */
  let inFlight = false;
  let waiter: ((result: Result | null) => void) | null = null;
  let ended = false;
  source.pushTo((root) => {
    if (ended) return;
    const result = resultOf(root);
    if (!inFlight && queue.length === 0 && !(result instanceof Promise)) {
      const payload = serializedOf(result);
      if (payload !== null && outlet.write(payload)) return;
    }
    if (waiter) {
      const give = waiter;
      waiter = null;
      inFlight = true;
      give(result);
      return;
    }
    if (queue.length >= maxBuffered) queue.shift();
    queue.push(result);
  });
  const end = (): void => {
    ended = true;
    queue.length = 0;
    waiter?.(null);
    waiter = null;
  };
  // The source ends only through return() or throw() (the consumer's); the slow path ends with it.
  void source.next().then(end, end);
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: async () => {
      inFlight = false;
      let result: Result | null;
      if (queue.length > 0) {
        result = queue.shift()!;
        inFlight = true;
      } else {
        result = ended ? null : await new Promise<Result | null>((resolve) => (waiter = resolve));
      }
      return result === null ? { value: undefined, done: true } : { value: await result, done: false };
    },
    return: async () => {
      end();
      await source.return?.();
      return { value: undefined, done: true };
    },
    throw: async (error: unknown) => {
      await iterator.return!();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
