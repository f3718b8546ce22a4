/**
 * Publish/subscribe between the parts of one instance and, through the adapter, across instances
 * (PostgreSQL LISTEN/NOTIFY). Payloads are plain JSON-able data.
 */
import type { EventRoute } from './topic-handlers';

export type Unsubscribe = () => void;

export interface SubscribeOptions {
  /** Only events published on this instance (the turn runner: a turn requested elsewhere is run there). */
  readonly localOnly?: boolean;
  /**
   * Every event in the order the database committed it, across instances: this instance's own
   * events arrive with the others' (through the database, as their echo), not ahead of them. A
   * stream of stored events needs this: when a process's lane moves to this instance, its first own
   * event was delivered at once while the other instance's last event was still on its way, and the
   * stream, which keeps ids increasing, dropped that one (fault suite, CI stop 29: a TurnFinished).
   * While the bus does not hear the others (`hearsOthers()` false), own events come at once.
   */
  readonly ordered?: boolean;
  /** Only the events of this route's key (e.g. one process's), found by the bus by key (topic-handlers.ts). */
  readonly route?: EventRoute;
}

export interface EventBus {
  publish<T>(topic: string, payload: T): Promise<void>;
  subscribe<T>(topic: string, handler: (payload: T) => void, options?: SubscribeOptions): Unsubscribe;
  /**
   * Called when events from other instances may have been lost (e.g. after a reconnect), so that
   * caches kept coherent by events can drop what they hold.
   */
  onMissedEvents(handler: () => void): Unsubscribe;
  /**
   * False while events of other instances may be going missed (the listening connection is lost
   * and not back yet); an `onMissedEvents` call follows when it is back. Absent: always true.
   */
  hearsOthers?(): boolean;
  close(): Promise<void>;
}
